#!/usr/bin/env python3
"""your-entry.py: builds `make ENTRY="a.S b.S"` into irqlab
(docs/your-entry.md).

  your-entry.py list OUT_DIR FILE...
      checks each file's markers and writes OUT_DIR/yours_list.h (the
      files as rows of VARIANT_LIST, arch/matrix.h) and OUT_DIR/yours.S
      (each file inside a macro of its own, its handlers made from it);
      a file is rewritten only when its text changes, so that an
      unchanged ENTRY rebuilds nothing.
  your-entry.py selected CONFIG FILE...
      stops, with the sentence, where CONFIG's variants select none of a
      file's rows (`variants = none`, or a list without yours-<name>):
      the run would measure nothing of it and say no more.
  your-entry.py counts OUT_DIR OBJECT FILE...
      writes OUT_DIR/yours_files.h: each file's path, SHA-256 and the
      instructions of its two parts in OBJECT's listing (objdump), as
      irqlab-entry.lst lists every entry path.

A file with no YOUR_ENTRY, or with two, or without YOUR_EXIT and
YOUR_END after it, or with code outside them, is refused here with a
sentence: the assembler would only say that a conditional was left open,
or assemble the stray code into both parts."""

import hashlib
import os
import re
import subprocess
import sys

NAME = re.compile(r"^[A-Za-z0-9.-]{1,24}$")
# A marker at the start of a line, outside comments (matched on the
# text without them, as the preprocessor drops them).
MARKER = re.compile(r"^\s*(YOUR_ENTRY|YOUR_EXIT|YOUR_END)\b(.*)$")
ENTRY_ARGS = re.compile(r'^\s+([^,\s]+)\s*,\s*"([^"\\]*)"\s*$')
WORDS_MAX = 120
# What may stand outside the parts: blank lines, the preprocessor's
# lines (#define, #include, a `#` comment), `//` comments and /* */
# blocks. Anything else would be assembled into both parts.
OUTSIDE_OK = re.compile(r"^\s*($|#|//)")
DIRECTIVE = re.compile(r"^\s*#\s*(\w+)(.*)$")
# The build's own files in its yours/ folder, which a quoted #include of
# a file of that name would find first (the wrapper's folder).
GENERATED = ("yours.S", "yours_list.h", "yours_files.h")
# The section every part is assembled in (arch/dispatch/yours.h).
SECTION = ".text.irqlab.yours"
MATRIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                      "arch", "matrix.h")


