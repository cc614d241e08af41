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

from figures import differences, figures
from harness import IMAGE, REFERENCE, check, closest_to_limits, walk
from lanes import AFTER, ALONE, FIRST_LANE, SECOND_LANE
from checks import RECORDING  # tests/, on the path harness set

# The names of the checks the suite counts under CI, where every tool is
# there (tests/checks.py): a helper that dies loses its checks, and a
# check lost while another is added is named. A change to the checks
# records the list again: RECORD_CHECKS=1 python3 tests/boot/boot_test.py
# (the whole suite, every tool there, every check passing).
CHECKS_UNDER_CI = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                               "checks_under_ci.txt")


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
    outcomes = {}
    beside = check.thread("the second lane", walk, SECOND_LANE, outcomes)
    beside.start()
    check.guarded("the first lane", walk, FIRST_LANE, outcomes)
    beside.join()
    check.guarded("the entries run alone", walk, ALONE, outcomes)
    for after in () if os.environ.get("BOOT_ONLY") else AFTER:
        check.guarded(after.__name__, after, outcomes)
    closest_to_limits()
    return check.finish(pinned_names=CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
