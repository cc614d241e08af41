#!/usr/bin/env python3
"""QEMU and Bochs boot tests: boot the real image under OVMF and check
what happened on the guest, from the files it wrote, its serial log and
the variable store it left.

The runs are a table (FIRST_LANE and SECOND_LANE, in lanes.py): each
entry is one run, its emulator, machine, CPU, config and store set-up,
the tool it needs, and the checks that apply to it. One runner
(harness.py) walks each lane, the two lanes side by side, one a core;
then the entries that need the whole host (ALONE), one by one; checks
across runs (AFTER) come last. Adding a QEMU configuration is one
entry. Prints one line per check and ends with "boot: N passed, N
failed".

The files, by subject: harness.py (launching QEMU and Bochs, the Boot
entry, the runner, timing); lanes.py (what runs); row_checks.py and
source_checks.py (the checks on results.json and summary.txt that many
entries share); and one file per family of scenarios: icount.py (the
icount reference), store.py (the variable store), stick.py (the stick,
the disk and the boot order), machines.py (CPU models and platforms),
configs.py, between_cpus.py, every_step.py (the linux variant's steps),
row_counts.py (one count of rows in headline.txt, summary.txt,
results.json and the serial log), bochs.py and emulators.py (the
exact-count Bochs run against QEMU's)."""

import json
import os
import sys
import time

from figures import differences, figures
from harness import (BUILD, IMAGE, REFERENCE, check, closest_to_limits,
                     entry_rows, timing_table, walk)
from lanes import AFTER, ALONE, FIRST_LANE, LONG, SECOND_LANE
from checks import RECORDING  # tests/, on the path harness set

# The names of the checks the suite counts under CI, where every tool is
# there (tests/checks.py): a helper that dies loses its checks, and a
# check lost while another is added is named. A change to the checks
# records the list again: RECORD_CHECKS=1 python3 tests/boot/boot_test.py
# (the whole suite, every tool there, every check passing).
HERE = os.path.dirname(os.path.abspath(__file__))
CHECKS_UNDER_CI = os.path.join(HERE, "checks_under_ci.txt")
# make test-long's (docs/testing.md "make test-long").
CHECKS_LONG = os.path.join(HERE, "checks_long.txt")

# The boots each suite may make, as it counts them (a QEMU or Bochs run
# an entry makes; the second emulator beside cross-cpu-16 is load, not
# a boot of the suite's): a budget, not a record. A scenario that would
# go over it finds room by sharing a run, or raises the number in a
# commit that says why (docs/testing.md "The boot budget").
BOOT_BUDGET = os.path.join(HERE, "boot_budget.txt")


def budget(suite):
    """The boots `suite` (test or test-long) may make."""
    with open(BOOT_BUDGET) as f:
        for line in f:
            words = line.split("#")[0].split()
            if len(words) == 2 and words[0] == suite:
                return int(words[1])
    raise ValueError("%s names no budget for %s" % (BOOT_BUDGET, suite))


def keep_to_budget(suite, rows, seconds):
    """The suite's last lines: its wall time and boots beside its budget,
    and the check that it kept to it; the table of its entries, printed
    and written to build/boot-test/timing-<suite>.md for docs/testing.md."""
    boots = sum(r.boots() for r in rows)
    allowed = budget(suite)
    table = timing_table(rows)
    os.makedirs(BUILD, exist_ok=True)
    with open(os.path.join(BUILD, "timing-%s.md" % suite), "w") as f:
        f.write(table + "\n")
    print("table %s" % table.replace("\n", "\ntable "))
    print("time  the boot tests: %.0f s, %d boots of a budget of %d"
          % (seconds, boots, allowed))
    check("boot: the whole suite (make %s) made at most the %d boots its "
          "budget allows (tests/boot/boot_budget.txt)" % (suite, allowed),
          boots <= allowed,
          "%d boots, %d over: share a run, or raise the budget in a commit "
          "that says why" % (boots, boots - allowed))


def record_reference():
    """make reference: the icount run alone, its figures written as the
    reference with the build that measured them (docs/timing.md "The path
    length, checked"); every row whose figures changed is named, and
    must be explained in tests/boot/reference/EXPLAINED."""
    outcomes = {}
    walk([e for e in FIRST_LANE if e.name == "icount-a"], outcomes)
    doc = outcomes.get("icount-a") and outcomes["icount-a"].icount_doc
    if not doc:
        print("make reference: the icount run failed; nothing written")
        return 1
    with open(REFERENCE) as f:
        old = json.load(f)
    new = figures(doc)
    with open(REFERENCE, "w") as f:
        json.dump(new, f, indent=1, sort_keys=True)
        f.write("\n")
    print("reference: build %s (was %s); %d rows changed%s" % (
        new["build"], old.get("build"), len(differences(old, new)),
        "".join("\n  " + d for d in differences(old, new))))
    return 0


def main():
    if not os.path.exists(IMAGE):
        print("missing %s: run make image first" % IMAGE)
        return 1
    if sys.argv[1:] == ["--record-reference"]:
        return record_reference()
    if os.environ.get("BOOT_ONLY") and RECORDING:
        print("RECORD_CHECKS records the whole suite's check names: "
              "unset BOOT_ONLY")
        return 1
    began = time.monotonic()
    whole = not os.environ.get("BOOT_ONLY")
    if sys.argv[1:] == ["--long"]:
        # make test-long: one entry at a time, each alone on the host.
        check.guarded("the long entries", walk, LONG, {})
        closest_to_limits()
        if whole:
            keep_to_budget("test-long", entry_rows, time.monotonic() - began)
        return check.finish(pinned_names=CHECKS_LONG)
    outcomes = {}
    beside = check.thread("the second lane", walk, SECOND_LANE, outcomes)
    beside.start()
    check.guarded("the first lane", walk, FIRST_LANE, outcomes)
    beside.join()
    check.guarded("the entries run alone", walk, ALONE, outcomes)
    for after in () if not whole else AFTER:
        check.guarded(after.__name__, after, outcomes)
    closest_to_limits()
    if whole:
        keep_to_budget("test", entry_rows, time.monotonic() - began)
    return check.finish(pinned_names=CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
