#!/usr/bin/env python3
"""make fleet's reader (tools/fleet.py) on a lab folder where one machine
left a results.json that is not irqlab's as it writes it (docs/lab.md
"What the server keeps"): each bad file is skipped with its path and
why, and fleet.db and fleet.html are built from the rest, their data
strict JSON. Ends with "fleet: N passed, N failed"."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import Checks  # noqa: E402

check = Checks("fleet")
# How many checks the suite counts under CI (tests/checks.py).
CHECKS_UNDER_CI = 10
TEMPLATE = os.path.join(ROOT, "build", "fleet-template.html")


def no_constant(name):
    raise ValueError("%s in the page's data" % name)


def run_doc(run_id, brand="Good CPU", rows=("int-direct", "int-push-jmp")):
    return {"run_id": run_id, "build": "0123456789abcdef",
            "machine": {"brand": brand, "cpu_vendor": "GenuineIntel"},
            "clock": {"unit": "TSC ticks", "kind": "tsc"},
            "experiments": [{"name": n, "scheme": n.split("-", 1)[1],
                             "source": "int", "status": "ok",
                             "round_trip": {"median": 100 + i}}
                            for i, n in enumerate(rows)]}


def put(top, machine, run, text):
    folder = os.path.join(top, "runs", machine, run)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "results.json"), "w") as f:
        f.write(text if isinstance(text, str) else json.dumps(text))


# (what, machine, run folder, the file's text, what the skip says)
BAD = [
    ("a run id twice for one machine", "good-1", "20261207-101011",
     run_doc("20261207-101010"), "run good-1/20261207-101010 again"),
    ("a row twice in a run", "dup-rows", "20261207-101010",
     run_doc("20261207-101010", rows=("int-direct", "int-direct")),
     "row int-direct (schemes) again: the first kept"),
    ("an experiment that is a number", "numbers", "20261207-101010",
     dict(run_doc("20261207-101010"), experiments=[1]),
     "a row is not as irqlab writes it"),
    ("a brand that is a number beside brands that are text",
     "numeric-brand", "20261207-101010",
     run_doc("20261207-101010", brand=12345), "machine.brand is int"),
    ("400 kB of '['", "deep", "20261207-101010", "[" * 400000,
     "nested too deep"),
    ("a run id of NaN", "nan", "20261207-101010",
     json.dumps(run_doc("20261207-101010")).replace(
         '"run_id": "20261207-101010"', '"run_id": NaN'),
     "NaN is not a number JSON carries"),
    ("a run id that is no date, always the latest by its text",
     "future", "99999999-999999", run_doc("99999999-999999"),
     "run_id 99999999-999999 is no date and time"),
    ("a file past 4 MiB", "huge", "20261207-101010",
     json.dumps(dict(run_doc("20261207-101010"), pad="x" * (4 << 20))),
     "over 4194304 bytes"),
]


def fleet_checks():
    top = tempfile.mkdtemp(prefix="irqlab-fleet-")
    try:
        put(top, "good-1", "20261207-101010", run_doc("20261207-101010"))
        put(top, "good-2", "20261207-101010", run_doc("20261207-101010"))
        for _, machine, run, text, _ in BAD:
            put(top, machine, run, text)
        p = subprocess.run([sys.executable,
                            os.path.join(ROOT, "tools", "fleet.py"),
                            "--template", TEMPLATE, top],
                           capture_output=True, text=True, timeout=120)
        said = p.stdout + p.stderr
        for what, machine, run, _, why in BAD:
            check("fleet: a results.json with %s is named with its path "
                  "and why (\"%s\"), and the rest is built" % (what, why),
                  p.returncode == 0 and any(
                      os.path.join(machine, run) in line and why in line
                      for line in said.splitlines()), said[-1500:])
        db = sqlite3.connect(os.path.join(top, "fleet.db"))
        machines = sorted(m for (m,) in db.execute(
            "SELECT machine FROM machines"))
        db.close()
        with open(os.path.join(top, "fleet.html")) as f:
            page = f.read()
        data = None
        if '{"groups"' in page:
            data, _ = json.JSONDecoder(parse_constant=no_constant).raw_decode(
                page[page.find('{"groups"'):])
        shown = sorted(m["machine"] for g in (data or {}).get("groups", [])
                       for m in g["machines"])
        check("fleet: fleet.db holds the good runs and the run with a "
              "duplicate row, and fleet.html is written with its data "
              "strict JSON (no NaN), showing only those machines",
              machines == ["dup-rows", "good-1", "good-2"]
              and shown == machines, "%s; %s; %s" % (machines, shown,
                                                     said[-600:]))
    finally:
        shutil.rmtree(top)


def group_checks():
    """A group's cell counts its machines that did not select a row apart
    from those the row failed on (make compare's "not selected")."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import fleet
    ok = {"round_trip": 69, "state": "ok"}
    fails = {"round_trip": None, "state": "failed"}
    said = [fleet.group_text([ok, None, None, None, None]),
            fleet.group_text([ok, fails, None])]
    check("fleet: a group's cell counts the machines whose run has no such "
          "row as not selected, apart from the row's failures",
          said == ["69, 1 of 1 ok, 4 not selected",
                   "69, 1 of 2 ok, 1 not selected"], str(said))


def main():
    if not os.path.exists(TEMPLATE):
        subprocess.run(["make", "-s", "-C", ROOT,
                        os.path.relpath(TEMPLATE, ROOT)], check=False)
    check.guarded("the fleet reader's checks", fleet_checks)
    check.guarded("the fleet's group cells", group_checks)
    return check.finish(CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
