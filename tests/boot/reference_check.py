#!/usr/bin/env python3
"""The icount reference (tests/boot/reference/icount-figures.json) holds
every figure an -icount shift=0 run must repeat. A change to a row it
already had is a change of what irqlab measures, so it must be
explained: each such row is named, with why, in
tests/boot/reference/EXPLAINED. Compares the working tree's reference
with HEAD's, or, where they agree, HEAD's with the version before the
commit that last changed it. Rows added are not changes; figures added
to a row are not either. Ends with "reference: N passed, N failed"."""

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
EXPLAINED = os.path.join(HERE, "reference", "EXPLAINED")
# How many checks the suite counts under CI (tests/checks.py).
CHECKS_UNDER_CI = 4

check = Checks("reference")


def git(*args):
    return subprocess.run(["git", "-C", ROOT] + list(args),
                          capture_output=True, text=True, check=True).stdout


def previous_reference():
    """The reference before the change under test, and where it is from."""
    head = git("show", "HEAD:" + REFERENCE)
    with open(os.path.join(ROOT, REFERENCE)) as f:
        working = f.read()
    if working != head:
        return json.loads(head), "HEAD"
    commits = git("log", "--format=%H", "-n", "2", "--", REFERENCE).split()
    if len(commits) < 2:
        raise RuntimeError("the reference has no earlier version in git")
    return json.loads(git("show", "%s~1:%s" % (commits[0], REFERENCE))), \
        commits[0][:12] + "~1"


def explained():
    """Row name -> why, from EXPLAINED's "name: why" lines."""
    out = {}
    with open(EXPLAINED) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, _, why = line.partition(":")
                out[name.strip()] = why.strip()
    return out


def unexplained(old, new, why):
    """Rows the old reference had whose figures moved, unexplained: a row
    only the new one has is an addition, not a change."""
    return ["%s %s" % (section, name)
            for section, name, _, had in changed(old, new, across_builds=True)
            if had is not None and (name not in why or not why[name])]


def rows(figures):
    return {r.get("name", r.get("scheme")) for section in
            ("experiments", "primitives", "gap_method", "against_baseline")
            for r in figures.get(section, [])} | {"floor",
                                                  "instrument_in_handler"}


def reference_checks():
    with open(os.path.join(ROOT, REFERENCE)) as f:
        new = json.load(f)
    old, since = previous_reference()
    why = explained()
    check("the reference and its version before the last change (%s) are "
          "read from git" % since, bool(new) and bool(old))
    missing = unexplained(old, new, why)
    check("every row whose reference figures changed since %s is named, "
          "with why, in EXPLAINED (%d changed)"
          % (since, len(changed(old, new, across_builds=True))),
          not missing, "; ".join(missing))
    stray = sorted(set(why) - rows(old) - rows(new))
    check("EXPLAINED names only rows the reference has or had", not stray,
          ", ".join(stray))
    # A row broken on purpose: int-direct's entry median one higher.
    broken = json.loads(json.dumps(new))
    row = next(r for r in broken["experiments"] if r["name"] == "int-direct")
    row["entry"]["median"] += 1
    found = unexplained(new, broken, {k: v for k, v in why.items()
                                      if k != "int-direct"})
    check("a reference row broken on purpose (int-direct's entry median "
          "one higher) is found unexplained", found == ["experiments "
                                                       "int-direct"],
          str(found))


def main():
    check.guarded("the reference checks", reference_checks)
    return check.finish(CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
