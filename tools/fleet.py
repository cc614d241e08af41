#!/usr/bin/env python3
"""fleet.py [--template T] DIR: every machine's runs under DIR, side by
side (docs/lab.md "The collection").

DIR is a lab's folder (`make serve` files each run in
runs/<machine>/<run>/) or any folder of results folders: every
results.json under it is one run, and its machine is the folder above
the run's (the SMBIOS UUID or mac-<MAC> on a lab's server), or, where
that folder is a stick's "results", the folder above it (a copy of
each machine's stick side by side), else the run's own folder.

It writes two files into DIR:

- fleet.db, an SQLite database: one row per machine (machines), per run
  (runs) and per measured row of a run (rows), with its figures, unit,
  state and clock. The schema and example queries are in docs/lab.md;
  the file is made anew each time, so it never holds a run twice.
- fleet.html (with --template): each machine's latest run side by side,
  by topic (the schemes per source, the i386 schemes, entry variants,
  cache states, mitigations, on other processors, between CPUs, the
  primitives), grouped by CPU model and unit. A group's column gives
  its machines' median, the range and how many machines; each group
  opens to a column per machine. Figures in different units are never
  in one group, so instructions never sit beside cycles.

What the page shows is computed here once (summary()); the page draws
it and computes nothing, so the table printed here and the page agree.
"""

import argparse
import json
import math
import os
import re
import sqlite3
import statistics
import sys
import time

from compare import fill_template, print_table

# The topics, in the page's order: (key, title). A row's topic is
# decided by rows_of().
TOPICS = (
    ("schemes", "The schemes, per source"),
    ("i386", "The i386 schemes, in 32-bit protected mode"),
    ("variants", "Entry variants (segment and per-CPU base reloads)"),
    ("caches", "Cold and thrashed caches"),
    ("mitigations", "Mitigations"),
    ("other-cpus", "On other processors (medians over the boot CPU's)"),
    ("between-cpus", "Between CPUs (median by relation)"),
    ("primitives", "Primitives (median per block)"),
)

SCHEMA = """
CREATE TABLE machines (
  machine TEXT PRIMARY KEY,  -- SMBIOS system UUID, mac-<MAC>, or folder
  cpu_model TEXT,            -- CPUID brand string
  vendor TEXT, family INTEGER, model INTEGER, stepping INTEGER,
  microcode TEXT,
  system TEXT                -- SMBIOS vendor and product
);
CREATE TABLE runs (
  machine TEXT REFERENCES machines(machine),
  run TEXT,                  -- the run id, yyyymmdd-hhmmss
  build TEXT,                -- irqlab's build id
  clock TEXT,                -- clock.kind: tsc, icount, tcg-noise, emulator..
  unit TEXT,                 -- what every figure of the run counts
  figures_are_cycles INTEGER,
  tsc_hz INTEGER,
  folder TEXT,               -- where its files are, under DIR
  PRIMARY KEY (machine, run)
);
CREATE TABLE rows (
  machine TEXT, run TEXT,
  topic TEXT,                -- schemes, i386, variants, caches, ...
  row TEXT,                  -- the row's name in results.json
  scheme TEXT, source TEXT, variant TEXT, core_type TEXT,
  measure TEXT,              -- what the figures are (median, ...)
  round_trip REAL, entry REAL, exit REAL,
  samples INTEGER,
  unit TEXT, clock TEXT,     -- the run's, repeated for plain queries
  state TEXT,                -- ok, skipped or failed
  reason TEXT,               -- why, where not ok
  PRIMARY KEY (machine, run, topic, row),
  FOREIGN KEY (machine, run) REFERENCES runs(machine, run)
);
"""


def median_of(stats):
    return (stats or {}).get("median")


