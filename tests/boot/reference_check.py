#!/usr/bin/env python3
"""The icount reference (tests/boot/reference/icount-figures.json) holds
every figure an -icount shift=0 run must repeat. A change to a row it
already had is a change of what irqlab measures, so it must be
explained: each such row is named, with why, in
tests/boot/reference/EXPLAINED, in the commit that changes it.

Each commit that touched the reference or EXPLAINED since the rule
below began is compared with its (first) parent, and the working tree
with HEAD:
- every row whose figures changed is named, with why, on a line of
  EXPLAINED that comparison wrote (new, or reworded): an explanation
  kept from an earlier change excuses nothing later;
- a comparison that edits EXPLAINED names on it only rows that changed
  in it: EXPLAINED says why the reference last changed, nothing older.
Rows added are not changes; figures added to a row are not either.

Which commits: on a branch, "since the merge base with main" would do;
but on a clean clone of main, as CI runs, HEAD is its own merge base and
that range is empty. So the range is every commit since RULE_SINCE,
which holds every branch's commits since its merge base and, on main,
everything the rule has seen. The history before it, from EXPLAINED's
first commit, is run through the same rule as a check of the check: it
finds the one change an older explanation excused. Ends with
"reference: N passed, N failed"."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from checks import Checks  # noqa: E402
from figures import changed  # noqa: E402

REFERENCE = os.path.join("tests", "boot", "reference", "icount-figures.json")
EXPLAINED = os.path.join("tests", "boot", "reference", "EXPLAINED")
# main's head when the rule became exact: every later commit is held
# to it.
RULE_SINCE = "2fc45709b6db9234b97f6bbaebb02bc45eb44125"
# EXPLAINED's first commit, and what the exact rule finds between it
# and RULE_SINCE: 962803b ran the gap method in eighths of its bound,
# which moved the gate's gap row (its reason's interrupt count, 440484
# to 55060), and c0dcf8e's line for the gate, about its status, let
# that pass unexplained.
EXPLAINED_BEGAN = "d114c59c8fa597b3c957e5eef8f77dd9aca40f81"
CAUGHT_BEFORE_THE_RULE = ["962803bc0634 unexplained: gap_method gate"]
# How many checks the suite counts under CI (tests/checks.py).
CHECKS_UNDER_CI = 7

check = Checks("reference")


def git(*args):
    return subprocess.run(["git", "-C", ROOT] + list(args),
                          capture_output=True, text=True, check=True).stdout


def at(commit, path):
    """A file's text at a commit, or None where it did not exist."""
    done = subprocess.run(["git", "-C", ROOT, "show", commit + ":" + path],
                          capture_output=True, text=True)
    return done.stdout if done.returncode == 0 else None


def working(path):
    with open(os.path.join(ROOT, path)) as f:
        return f.read()


def comparisons(since, until="HEAD", with_working_tree=True):
    """(label, old reference, new reference, old EXPLAINED, new EXPLAINED)
    for each commit in since..until that touched either file, oldest
    first, against its first parent; then the working tree against HEAD
    where either differs. A version that is not there reads as None."""
    out = []
    for commit in git("rev-list", "--reverse", "%s..%s" % (since, until),
                      "--", REFERENCE, EXPLAINED).split():
        parent = commit + "^1"
        out.append((commit[:12], at(parent, REFERENCE), at(commit, REFERENCE),
                    at(parent, EXPLAINED), at(commit, EXPLAINED)))
    if with_working_tree:
        head = (at("HEAD", REFERENCE), at("HEAD", EXPLAINED))
        tree = (working(REFERENCE), working(EXPLAINED))
        if tree != head:
            out.append(("the working tree", head[0], tree[0],
                        head[1], tree[1]))
    return out


def explained(text):
    """Row name -> why, from EXPLAINED's "name: why" lines."""
    out = {}
    for line in (text or "").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, why = line.partition(":")
            out[name.strip()] = why.strip()
    return out


