#!/usr/bin/env python3
"""The house rule (docs/layout.md): every include points down a floor or
stays on its own, and no two modules on a floor include each other, even
through others. Prints one line per check and ends with
"layout: N passed, N failed"."""

import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

# Bottom to top. A folder not listed here is a failure: every source
# folder belongs to exactly one floor.
FLOORS = [
    ("ground", ["arch/lib"]),
    ("firmware tables", ["firmware"]),
    ("cpu", ["arch", "arch/dispatch"]),
    ("controllers", ["apic"]),
    ("model", ["bench/model"]),
    ("runner", ["bench/run"]),
    ("reports", ["bench/report"]),
    ("phases", ["efi"]),
]
# Built for the host as well as the firmware: plain C, no firmware headers.
HOST_FLOORS = ("ground", "firmware tables", "model", "reports")
SOURCE_TOPS = ("arch", "firmware", "apic", "bench", "efi")

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import Checks  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)

check = Checks("layout")
# How many checks the suite counts under CI (tests/checks.py).
CHECKS_UNDER_CI = 12


def floor_of(path):
    folder = os.path.dirname(path)
    for rank, (name, folders) in enumerate(FLOORS):
        if folder in folders:
            return rank, name
    return None, None


def sources():
    out = []
    for top in SOURCE_TOPS:
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            for n in names:
                if n.endswith((".c", ".h", ".S")):
                    out.append(os.path.relpath(os.path.join(dirpath, n), ROOT))
    return sorted(out)


# Headers the build writes into its own folder (image/your-entry.py,
# docs/your-entry.md), included only where present (__has_include).
GENERATED = {"yours_list.h", "yours_files.h"}


def module(path):
    return os.path.splitext(path)[0]


def layout():
    files = sources()
    unplaced = [f for f in files if floor_of(f)[0] is None]
    check("every source folder belongs to a floor", not unplaced,
          ", ".join(unplaced))

    climbs, unresolved, firmware = [], [], []
    edges = {}
    for f in files:
        rank, name = floor_of(f)
        with open(os.path.join(ROOT, f)) as fh:
            text = fh.read()
        for kind, inc in INCLUDE.findall(text):
            if kind == "<":
                if name in HOST_FLOORS and inc.startswith("efi"):
                    firmware.append("%s: <%s>" % (f, inc))
                continue
            if inc in GENERATED:
                continue
            if not os.path.exists(os.path.join(ROOT, inc)):
                unresolved.append("%s: \"%s\"" % (f, inc))
                continue
            to_rank, to_name = floor_of(inc)
            if to_rank is None:
                continue
            if to_rank > rank:
                climbs.append("%s (%s) -> %s (%s)" % (f, name, inc, to_name))
            if module(inc) != module(f):
                edges.setdefault(module(f), set()).add(module(inc))
    check("includes name files from the repository root", not unresolved,
          "; ".join(unresolved))
    check("no include climbs a floor", not climbs, "; ".join(climbs))
    check("the host-built floors use no firmware headers", not firmware,
          "; ".join(firmware))

    # A loop between modules (a .c and its .h), found by depth-first
    # search over "includes the header of".
    loops = []
    state = {}

    def visit(m, stack):
        state[m] = 1
        stack.append(m)
        for n in sorted(edges.get(m, ())):
            if state.get(n) == 1:
                loops.append(" -> ".join(stack[stack.index(n):] + [n]))
            elif n not in state:
                visit(n, stack)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m, [])
    check("no two modules include each other, directly or not", not loops,
          "; ".join(loops))

    # Every citation leads somewhere a reader of this repository can
    # follow: docs/ pages that exist, never a design document it lacks.
    cited, dangling, foreign = set(), [], []
    boot_tests = sorted("tests/boot/" + f for f in os.listdir(
        os.path.join(ROOT, "tests", "boot")) if f.endswith(".py"))
    for f in files + ["Makefile", "image/run.sh"] + boot_tests:
        with open(os.path.join(ROOT, f)) as fh:
            text = fh.read()
        for doc in re.findall(r"docs/[A-Za-z0-9_./-]*[A-Za-z0-9_/]", text):
            cited.add(doc)
            if not os.path.exists(os.path.join(ROOT, doc)):
                dangling.append("%s: %s" % (f, doc))
        if re.search(r"FACTS §|ARCHITECTURE \"", text):
            foreign.append(f)
    check("every docs/ page a comment cites exists (%d cited)" % len(cited),
          cited and not dangling, "; ".join(dangling))
    check("no comment cites a document outside the repository",
          not foreign, ", ".join(foreign))

    # One name per thing: a scheme, source or self-test row is named only
    # in its list (arch/matrix.h); everything else names it by its id.
    axes = os.path.join("arch", "matrix.h")
    with open(os.path.join(ROOT, axes)) as fh:
        lists = fh.read()
    names = set()
    for macro in ("SCHEME_LIST", "SOURCE_LIST", "SELFTEST_LIST"):
        body = re.search(r"#define %s\(X\)(.*?)\n\n" % macro, lists, re.S)
        names |= set(re.findall(r'X\(\w+, "([^"]+)"', body.group(1))
                     if body else ())
    spelled = []
    for f, text in code_beside_the_lists(files):
        for name in sorted(names):
            if '"%s"' % name in text:
                spelled.append("%s: \"%s\"" % (f, name))
    check("no scheme, source or self-test name is spelled outside its "
          "list in arch/matrix.h (%d names)" % len(names),
          len(names) > 30 and not spelled, "; ".join(spelled))

    list_names(files, lists)

    readme = open(os.path.join(ROOT, "docs", "layout.md")).read()
    missing = [folder for _, folders in FLOORS for folder in folders
               if "`%s/`" % folder not in readme]
    check("README's layout table names every floor's folders", not missing,
          ", ".join(missing))