def without_comments(text):
    """The text with its /* */ and // comments blanked, line for line
    (newlines kept), strings in double quotes left as they are."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("".join(c if c in "\r\n" else " "
                               for c in text[i:end]))
            i = end
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text[i] == '"':
            end = i + 1
            while end < n and text[end] not in '"\n':
                end += 2 if text[end] == "\\" else 1
            out.append(text[i:end + 1])
            i = end + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def files_max():
    """How many files one run measures: a config's variants list is a
    bit per name, for 31 names at most since all 32 bits set is `all`
    (bench/model/config.h, axes.c's assert), of which the baseline and
    irqlab's own variants take one each; and the run's table holds 255
    rows, of which each file takes about 20, so 4 at most."""
    text = open(MATRIX).read()
    body = text[text.index("#define VARIANT_LIST(X)"):]
    body = body[:body.index("YOURS_LIST(X)")]
    own = len(re.findall(r"^\s*X\(", body, re.M))
    return max(0, min(4, 32 - 1 - own))


def refuse(path, why):
    sys.exit("ENTRY=%s: %s (docs/your-entry.md)" % (path, why))


def read_markers(path):
    """The file's name and words, after checking its markers."""
    if os.path.normpath(path) in GENERATED:
        refuse(path, "has the name of a file the build writes beside its "
               "wrapper, which a quoted #include finds first: rename it")
    try:
        data = open(path, "rb").read()
    except OSError as e:
        refuse(path, "cannot be read: %s" % e.strerror)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        refuse(path, "is not UTF-8 text")
    seen, stray, continued, inside, skipped = [], [], False, False, 0
    for number, code in enumerate(without_comments(text).splitlines(), 1):
        m = MARKER.match(code)
        if m:
            seen.append((m.group(1), m.group(2), number))
            inside = m.group(1) != "YOUR_END"
            continue
        # A line outside the parts: only what assembles to nothing; an
        # #if 0 block is a comment (its nested conditionals counted).
        d = DIRECTIVE.match(code)
        word = d.group(1) if d else ""
        if word in ("if", "ifdef", "ifndef") and (
                skipped or (word == "if" and d.group(2).strip() == "0")):
            skipped += 1
            continue
        if skipped and word == "endif" or skipped == 1 and word in (
                "else", "elif"):
            skipped -= 1
            continue
        was_continued, continued = continued, code.rstrip().endswith("\\")
        if not inside and not skipped and not was_continued and \
                not OUTSIDE_OK.match(code):
            stray.append(number)
    kinds = [k for k, _, _ in seen]
    if kinds.count("YOUR_ENTRY") == 0:
        refuse(path, "has no YOUR_ENTRY line: it defines no entry part, so "
               "there is nothing to measure")
    if kinds.count("YOUR_ENTRY") > 1:
        refuse(path, "defines its parts more than once: YOUR_ENTRY on lines "
               + ", ".join(str(n) for k, _, n in seen if k == "YOUR_ENTRY"))
    if kinds != ["YOUR_ENTRY", "YOUR_EXIT", "YOUR_END"]:
        refuse(path, "must hold YOUR_ENTRY, YOUR_EXIT and YOUR_END once each "
               "and in that order; it has " + ", ".join(
                   "%s (line %d)" % (k, n) for k, _, n in seen))
    if stray:
        refuse(path, "line %d: code outside YOUR_ENTRY ... YOUR_END, which "
               "would be assembled into both parts; only #define, "
               "#include and comments may stand there" % stray[0])
    _, args, number = seen[0]
    m = ENTRY_ARGS.match(args)
    if not m:
        refuse(path, 'line %d: YOUR_ENTRY takes a name and one line of words '
               'in double quotes: YOUR_ENTRY my-entry, "what it does"'
               % number)
    name, words = m.group(1), m.group(2)
    if not NAME.match(name):
        refuse(path, "line %d: the name %r must be 1 to 24 letters, digits, "
               "'-' or '.'" % (number, name))
    if len(words) > WORDS_MAX:
        refuse(path, "line %d: the words are %d characters, at most %d"
               % (number, len(words), WORDS_MAX))
    return name, words, data


def write_if_changed(path, text):
    try:
        if open(path).read() == text:
            return
    except OSError:
        pass
    with open(path, "w") as f:
        f.write(text)


def write_list_header(path, what, macro, rows):
    """A header defining one X-macro list, a row a line."""
    write_if_changed(path, "/* Generated by image/your-entry.py from "
                     "ENTRY: %s. */\n#define %s" % (what, macro) +
                     "".join(" \\\n" + r for r in rows) + "\n")


def c_string(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"')


def files_of(paths):
    most = files_max()
    if len(paths) > most:
        sys.exit("ENTRY: %d files; at most %d are measured in one run, each "
                 "taking a bit of a config's variants list and about 20 of "
                 "the run's 255 rows (docs/your-entry.md)"
                 % (len(paths), most))
    files, names = [], {}
    for k, path in enumerate(paths, 1):
        name, words, data = read_markers(path)
        if name in names:
            refuse(path, "its name %s is %s's too: each file needs its own"
                   % (name, names[name]))
        names[name] = path
        files.append((k, path, name, words, data))
    return files


def write_list(out, paths):
    files = files_of(paths)
    os.makedirs(out, exist_ok=True)
    rows = ["\tX(YOURS_%d, %s, YOURS, \"-\", yours_%d, YOURS, ABSENT, NONE, "
            "%s)" % (k, c_string("yours-" + name), k, c_string(words))
            for k, _, name, words, _ in files]
    write_list_header(os.path.join(out, "yours_list.h"),
                      "the files as rows of\n * VARIANT_LIST (arch/matrix.h)",
                      "YOURS_LIST(X)", rows)
    # Each file is the body of a macro whose argument picks the part
    # (docs/your-entry.md "How it is built"); its line markers survive,
    # so the assembler names the file and line of an error, by the path
    # ENTRY gave (a relative one is found from the top folder, -I.).
    wrapper = ["/* Generated by image/your-entry.py from ENTRY. */",
               '#include "arch/dispatch/yours.h"']
    for k, path, _, _, _ in files:
        wrapper += [".macro yours_%d part" % k,
                    '#include "%s"' % path,
                    ".endm",
                    "YOURS_HANDLERS yours_%d" % k]
    wrapper.append('\t.section .note.GNU-stack, "", @progbits')
    write_if_changed(os.path.join(out, "yours.S"), "\n".join(wrapper) + "\n")


def part_lengths(obj, files):
    """Instructions between each file's part labels, in its checked
    handler (the same macro expansion as every kind's), counted in the
    parts' own section alone; a part that leaves that section (a
    .section or .pushsection not undone) is refused, since irqlab's
    code after it would be assembled elsewhere."""
    symbols = {}
    for line in subprocess.run(["objdump", "-t", obj], check=True,
                               capture_output=True,
                               text=True).stdout.splitlines():
        m = re.match(r"^([0-9a-f]+)\s.*\s(\S+)\t[0-9a-f]+\s+(\S+)$", line)
        if m:
            symbols[m.group(3)] = (int(m.group(1), 16), m.group(2))
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", "-j",
                              SECTION, obj], check=True, capture_output=True,
                             text=True).stdout
    addresses = [int(m.group(1), 16) for m in
                 re.finditer(r"^\s+([0-9a-f]+):\t\S", listing, re.M)]
    lengths = []
    for k, path, _, _, _ in files:
        pair = []
        for part in ("entry", "exit"):
            label = "yours_%d_%s_part" % (k, part)
            for end in (label, label + "_end"):
                if end not in symbols:
                    refuse(path, "its %s part's label %s is not in the "
                           "assembled object's symbols (objdump -t)"
                           % (part, end))
                if symbols[end][1] != SECTION:
                    refuse(path, "its %s part ends in section %s, not %s: "
                           "a .section or .pushsection in it is not undone"
                           % (part, symbols[end][1], SECTION))
            begin, end = symbols[label][0], symbols[label + "_end"][0]
            pair.append(sum(begin <= a < end for a in addresses))
        lengths.append(pair)
    return lengths