def judged(old, new, old_text, new_text):
    """One comparison's faults: each row the old reference had whose
    figures moved with no line written for it here, and, where EXPLAINED
    was edited here, each line naming a row that did not move here."""
    moved = [(section, name) for section, name, _, had
             in changed(old or {}, new or {}, across_builds=True)
             if had is not None]
    before, after = explained(old_text), explained(new_text)
    written = {name for name, why in after.items()
               if why and before.get(name) != why}
    faults = ["unexplained: %s %s" % (section, name)
              for section, name in moved if name not in written]
    if old_text != new_text:
        faults += ["stale line: %s" % name for name in
                   sorted(set(after) - {name for _, name in moved})]
    return faults


def faults_over(comparisons_):
    return ["%s %s" % (label, fault)
            for label, old, new, old_text, new_text in comparisons_
            for fault in judged(json.loads(old) if old else None,
                                json.loads(new) if new else None,
                                old_text, new_text)]


def rows(figures):
    return {r.get("name", r.get("scheme")) for section in
            ("experiments", "primitives", "gap_method", "against_baseline")
            for r in figures.get(section, [])} | {"floor",
                                                  "instrument_in_handler"}


def reference_checks():
    since = comparisons(RULE_SINCE)
    check("every version of the reference and EXPLAINED since the rule "
          "began (%s) is read from git, and the working tree's"
          % RULE_SINCE[:12],
          all(new is not None for _, _, new, _, _ in since),
          "; ".join(label for label, _, new, _, _ in since if new is None))
    print("      compared: %s" % (", ".join(c[0] for c in since) or "none"))
    faults = faults_over(since)
    check("in every commit since %s and the working tree, each row whose "
          "reference figures changed is named, with why, on a line of "
          "EXPLAINED that comparison wrote"
          % RULE_SINCE[:12], not [f for f in faults if " unexplained: " in f],
          "; ".join(faults))
    check("in every commit since %s and the working tree that edits "
          "EXPLAINED, each of its lines names a row whose figures changed "
          "in that comparison" % RULE_SINCE[:12],
          not [f for f in faults if " stale line: " in f], "; ".join(faults))
    new = json.loads(working(REFERENCE))
    why = explained(working(EXPLAINED))
    stray = sorted(set(why) - rows(new) -
                   rows(json.loads(at("HEAD", REFERENCE))))
    check("EXPLAINED names only rows the reference has or had", not stray,
          ", ".join(stray))
    # The rule over the history before it began, from EXPLAINED's first
    # commit: the change an old line excused is found, and only it.
    before = faults_over(comparisons(EXPLAINED_BEGAN + "^1", RULE_SINCE,
                                     with_working_tree=False))
    check("from EXPLAINED's first commit to %s the rule finds exactly %s"
          % (RULE_SINCE[:12], "; ".join(CAUGHT_BEFORE_THE_RULE)),
          before == CAUGHT_BEFORE_THE_RULE, "; ".join(before))
    # A row broken on purpose: int-direct's entry median one higher, with
    # EXPLAINED's line for it as the comparison found it (an old line).
    broken = json.loads(json.dumps(new))
    row = next(r for r in broken["experiments"] if r["name"] == "int-direct")
    row["entry"]["median"] += 1
    old_line = "int-direct: an explanation of an earlier change\n"
    found = judged(new, broken, old_line, old_line)
    check("a reference row broken on purpose (int-direct's entry median "
          "one higher) is found unexplained where EXPLAINED's line for it "
          "is older than the change", found == ["unexplained: experiments "
                                                "int-direct"], str(found))
    found = judged(new, broken, "",
                   "int-direct: why\nint-call: stale, nothing moved\n")
    check("with a line for int-direct written beside the change, a line "
          "for int-call, which did not move, is found stale and "
          "int-direct explained", found == ["stale line: int-call"],
          str(found))


def main():
    check.guarded("the reference checks", reference_checks)
    return check.finish(CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
