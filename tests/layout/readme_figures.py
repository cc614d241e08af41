#!/usr/bin/env python3
"""README says what happens, and every number in it comes from something
that holds it (docs/tests.md):

- a figure of the code or of the tests, read here from where it is
  defined (the handoff's budget from bench/model/records.h, the
  self-IPI's harness from the boot tests' constants, the instrument from
  the icount reference) and compared with what README says;
- a figure of a thread, of Linux or of the architecture, which the
  docs/ page README leads to states the same;
- or a name (seed 000, COM1, Debian 12, x2APIC).

A number README states that is none of these fails, so a figure nothing
holds (a run's seconds, the size of its files) cannot come back. README's
table of QEMU variables is held to image/run.sh's defaults, `make help`
to every variable README's tables and make commands name, and README's
list of the boot tests to the entries of tests/boot/lanes.py. Prints one
line per check and ends with "readme: N passed, N failed"."""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import Checks  # noqa: E402

check = Checks("readme")
# How many checks the suite counts under CI (tests/checks.py).
CHECKS_UNDER_CI = 9


# README is the quick start; what it once held whole is in these pages,
# held to the same rules as README (docs/tests.md "README's figures").
GUIDE = ("README.md", "docs/running.md", "docs/measures.md", "docs/reading.md",
         "docs/config.md", "docs/real-machine.md", "docs/tests.md",
         "docs/layout.md")