def code_beside_the_lists(files):
    """Each source file but arch/matrix.h, the lists' own, and the host
    tools' C, as (path, its code with the comments taken out): where a
    name spelled again would be a second place to find."""
    for f in files + [os.path.join("tools", n) for n in
                      sorted(os.listdir(os.path.join(ROOT, "tools")))
                      if n.endswith(".c")]:
        if f == os.path.join("arch", "matrix.h"):
            continue
        with open(os.path.join(ROOT, f)) as fh:
            yield f, re.sub(r"/\*.*?\*/|//[^\n]*", "", fh.read(),
                            flags=re.S)


def list_entries(lists, macro):
    """The columns of each entry of an X-macro list: ID, "name", ..."""
    body = re.search(r"#define %s\(X\)(.*?)\n\n" % macro, lists, re.S)
    if not body:
        return []
    text = re.sub(r"/\*.*?\*/|\\\n", " ", body.group(1), flags=re.S)
    return [re.findall(r'"[^"]*"|[^,\s"()]+', entry)
            for entry in re.split(r"\bX\(", text)[1:]]


def list_names(files, lists):
    """A primitive, or a mitigation variant that answers to one of
    Linux's decisions, is spelled once: in its list in arch/matrix.h.
    The tables that run them, the catalog, the seed sections and the
    decisions are made from the lists, so a name or enum spelled anywhere
    else is a second place a newcomer would have to find."""
    prims = list_entries(lists, "PRIMITIVE_LIST")
    variants = list_entries(lists, "VARIANT_LIST")
    # X(ID, "name", KIND, "seeds", handler, SETUP, AGAINST, LINUX, ...)
    mitigations = [v for v in variants if v[2] == "MITIGATION"]
    answering = [v for v in mitigations if v[7] != "NONE"]
    spellings = [('"%s"' % p[1].strip('"'), r"\bPRIMITIVE_%s\b" % p[0])
                 for p in prims]
    spellings += [('"%s"' % v[1].strip('"'), r"\bVARIANT_%s\b" % v[0])
                  for v in answering]
    spelled = []
    for f, text in code_beside_the_lists(files):
        for literal, enum in spellings:
            if literal in text:
                spelled.append("%s: %s" % (f, literal))
            if re.search(enum, text):
                spelled.append("%s: %s" % (f, enum.strip("\\b")))
    check("no primitive or mitigation variant is spelled, as a name or an "
          "enum, outside its list in arch/matrix.h (%d primitives, %d "
          "mitigations)" % (len(prims), len(answering)),
          len(prims) > 30 and len(answering) >= 10 and not spelled,
          "; ".join(sorted(set(spelled))))

    # A handler in variants.S that no list entry names runs nowhere: its
    # entry was forgotten.
    with open(os.path.join(ROOT, "arch", "dispatch", "variants.S")) as fh:
        handlers = set(re.findall(r"^VARIANT_HANDLER (\w+),", fh.read(),
                                  re.M))
    named = {v[4] for v in variants if v[2] in ("ENTRY", "MITIGATION")}
    check("every handler of arch/dispatch/variants.S is one VARIANT_LIST "
          "names, and every one it names is there",
          handlers and handlers == named,
          "handlers without an entry: %s; entries without a handler: %s"
          % (sorted(handlers - named), sorted(named - handlers)))

    # The boot tests state what each mitigation's sequence adds, counted
    # from the listing (MITIGATION_COST), or why the emulator skips it
    # (MITIGATION_SKIPPED): a variant in neither is checked by no boot.
    boot = ""
    for n in sorted(os.listdir(os.path.join(ROOT, "tests", "boot"))):
        if n.endswith(".py"):
            with open(os.path.join(ROOT, "tests", "boot", n)) as fh:
                boot += fh.read()
    stated = set()
    for table in ("MITIGATION_COST", "MITIGATION_SKIPPED"):
        m = re.search(r"^%s = \{(.*?)^\S" % table, boot, re.S | re.M)
        if m:
            stated |= set(re.findall(r'"([a-z0-9-]+)":', m.group(1)))
    unstated = [v[1].strip('"') for v in mitigations
                if v[1].strip('"') not in stated]
    check("the boot tests count or skip every mitigation variant of "
          "VARIANT_LIST (MITIGATION_COST, MITIGATION_SKIPPED)",
          len(stated) >= 10 and not unstated, ", ".join(unstated))


def main():
    check.guarded("the layout checks", layout)
    return check.finish(CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