def rows_of(doc):
    """Every measured row of a run, as dicts of the rows table's
    columns (less machine, run, unit and clock)."""
    out = []
    mitigation_variants = {r.get("variant") for r in
                           (doc.get("mitigations") or {}).get("rows") or []}
    mitigation_variants.add("linux")

    def add(topic, row, **kw):
        base = dict(topic=topic, row=row, scheme=None, source=None,
                    variant=None, core_type=None, measure="median",
                    round_trip=None, entry=None, exit=None, samples=None,
                    state="ok", reason=None)
        base.update(kw)
        out.append(base)

    for e in doc.get("experiments") or []:
        name = e.get("name", "")
        if name.startswith("selftest-"):
            continue
        variant = e.get("variant") or ""
        if not variant:
            topic = ("i386" if e.get("cpu_mode") == "protected-32"
                     else "schemes")
        elif e.get("cache"):
            topic = "caches"
        elif variant.split("+")[0] in mitigation_variants:
            topic = "mitigations"
        else:
            topic = "variants"
        add(topic, name, scheme=e.get("scheme"), source=e.get("source"),
            variant=variant, core_type=e.get("core_type"),
            round_trip=median_of(e.get("round_trip")),
            entry=median_of(e.get("entry")), exit=median_of(e.get("exit")),
            samples=e.get("samples"), state=e.get("status"),
            reason=e.get("reason"))
    for r in doc.get("matrix_on_other_cpus") or []:
        add("other-cpus", "%s on CPU %s" % (r.get("row"), r.get("cpu")),
            core_type=r.get("core_type"), measure="median over the boot "
            "CPU's", round_trip=r.get("round_trip_over_boot"),
            entry=r.get("entry_over_boot"), exit=r.get("exit_over_boot"),
            state=r.get("status"), reason=r.get("reason"))
    cross = doc.get("cross_cpu") or {}
    for kind, relations in (cross.get("by_relation") or {}).items():
        for relation, v in relations.items():
            add("between-cpus", "%s %s" % (kind, relation),
                round_trip=v.get("median"), samples=v.get("rows"),
                measure="median of the rows' medians")
    for r in (doc.get("primitives") or {}).get("rows") or []:
        add("primitives", r.get("name"), measure="median per block of "
            "%s" % (doc.get("primitives") or {}).get("reps_per_block"),
            round_trip=median_of(r.get("block")), samples=r.get("blocks"),
            state=r.get("status"), reason=r.get("reason"))
    return out


# The largest results.json irqlab writes (bench/report/context.h): a
# file past it is not one of its runs, and is not read.
FILE_LIMIT = 4 * 1024 * 1024
RUN_ID = re.compile(r"^[0-9]{8}-[0-9]{6}(-discarded)?$")


class NotARun(Exception):
    """A results.json that does not fit what fleet reads from one."""


def no_constant(name):
    raise ValueError("%s is not a number JSON carries" % name)


def text_of(v, what):
    if v is None or isinstance(v, str):
        return v
    raise NotARun("%s is %s, not text" % (what, type(v).__name__))


def number_of(v, what):
    if v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)
                     and math.isfinite(v)):
        return v
    raise NotARun("%s is %r, not a number" % (what, v))


def dict_of(v, what):
    if v is None:
        return {}
    if isinstance(v, dict):
        return v
    raise NotARun("%s is %s, not an object" % (what, type(v).__name__))


def record_of(machine, folder, doc):
    """What fleet keeps of a run, every value checked as it is taken:
    text, a finite number, or null; the rest of the document is let go,
    so that memory holds the rows, not the files. Raises NotARun."""
    if not isinstance(doc, dict) or not isinstance(doc.get("experiments"),
                                                   list):
        raise NotARun("not an irqlab results.json")
    run = text_of(doc.get("run_id"), "run_id") or os.path.basename(folder)
    if not RUN_ID.match(run):
        raise NotARun("run_id %r is not YYYYMMDD-HHMMSS" % run)
    try:
        time.strptime(run[:15], "%Y%m%d-%H%M%S")
    except ValueError:
        raise NotARun("run_id %s is no date and time" % run) from None
    m = dict_of(doc.get("machine"), "machine")
    system = dict_of(m.get("smbios_system"), "machine.smbios_system")
    clock = dict_of(doc.get("clock"), "clock")
    microcode = m.get("microcode")
    if not isinstance(microcode, str):
        number_of(microcode, "machine.microcode")
    try:
        rows = rows_of(doc)
    except (AttributeError, TypeError) as e:
        raise NotARun("a row is not as irqlab writes it (%s)" % e) from None
    for r in rows:
        for k in ("topic", "row", "scheme", "source", "variant",
                  "core_type", "measure", "state", "reason"):
            r[k] = text_of(r[k], "row %r's %s" % (r.get("row"), k))
        for k in ("round_trip", "entry", "exit", "samples"):
            r[k] = number_of(r[k], "row %r's %s" % (r.get("row"), k))
    return {
        "machine": machine, "folder": folder, "run": run,
        "build": text_of(doc.get("build"), "build"),
        "brand": text_of(m.get("brand"), "machine.brand"),
        "vendor": text_of(m.get("cpu_vendor"), "machine.cpu_vendor"),
        "family": number_of(m.get("family"), "machine.family"),
        "model": number_of(m.get("model"), "machine.model"),
        "stepping": number_of(m.get("stepping"), "machine.stepping"),
        "microcode": None if microcode is None else str(microcode),
        "system": " ".join(x for x in (
            text_of(system.get("vendor"), "SMBIOS vendor"),
            text_of(system.get("product"), "SMBIOS product")) if x),
        "kind": text_of(clock.get("kind"), "clock.kind"),
        "unit": text_of(clock.get("unit"), "clock.unit"),
        "cycles": int(bool(clock.get("figures_are_cycles"))),
        "tsc_hz": number_of(clock.get("tsc_hz"), "clock.tsc_hz"),
        "rows": rows,
    }