def read(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def define(path, name):
    """The value of `#define name <expression>` in `path`, its names
    resolved through the same file's other defines."""
    text = read(path)
    m = re.search(r"^#define %s\s+([^/\n]+)" % name, text, re.M)
    if not m:
        raise ValueError("%s defines no %s" % (path, name))
    expr = m.group(1).strip()
    for other in set(re.findall(r"\b[A-Z_][A-Z0-9_]*\b", expr)):
        expr = re.sub(r"\b%s\b" % other, str(define(path, other)), expr)
    if not re.fullmatch(r"[0-9xa-fA-F()+\-*/ ]+", expr):
        raise ValueError("%s: %s is not arithmetic: %s" % (path, name, expr))
    return int(eval(expr))  # noqa: S307 -- digits and operators only


def found(path, pattern):
    """The integers of pattern's groups, at its first match in `path`."""
    m = re.search(pattern, read(path), re.M | re.S)
    if not m:
        raise ValueError("%s: no match for %s" % (path, pattern))
    return [int(g) for g in m.groups()]


def instrument_in_handler():
    with open(os.path.join(ROOT, "tests", "boot", "reference",
                           "icount-figures.json")) as f:
        return json.load(f)["instrument_in_handler"]["median"]


END_SCREEN = "bench/report/end_screen.h"
RECORDS = "bench/model/records.h"
VECTORS = "arch/vectors.h"
SCHEMES = "arch/dispatch/schemes.h"

# (what it is, README's words with a group per number, where the figures
# come from: a function giving them in the groups' order). The words are
# matched with any white space between them, as README wraps its lines.
CODE_FIGURES = [
    ("the machines of the browser test's fleet (fleet_of_50)",
     r"`fleet.html` of (\d+) machines",
     lambda: found("tests/browser/pages_test.py",
                   r"def fleet_of_50.*?for i in range\((\d+)\):")),
    ("the headline's width (END_SCREEN_COLS, a column spare)",
     r"in at most (\d+) columns",
     lambda: [define(END_SCREEN, "END_SCREEN_COLS") + 1]),
    ("the end screen's page (END_SCREEN_COLS x END_SCREEN_LINES, a column "
     "and a line spare)", r"fits (\d+) x (\d+):",
     lambda: [define(END_SCREEN, "END_SCREEN_COLS") + 1,
              define(END_SCREEN, "END_SCREEN_LINES") + 1]),
    ("the first QEMU with x2APIC under TCG, as image/qemu-backports.sh "
     "tests it", r"x2APIC under TCG only from (\d+)\.(\d+) on",
     lambda: found("image/qemu-backports.sh",
                   r'"\$major" -eq (\d+) \] && \[ "\$minor" -ge (\d+)')),
    ("the architecture's exception vectors (EXCEPTION_VECTORS)",
     r"all (\d+) exception handlers",
     lambda: [define(VECTORS, "EXCEPTION_VECTORS")]),
    ("a record, the handoff and the store's reserve (RECORD_MAX_BYTES, "
     "HANDOFF_MAX_BYTES, HANDOFF_STORE_RESERVE)",
     r"each at most (\d+) KiB, (\d+) KiB in all, never leaving the store "
     r"with less than (\d+) KiB free",
     lambda: [define(RECORDS, "RECORD_MAX_BYTES") // 1024,
              define(RECORDS, "HANDOFF_MAX_BYTES") // 1024,
              define(RECORDS, "HANDOFF_STORE_RESERVE") // 1024]),
    ("the handoff (HANDOFF_MAX_BYTES)", r"one handoff \((\d+) KiB of variables at most",
     lambda: [define(RECORDS, "HANDOFF_MAX_BYTES") // 1024]),
    ("push-jmp-ibt's stub (PUSH_JMP_IBT_STRIDE)",
     r"ENDBR64, (\d+)-byte stubs",
     lambda: [define(SCHEMES, "PUSH_JMP_IBT_STRIDE")]),
    ("compact's chunk (COMPACT_PER_CHUNK, COMPACT_CHUNK)",
     r"\((\d+) stubs per (\d+)-byte chunk",
     lambda: [define(SCHEMES, "COMPACT_PER_CHUNK"),
              define(SCHEMES, "COMPACT_CHUNK")]),
    ("the vectors every scheme is checked on (FIRST_IRQ_VECTOR to the "
     "last)", r"every vector (\d+)-(\d+) must reach",
     lambda: [define(VECTORS, "FIRST_IRQ_VECTOR"), 255]),
    ("the i386 rows' sweeps: the APIC's spare the spurious vector "
     "(APIC_SPURIOUS_VECTOR)",
     r"INT n sweeps (\d+)-(\d+), the APIC sources (\d+)-(\d+);",
     lambda: [define(VECTORS, "FIRST_IRQ_VECTOR"), 255,
              define(VECTORS, "FIRST_IRQ_VECTOR"),
              define(VECTORS, "APIC_SPURIOUS_VECTOR") - 1]),
    ("i386-call16's stub (I386_CALL16_STRIDE)",
     r"hpa's (\d+)-byte `66 E8 rel16` stubs",
     lambda: [define("arch/dispatch/i386.h", "I386_CALL16_STRIDE")]),
    ("the CPUs of the full matrix between CPUs (RESULTS_FULL_MATRIX_CPUS)",
     r"every ordered pair of up to (\d+) CPUs,\s+and past them",
     lambda: [define("bench/model/results.h", "RESULTS_FULL_MATRIX_CPUS")]),
    ("the CPUs of the full matrix on request (RESULTS_ALL_MATRIX_CPUS)",
     r"every ordered pair of up to (\d+) CPUs,\s+in parts",
     lambda: [define("bench/model/results.h", "RESULTS_ALL_MATRIX_CPUS")]),
    ("the CPUs between CPUs (RESULTS_MAX_MATRIX_CPUS)",
     r"past them, up to (\d+), each against",
     lambda: [define("bench/model/results.h", "RESULTS_MAX_MATRIX_CPUS")]),
    ("a primitive's block (PRIMITIVE_REPS)", r"blocks of (\d+) `push",
     lambda: [define("arch/primitives.h", "PRIMITIVE_REPS")]),
    ("a batch of samples (NOISE_BATCH)", r"batches of (\d+);",
     lambda: [define("arch/noise.h", "NOISE_BATCH")]),
    ("the instrument inside a handler under icount (the icount reference)",
     r"\((\d+) instructions under icount\)",
     lambda: [instrument_in_handler()]),
    ("what a self-IPI's entry and exit add to INT n's, and an x2APIC "
     "one's entry (WINDOW_ENTRY, WINDOW_EXIT, the x2APIC rows' in "
     "tests/boot/source_checks.py)",
     r"INT n's plus (\d+) and its exit plus (\d+); the x2APIC rows' entry "
     r"plus (\d+);",
     lambda: found("tests/boot/row_checks.py",
                   r"^WINDOW_ENTRY = (\d+)\nWINDOW_EXIT = (\d+)")
     + [found("tests/boot/row_checks.py", r"^WINDOW_ENTRY = (\d+)")[0]
        + found("tests/boot/source_checks.py",
                r'"ipi-self-x2apic-selfipi-direct", WINDOW_ENTRY \+ (\d+)')[0]
        ]),
    ("a sample's wait (WAIT_BUDGET_MS)", r"at most (\d+) ms of TSC time",
     lambda: [define("arch/timing.h", "WAIT_BUDGET_MS")]),
    ("the config file's size (CONFIG_MAX_BYTES)",
     r"over (\d+) KiB it is refused",
     lambda: [define("bench/model/config.h", "CONFIG_MAX_BYTES") // 1024]),
    ("a config line (CONFIG_MAX_LINE)", r"a line over (\d+) bytes",
     lambda: [define("bench/model/config_parse.h", "CONFIG_MAX_LINE")]),
    ("the countdown of a run that will not measure "
     "(STOP_COUNTDOWN_SECONDS)", r"counts down (\d+) seconds",
     lambda: [define("efi/power.c", "STOP_COUNTDOWN_SECONDS")]),
    ("the end screen's wait (FINISH_COUNTDOWN_SECONDS)",
     r"powers off by itself after (two) minutes",
     lambda: [define("efi/power.h", "FINISH_COUNTDOWN_SECONDS") // 60]),
    ("the NMI's vector (VECTOR_NMI)", r"\(INT (\d+) in every window",
     lambda: [define(VECTORS, "VECTOR_NMI")]),
    ("the HPET rows' leeway (HPET_TICK_INSTRUCTIONS)",
     r"one HPET tick, (\d+) instructions",
     lambda: found("tests/boot/figures.py",
                   r"^HPET_TICK_INSTRUCTIONS = (\d+)")),
    ("make fuzz's seconds (FUZZ_SECONDS)", r"`FUZZ_SECONDS` \((\d+)\)",
     lambda: found("Makefile", r"^FUZZ_SECONDS \?= (\d+)")),
    ("make fuzz-smoke's seconds", r"`make fuzz-smoke`, (\d+) s each",
     lambda: found("Makefile", r"^fuzz-smoke:\n.*FUZZ_SECONDS=(\d+)")),
    ("the threads in docs/seeds/",
     r"grew out of (five) mailing-list threads",
     lambda: [len([f for f in os.listdir(os.path.join(ROOT, "docs",
                                                       "seeds"))
                   if re.fullmatch(r"\d{3}\.txt", f)])]),
]

# A thread's, Linux's or the architecture's figure: the docs/ page
# README's words lead to states the same numbers.
CITED_FIGURES = [
    ("the compact scheme's Linux", r"Linux (2)\.(6)\.(29)\)",
     "docs/long-mode.md", r"Linux (\d+)\.(\d+)\.(\d+), hpa"),
    ("Linux 2008's i386 stubs", r"Linux 2008's (\d+)/(\d+)-byte",
     "docs/protected-mode.md",
     r"(\d+) bytes below vector 128, (\d+) above"),
    ("the i386 stubs' year", r"Linux (2008)'s",
     "docs/protected-mode.md", r"`i386-push-jmp` \| Linux (\d+):"),
    ("call16's code segment", r"lie in its first (\d+) KiB",
     "docs/protected-mode.md", r"### call16's (\d+) KiB"),
    ("the 32-bit rows' reach", r"lie above (\d+) GiB",
     "docs/protected-mode.md", r"below (\d+) GiB \(EIP, ESP"),
    ("the i386 compatibility-mode rows' reach",
     r"code or stack lies above (\d+) GiB",
     "docs/protected-mode.md", r"below (\d+) GiB \(EIP, ESP"),
    ("the Linux rule's version", r"Linux (\d+)\.(\d+)'s defaults",
     "docs/mitigations.md", r"shaped as Linux (\d+)\.(\d+) runs it"),
]

# Names that hold digits: not figures.
NAMES = [
    r"[Ss]eeds? \d{3}(, \d{3})*", r"[Ss]eed \d{3}'s", r"TEST\d(-\d)?",
    r"COM1", r"x86[-_]64", r"i386", r"x2APIC", r"\d\d-bit", r"FAT32",
    r"UTF-8", r"EDK2", r"CR3", r"ENDBR64", r"i440FX", r"F1[12]",
    r"Boot000N", r"PCR 7", r"CPUID 15H/16H", r"8259", r"Core 2",
    r"Debian 12", r"OVMF's [24] MB", r"python3", r"qemu-system-x86", r"call16", r"step \d",
    r"(DHCP|IP)v[46]", r"RANGE6",
    r"^\s*\d+\. ",   # an ordered list's numbers
]


def words(pattern):
    """The pattern with any white space (a line break too) where it has
    a blank."""
    return re.compile(pattern.replace(" ", r"\s+"), re.M)


def code_spans(text):
    """Where README shows code, commands, names of files and values:
    its fenced blocks and its `inline code`, as (start, end) pairs."""
    fenced = re.compile(r"^```.*?^```", re.M | re.S)
    spans = [m.span() for m in fenced.finditer(text)]
    prose = fenced.sub(lambda m: " " * len(m.group(0)), text)
    return spans + [m.span() for m in re.finditer(r"`[^`]+`", prose)]


def figures(readme):
    """Each of README's figures equals what holds it."""
    wrong, held = [], []
    for what, said, holder in CODE_FIGURES:
        matches = list(words(said).finditer(readme))
        try:
            want = holder()
        except (OSError, ValueError, KeyError) as e:
            wrong.append("%s: %s" % (what, e))
            continue
        if not matches:
            wrong.append("%s: README no longer says %r" % (what, said))
        for m in matches:
            got = [g if not g.isdigit() else int(g) for g in m.groups()]
            got = [{"two": 2, "five": 5}.get(g, g) for g in got]
            if got != want:
                wrong.append("%s: README says %s, %s" % (what, got, want))
            held.append(m)
    check("README's figures of the code and the tests equal theirs "
          "(%d figures)" % len(CODE_FIGURES), not wrong, "; ".join(wrong))

    wrong = []
    for what, said, page, states in CITED_FIGURES:
        matches = list(words(said).finditer(readme))
        m = words(states).search(read(page))
        if not matches or not m:
            wrong.append("%s: %s" % (what, "README no longer says %r" % said
                                     if not matches else
                                     "%s no longer says %r" % (page, states)))
            continue
        for r in matches:
            if r.groups() != m.groups():
                wrong.append("%s: README says %s, %s %s" % (
                    what, r.groups(), page, m.groups()))
            held.append(r)
    check("README's figures of the threads, Linux and the architecture "
          "equal what the docs/ page they lead to states (%d figures)"
          % len(CITED_FIGURES), not wrong, "; ".join(wrong))
    return held


def every_number_held(readme, held):
    """Every number outside code is a held figure or part of a name."""
    covered = code_spans(readme)
    covered += [m.span() for m in held]
    for name in NAMES:
        covered += [m.span() for m in words(name).finditer(readme)]
    loose = []
    for m in re.finditer(r"\d+(\.\d+)*", readme):
        if not any(a <= m.start() and m.end() <= b for a, b in covered):
            line = readme.count("\n", 0, m.start()) + 1
            start = readme.rfind("\n", 0, m.start()) + 1
            end = readme.find("\n", m.end())
            loose.append("line %d: %s in %r" % (line, m.group(0),
                                                  readme[start:end].strip()))
    check("every number README states is a figure this check holds to its "
          "source, or part of a name", not loose, "; ".join(loose)
          + " (hold it in CODE_FIGURES or CITED_FIGURES here, or say it "
          "without the number)")


def qemu_defaults(readme):
    """README's table of QEMU variables gives image/run.sh's defaults."""
    run_sh = read("image/run.sh")
    table = re.search(r"^\| variable \| default \|.*?\n\n", readme, re.M | re.S)
    rows = re.findall(r"^\| ((?:`[A-Z_]+`(?:, )?)+) \| ([^|]*) \|",
                      table.group(0) if table else "", re.M)
    wrong, names = [], []
    for names_cell, default_cell in rows:
        variables = re.findall(r"`([A-Z_]+)`", names_cell)
        defaults = re.findall(r"`([^`]*)`", default_cell)
        if default_cell.startswith("("):
            # "(off)", "(none)", "(the image's ...)": run.sh sets none.
            defaults = [""] * len(variables)
        for variable, default in zip(variables, defaults):
            names.append(variable)
            m = re.search(r"\$\{%s:?-([^}]*)\}" % variable, run_sh)
            if not m or m.group(1) != default:
                wrong.append("%s: README %r, image/run.sh %r" % (
                    variable, default, m.group(1) if m else None))
    check("README's table of QEMU variables, SMP among them, gives each "
          "one's default as image/run.sh sets it (%d variables)" % len(names),
          len(names) >= 10 and "SMP" in names and not wrong,
          "; ".join(wrong) + " names: %s" % names)
    return names


def help_names_them(readme, table):
    """make help names every variable README's QEMU table lists and every
    one a make command in README sets."""
    said = subprocess.run(["make", "--no-print-directory", "-s", "help"],
                          cwd=ROOT, capture_output=True, text=True).stdout
    commands = [line for block in re.findall(r"^```\n(.*?)^```", readme,
                                               re.M | re.S)
                for line in block.splitlines() if line.startswith("make ")]
    commands += [c.strip("`") for c in re.findall(r"`make [^`]+`", readme)]
    named = set(table)
    for c in commands:
        named |= set(re.findall(r"\b([A-Z][A-Z_]+)=", c))
    missing = sorted(n for n in named if "%s=" % n not in said)
    check("make help names every variable README's QEMU table lists and "
          "every one its make commands set (%d variables)" % len(named),
          said and len(named) > len(table) and not missing,
          "missing: %s" % ", ".join(missing))


def commands_exist(readme):
    """Every make target README and its pages give, and every one make
    help gives, is a target of the Makefile."""
    said = subprocess.run(["make", "--no-print-directory", "-s", "help"],
                          cwd=ROOT, capture_output=True, text=True).stdout
    makefile = read("Makefile")
    code = " ".join(readme[a:b] for a, b in code_spans(readme))
    given = set(re.findall(r"(?:^|[`\n])make ([a-z][a-z0-9-]*)", code))
    given |= set(re.findall(r"^  ([a-z][a-z0-9-]*)\b", said, re.M))
    given |= {w for line in re.findall(r"^  ([a-z][a-z0-9, -]*?)(?:  |$)",
                                       said, re.M)
              for w in re.split(r"[ ,]+", line) if re.fullmatch(r"[a-z-]+", w)}
    missing = sorted(t for t in given if not re.search(
        r"^%s:" % re.escape(t), makefile, re.M))
    check("every make target README, its pages and make help give is a "
          "target of the Makefile (%d targets)" % len(given),
          len(given) > 10 and not missing, ", ".join(missing))


def names_listed():
    """make names lists every name image/irqlab.cfg says a key takes,
    from the firmware's own parser."""
    said = subprocess.run(["make", "--no-print-directory", "-s", "names"],
                          cwd=ROOT, capture_output=True, text=True).stdout
    listed = set(re.findall(r"[a-z0-9][a-z0-9-]*", said))
    cfg = read("image/irqlab.cfg")
    m = re.search(r"^# What runs.*?(?=^[a-z])", cfg, re.M | re.S)
    block = re.sub(r"\([^)]*\)", "", m.group(0)) if m else ""
    named = set()
    for line in block.splitlines():
        key = re.match(r"#\s+([a-z_]+):(.*)", line)
        text = key.group(2) if key else line.lstrip("# ")
        if key or line.startswith("#" + " " * 8):
            named |= set(re.findall(r"\b[a-z0-9][a-z0-9-]*[a-z0-9]\b", text))
    missing = sorted(named - listed)
    check("make names lists every name image/irqlab.cfg's \"What runs\" "
          "gives a key (%d names)" % len(named),
          len(named) > 40 and not missing, ", ".join(missing))


def boot_entries_named(readme):
    """README's list of the boot tests names every entry of the lanes."""
    entries = re.findall(r'Boot\("([A-Za-z0-9-]+)"', read("tests/boot/lanes.py"))
    unnamed = [e for e in entries if "`%s`" % e not in readme]
    check("README's list of the boot tests names every entry of "
          "tests/boot/lanes.py (%d entries)" % len(entries),
          len(entries) > 30 and not unnamed, ", ".join(unnamed))


def lane_entries():
    """The boot entries of tests/boot/lanes.py: (make test's, make
    test-long's), each a list of names in the order they are listed."""
    lanes = read("tests/boot/lanes.py")
    short, long_ = lanes.split("\nLONG = (", 1)
    name = r'Boot\("([A-Za-z0-9-]+)"'
    return re.findall(name, short), re.findall(name, long_)


def timing_tables_name_entries():
    """docs/testing.md's two tables, as the boot tests print them, name
    every entry of their suite once and no other."""
    testing = read("docs/testing.md")
    short, long_ = lane_entries()
    wrong = []
    for suite, entries in (("test", short), ("test-long", long_)):
        m = re.search(r"<!-- table: %s -->\n(.*?)<!-- end table -->"
                      % re.escape(suite), testing, re.S)
        rows = re.findall(r"^\| ([A-Za-z0-9-]+) \|", m.group(1), re.M) \
            if m else None
        if rows is None:
            wrong.append("no table for make %s" % suite)
        elif sorted(r for r in rows if r != "entry") != sorted(entries):
            wrong.append("make %s: missing %s, not an entry %s" % (
                suite, sorted(set(entries) - set(rows)),
                sorted(set(rows) - set(entries) - {"entry"})))
    check("docs/testing.md's tables each name every boot entry of their "
          "suite in tests/boot/lanes.py (make test's, make test-long's) "
          "once, and no other", not wrong and len(short) > 30 and long_,
          "; ".join(wrong))


def readme_checks():
    readme = "\n".join(read(p) for p in GUIDE)
    held = figures(readme)
    every_number_held(readme, held)
    table = qemu_defaults(readme)
    help_names_them(readme, table)
    boot_entries_named(readme)
    timing_tables_name_entries()
    commands_exist(readme)
    names_listed()


def main():
    check.guarded("the README checks", readme_checks)
    return check.finish(CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