def write_counts(out, obj, paths):
    files = files_of(paths)
    lengths = part_lengths(obj, files) if files else []
    rows = ["\tF(YOURS_%d, %s, %s, %d, %d)"
            % (k, c_string(os.path.basename(path)),
               c_string(hashlib.sha256(data).hexdigest()),
               lengths[k - 1][0], lengths[k - 1][1])
            for k, path, _, _, data in files]
    write_list_header(os.path.join(out, "yours_files.h"),
                      "each file, its SHA-256\n * and its parts' "
                      "instructions in the listing", "YOURS_FILE_LIST(F)",
                      rows)


def variants_of(config):
    """The names CONFIG's last `variants =` line gives, lowercased, or
    None where it has none (irqlab.cfg's default, all, then holds):
    names split at commas and spaces, a '#' ending the line, as
    bench/model/config_parse.c reads them."""
    names = None
    with open(config) as f:
        for line in f:
            key, eq, value = line.split("#", 1)[0].partition("=")
            if eq and key.strip().lower() == "variants":
                names = [n for n in re.split(r"[,\s]+", value.lower()) if n]
    return names


def check_selected(config, paths):
    names = variants_of(config)
    if names is None or "all" in names:
        return
    missing = ["yours-" + read_markers(path)[0] for path in paths]
    missing = [m for m in missing if m.lower() not in names]
    if missing:
        sys.exit("ENTRY: %s's variants = %s selects none of the rows of %s, "
                 "so the run would measure nothing of it: add %s (or all) "
                 "to variants (docs/your-entry.md)" % (
                     config, " ".join(names) or "(empty)",
                     ", ".join(missing), " ".join(missing)))


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        write_list(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "selected":
        check_selected(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) >= 4 and sys.argv[1] == "counts":
        write_counts(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