def find_runs(top):
    """The record (record_of) of every results.json under top, in a
    stable order; each file that cannot be read or is not an irqlab
    run's is named, with why, in a second list, and the rest is read."""
    runs, problems = [], []
    for here, dirs, files in os.walk(top):
        dirs.sort()
        if "results.json" not in files:
            continue
        path = os.path.join(here, "results.json")
        try:
            if os.path.getsize(path) > FILE_LIMIT:
                raise NotARun("over %d bytes" % FILE_LIMIT)
            with open(path, "rb") as f:
                doc = json.loads(f.read().decode("utf-8"),
                                 parse_constant=no_constant)
        except (OSError, ValueError, RecursionError, NotARun) as e:
            problems.append("%s: cannot be read (%s)" % (
                path, "nested too deep" if isinstance(e, RecursionError)
                else e))
            continue
        # runs/<machine>/<run>, or <machine>/results/<run> as a stick
        # holds it, or a bare <run>.
        rel = os.path.relpath(here, top).split(os.sep)
        if len(rel) >= 3 and rel[-2] == "results":
            machine = rel[-3]
        elif len(rel) >= 2 and rel[-2] != "results":
            machine = rel[-2]
        else:
            machine = rel[-1]
        try:
            runs.append(record_of(machine, os.path.relpath(here, top), doc))
        except NotARun as e:
            problems.append("%s: skipped: %s" % (path, e))
    return runs, problems


