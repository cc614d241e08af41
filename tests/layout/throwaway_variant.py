#!/usr/bin/env python3
"""README's "Where a change lands", tried: a copy of the tree gains one
mitigation variant by touching only the files README names for one, and
builds the EFI application and passes the unit tests that walk the lists
and the layout check; then each of those places is forgotten in turn,
and each time a test must fail. Prints one line per check and ends with
"throwaway: N passed, N failed"."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import Checks  # noqa: E402

check = Checks("throwaway")
CHECKS_UNDER_CI = 6
# The unit tests that read the lists: the axes' names and words, the
# decisions each mitigation answers to, the shipped irqlab.cfg's names.
UNIT_TESTS = ("test_axes", "test_mitigations", "test_shipped_config")

# The throwaway variant, as a newcomer would write it: an lfence on entry.
LIST_ENTRY = ('\tX(THROWAWAY, "throwaway", MITIGATION, "-", throwaway, PLAIN,'
              '   \\\n\t  ABSENT, VERW, "a throwaway: one lfence on entry")'
              '         \\\n')
CODE = "VARIANT_HANDLER throwaway, LFENCE_ONLY, NOTHING\n"
CODE_MACRO = ".macro LFENCE_ONLY\n\tlfence\n.endm\n"
CFG_LINE = "#               throwaway (a throwaway)\n"
COST = '    "throwaway": (1, 0),\n'


def read(tree, path):
    with open(os.path.join(tree, path)) as fh:
        return fh.read()


def write(tree, path, text):
    with open(os.path.join(tree, path), "w") as fh:
        fh.write(text)


def insert_after(tree, path, anchor, text):
    """`text` after the first line holding `anchor`."""
    old = read(tree, path)
    at = old.index(anchor)
    at = old.index("\n", at) + 1
    write(tree, path, old[:at] + text + old[at:])


def insert_before(tree, path, anchor, text):
    old = read(tree, path)
    at = old.index(anchor)
    at = old.rindex("\n", 0, at) + 1
    write(tree, path, old[:at] + text + old[at:])


def boot_table_file(tree):
    """The boot tests' file that holds MITIGATION_COST."""
    folder = os.path.join(tree, "tests", "boot")
    for n in sorted(os.listdir(folder)):
        if n.endswith(".py") and re.search(
                r"^MITIGATION_COST = \{", read(folder, n), re.M):
            return os.path.join("tests", "boot", n)
    raise RuntimeError("no tests/boot/*.py holds MITIGATION_COST")


def places(tree):
    """Each place README names for a mitigation variant: (file, edit)."""
    boot = boot_table_file(tree)
    return [
        ("arch/matrix.h", lambda: insert_before(
            tree, "arch/matrix.h", 'X(LINUX, "linux", MITIGATION',
            LIST_ENTRY)),
        ("arch/dispatch/variants.S", lambda: (
            insert_before(tree, "arch/dispatch/variants.S",
                          "/* variant_NAME takes", CODE_MACRO),
            insert_after(tree, "arch/dispatch/variants.S",
                         "VARIANT_HANDLER rsb_fill,", CODE))),
        ("image/irqlab.cfg", lambda: insert_after(
            tree, "image/irqlab.cfg", "rsb-fill linux", CFG_LINE)),
        (boot, lambda: insert_after(
            tree, boot, "MITIGATION_COST = {", COST)),
    ]


def readme_files():
    """The files README's "Where a change lands" names for a mitigation
    variant."""
    text = read(ROOT, "docs/layout.md")
    at = text.index("Where a change lands")
    bullet = re.search(r"^- \*\*a mitigation variant\*\*(.*?)(?=^- \*\*|\Z)",
                       text[at:], re.S | re.M)
    return set(re.findall(r"`([\w./-]+\.\w+)`", bullet.group(1))) \
        if bullet else set()


def copy_tree(dest):
    """The tracked and new files, and the build's objects with their
    times, so that make rebuilds only what the variant touches."""
    names = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT,
        capture_output=True, text=True, check=True).stdout.split("\n")
    for n in names:
        if n and os.path.isfile(os.path.join(ROOT, n)):
            os.makedirs(os.path.join(dest, os.path.dirname(n)), exist_ok=True)
            shutil.copy2(os.path.join(ROOT, n), os.path.join(dest, n))
    for sub in ("efi-obj", "gen"):
        src = os.path.join(ROOT, "build", sub)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dest, "build", sub))


def run(tree, *argv):
    p = subprocess.run(list(argv), cwd=tree, capture_output=True, text=True)
    return p.returncode, (p.stdout + p.stderr)


def builds_and_passes(tree):
    """(ok, what failed): the layout check, make efi, and the unit tests
    that read the lists, in the copy; the first to fail ends it."""
    rc, out = run(tree, sys.executable, "tests/layout/floors.py")
    if rc:
        return False, "layout: " + "; ".join(
            l for l in out.split("\n") if l.startswith("FAIL"))[:400]
    rc, out = run(tree, "make", "-j2", "efi")
    if rc:
        return False, "make efi: " + out[-400:]
    bins = ["build/tests/" + t for t in UNIT_TESTS]
    rc, out = run(tree, "make", "-j2", *bins)
    if rc:
        return False, "make unit tests: " + out[-400:]
    for b in bins:
        rc, out = run(tree, "./" + b)
        if rc:
            return False, "%s: %s" % (b, "; ".join(
                l for l in out.split("\n") if "ERROR" in l)[:400])
    return True, ""


def put_back(tree, path, text, mtime_ns):
    """A file as it was, with its time, so that make rebuilds nothing for
    it."""
    write(tree, path, text)
    os.utime(os.path.join(tree, path), ns=(mtime_ns, mtime_ns))


def throwaway():
    named = readme_files()
    tree = tempfile.mkdtemp(prefix="irqlab-throwaway-")
    try:
        copy_tree(tree)
        edits = places(tree)
        touched = [f for f, _ in edits]
        check("README names each file a mitigation variant touches (%s)"
              % ", ".join(touched),
              set(touched) <= named and len(touched) <= 4,
              "README names %s" % sorted(named))
        saved = {f: read(tree, f) for f in touched}
        for _, edit in edits:
            edit()
        start = time.time()
        ok, why = builds_and_passes(tree)
        check("a variant added in those %d files alone builds, and the unit "
              "tests and the layout check pass (%.0f s)"
              % (len(touched), time.time() - start), ok, why)
        # Each place forgotten in turn, the others staying added: files
        # are put back with the times they had, so that the build redoes
        # only what the forgotten place changes.
        added = {f: (read(tree, f),
                     os.stat(os.path.join(tree, f)).st_mtime_ns)
                 for f in touched}
        before = {f: os.stat(os.path.join(ROOT, f)).st_mtime_ns
                  for f in touched}
        for f in touched:
            start = time.time()
            put_back(tree, f, saved[f], before[f])
            ok, why = builds_and_passes(tree)
            check("the variant with %s forgotten fails a test (%.0f s)"
                  % (f, time.time() - start), not ok, "everything passed")
            if not ok:
                print("      %s" % why.strip().split("\n")[-1][:200])
            put_back(tree, f, *added[f])
    finally:
        shutil.rmtree(tree, ignore_errors=True)


def main():
    check.guarded("the throwaway variant's checks", throwaway)
    return check.finish(CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