def write_db(path, runs, problems):
    """fleet.db from the records. A run already there under its machine
    and run id, or a row its run has already, is named in `problems`
    and left out, never fatal; the runs written are returned."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    written, first = [], {}
    for rec in runs:
        key = (rec["machine"], rec["run"])
        if key in first:
            problems.append("%s: skipped: run %s/%s again, first in %s"
                            % (rec["folder"], key[0], key[1], first[key]))
            continue
        first[key] = rec["folder"]
        written.append(rec)
        db.execute("INSERT OR REPLACE INTO machines VALUES (?,?,?,?,?,?,?,?)",
                   (rec["machine"], rec["brand"], rec["vendor"],
                    rec["family"], rec["model"], rec["stepping"],
                    rec["microcode"], rec["system"]))
        db.execute("INSERT INTO runs VALUES (?,?,?,?,?,?,?,?)",
                   (rec["machine"], rec["run"], rec["build"], rec["kind"],
                    rec["unit"], rec["cycles"], rec["tsc_hz"],
                    rec["folder"]))
        for r in rec["rows"]:
            try:
                db.execute(
                    "INSERT INTO rows VALUES "
                    "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (rec["machine"], rec["run"], r["topic"], r["row"],
                     r["scheme"], r["source"], r["variant"], r["core_type"],
                     r["measure"], r["round_trip"], r["entry"], r["exit"],
                     r["samples"], rec["unit"], rec["kind"], r["state"],
                     r["reason"]))
            except sqlite3.IntegrityError:
                problems.append("%s: row %s (%s) again: the first kept"
                                % (rec["folder"], r["row"], r["topic"]))
    db.commit()
    db.close()
    return written


def latest_runs(runs):
    """Each machine's latest run (the largest run id): the page's
    columns. The others stay in fleet.db."""
    latest = {}
    for rec in runs:
        m = rec["machine"]
        if m not in latest or rec["run"] > latest[m]["run"]:
            latest[m] = rec
    return [latest[m] for m in sorted(latest)]


def fmt(v):
    """A figure as results.json has it: whole numbers whole, never in
    exponent form."""
    return str(int(v)) if float(v).is_integer() else "%.1f" % v


def cell_text(r):
    """One machine's cell: '64 (18/17)', a bare figure where the row
    has no entry and exit, or its state."""
    if r is None:
        return "not measured"
    if r["state"] != "ok" or r["round_trip"] is None:
        return r["state"] or "?"
    figure = fmt(r["round_trip"])
    if r["entry"] is not None and r["exit"] is not None:
        figure += " (%s/%s)" % (fmt(r["entry"]), fmt(r["exit"]))
    return figure


def group_text(cells):
    """A group's cell from its machines' rows (None where a machine's
    run lacks the row): the median of the ok figures (the lower middle
    one, so it is a machine's own figure), their range where they
    differ, and how many of the machines that measured the row had it
    ok, and how many did not select it; else what the row's state was on
    how many, or "not measured"."""
    values = [c["round_trip"] for c in cells if c and c["state"] == "ok"
              and c["round_trip"] is not None]
    # A machine whose run has no such row did not select it: never
    # counted among those the row failed on (make compare says the same).
    measured = [c for c in cells if c]
    if values:
        spread = ("" if min(values) == max(values) else
                  " [%s..%s]" % (fmt(min(values)), fmt(max(values))))
        unselected = len(cells) - len(measured)
        return "%s%s, %d of %d ok%s" % (
            fmt(statistics.median_low(values)), spread, len(values),
            len(measured), ", %d not selected" % unselected
            if unselected else "")
    states = {}
    for c in cells:
        if c:
            states[c["state"]] = states.get(c["state"], 0) + 1
    if not states:
        return "not measured"
    return ", ".join("%s on %d of %d" % (s, n, len(cells))
                     for s, n in sorted(states.items()))


def summary(runs):
    """What the page shows: the groups (CPU model and unit) with their
    machines' latest runs, and per topic its rows, each row's cell per
    group and per machine."""
    latest = latest_runs(runs)
    groups = {}
    for rec in latest:
        key = (rec["brand"] or "?", rec["unit"] or "?")
        groups.setdefault(key, []).append(rec)
    ordered = sorted(groups.items())
    group_list = [{"cpu_model": k[0], "unit": k[1], "machines": [
        {"machine": r["machine"], "run": r["run"], "folder": r["folder"],
         "clock": r["kind"]} for r in members]} for k, members in ordered]
    rows_by_machine = {}
    for rec in latest:
        rows_by_machine[rec["machine"]] = mine = {}
        for r in rec["rows"]:
            mine.setdefault((r["topic"], r["row"]), r)
    topics = []
    for key, title in TOPICS:
        names = []
        for m in rows_by_machine:
            for (topic, row) in rows_by_machine[m]:
                if topic == key and row not in names:
                    names.append(row)
        if not names:
            continue
        lines = []
        for name in names:
            by_group, by_machine = [], []
            for _, members in ordered:
                cells = [rows_by_machine[r["machine"]].get((key, name))
                         for r in members]
                by_group.append(group_text(cells))
                by_machine.append([cell_text(c) for c in cells])
            lines.append({"row": name, "groups": by_group,
                          "machines": by_machine})
        topics.append({"topic": key, "title": title, "rows": lines})
    return {"groups": group_list, "topics": topics,
            "runs": len(runs), "machines": len(latest)}


def print_summary(model, problems):
    print("%d machine(s), %d run(s); each machine's latest run below, "
          "the rest in fleet.db" % (model["machines"], model["runs"]))
    for i, g in enumerate(model["groups"]):
        print("group %d: %s, in %s: %s" % (i + 1, g["cpu_model"], g["unit"],
                                           ", ".join(m["machine"] for m in
                                                     g["machines"])))
    for p in problems:
        print("note: " + p)
    for t in model["topics"]:
        if t["topic"] != "schemes":
            continue
        print("\n%s: each group's median round trip [range], and how many "
              "of its machines had the row ok" % t["title"])
        print_table([["row"] + ["group %d" % (i + 1)
                                for i in range(len(model["groups"]))]],
                    [[r["row"]] + r["groups"] for r in t["rows"]])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--template", help="the fleet page's template")
    ap.add_argument("dir")
    args = ap.parse_args()
    runs, problems = find_runs(args.dir)
    if not runs:
        print("fleet: no results.json under %s" % args.dir, file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        return 1
    db = os.path.join(args.dir, "fleet.db")
    runs = write_db(db, runs, problems)
    model = summary(runs)
    model["problems"] = problems
    print_summary(model, problems)
    print("wrote %s" % db)
    if args.template:
        fill_template(args.template, model,
                      os.path.join(args.dir, "fleet.html"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
