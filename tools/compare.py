#!/usr/bin/env python3
"""compare.py [--template T --out compare.html] RUN...: several runs side
by side, a column each, as seed 000 put its Opteron, Xeon and Athlon.

RUN is a results folder (holding results.json) or a results.json. The
table has the headline rows: each scheme's median round trip, and in
brackets its entry and exit, per source. What cannot be compared is said
in the table, never crashed on and never mixed:

- a row a run does not have reads "not selected" where the run's config
  left its scheme or source out, else "missing";
- a run whose schema version differs from the first run's is named in a
  note, and its figures are shown where they could be read;
- runs whose units differ (instructions, TSC ticks, noise) are in
  separate unit groups. Each column names its unit's name under its
  run's, the note that the units differ comes before the table, and the
  charts are drawn per unit group, so no chart sets instructions beside
  cycles.

With --template, compare.html gets the same runs for web/compare.js,
which draws the charts overlaid per machine."""

import argparse
import json
import os
import re
import sys

SCHEMA_VERSION_KEY = "schema_version"
DATA_SLOT = "IRQLAB_RESULTS_JSON"


def load(path):
    """(label, doc or None, problem or None) for one RUN argument."""
    file = path if path.endswith(".json") else os.path.join(path,
                                                            "results.json")
    folder = os.path.basename(os.path.dirname(os.path.abspath(file)))
    try:
        with open(file) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return folder, None, "%s: cannot be read (%s)" % (file, e)
    if not isinstance(doc, dict) or not isinstance(doc.get("experiments"),
                                                   list):
        return folder, None, "%s: not an irqlab results.json" % file
    machine = doc.get("machine") or {}
    label = "%s [%s] %s" % (machine.get("brand") or machine.get("cpu_vendor")
                            or "?", (doc.get("clock") or {}).get("kind", "?"),
                            folder)
    return label, doc, None


def headline_rows(docs, cpu_mode):
    """(source, scheme, experiment name) of one CPU mode's rows, in the
    first run's order, then any the others add."""
    seen, rows = set(), []
    for doc in docs:
        for e in doc.get("experiments", []):
            name = e.get("name", "")
            if e.get("variant") or name.startswith("selftest-") \
                    or name in seen or e.get("cpu_mode", "long") != cpu_mode:
                continue
            seen.add(name)
            source = e.get("source", "?")
            if e.get("apic_mode") == "x2apic":
                source += "@x2apic"
            rows.append((source, e.get("scheme", "?"), name))
    return rows


def selected(doc, scheme, source):
    """Whether the run's config chose the scheme and the source (its
    lists, "all" or names joined by commas; docs/run.md "Choosing what
    runs"): direct runs wherever its source does, i386-direct wherever
    an i386 scheme or variant does."""
    config = doc.get("config") or {}

    def names(key):
        value = str(config.get(key, "all"))
        return None if value == "all" else value.split(",")

    def chosen(key, name):
        return names(key) is None or name in names(key)
    i386 = (names("schemes") is None
            or any(n.startswith("i386-") for n in names("schemes"))
            or names("variants") is None
            or {"ds-es", "pda-gs"} & set(names("variants")))
    return ((chosen("schemes", scheme) or scheme == "direct"
             or (scheme == "i386-direct" and i386))
            and chosen("sources", source.split("@")[0]))


def unit_name(unit):
    """A unit's name, for a column's header: its words before any bracket
    or "that" clause ("instructions" of "instructions (QEMU -icount path
    length, not cycles)"). web/common.js's unitName is the same rule."""
    return re.split(r" \(| that ", unit, maxsplit=1)[0]


def figure(doc, name, scheme="", source=""):
    """'64 (18/17)', 'skipped', 'not selected', 'missing': one cell."""
    for e in doc.get("experiments", []):
        if e.get("name") == name:
            if e.get("status") != "ok":
                return e.get("status", "?")
            med = [(e.get(k) or {}).get("median") for k in
                   ("round_trip", "entry", "exit")]
            return "%s (%s/%s)" % tuple("?" if v is None else v for v in med)
    return "missing" if selected(doc, scheme, source) else "not selected"


def yours_files(docs):
    """Each file of yours (docs/your-entry.md) any run measured, by name,
    in the first run's order: (name, its entry in each run's yours or
    None)."""
    names = []
    for doc in docs:
        for f in doc.get("yours") or []:
            if f.get("name") not in names:
                names.append(f.get("name"))
    return [(n, [next((f for f in doc.get("yours") or []
                       if f.get("name") == n), None) for doc in docs])
            for n in names]


def yours_file_notes(entries):
    """Per run, which file it measured under that name: the first run's
    path and SHA-256, then "the same file" where the SHA-256 agrees, a
    warning where it does not, or "not in this run"."""
    first = next(f for f in entries if f)
    notes = []
    for i, f in enumerate(entries):
        if not f:
            what = "not in this run"
        elif f is first:
            what = "%s, SHA-256 %s" % (f.get("file"), f.get("sha256"))
        elif f.get("sha256") == first.get("sha256"):
            what = "the same file"
        else:
            what = "%s, SHA-256 %s: NOT the same file as run %d's" % (
                f.get("file"), f.get("sha256"), entries.index(first) + 1)
        notes.append("run %d: %s" % (i + 1, what))
    return notes


def yours_rows(entries):
    """The experiment names of a file's rows in every run, first run's
    order first."""
    rows = []
    for f in entries:
        for r in (f or {}).get("rows", []):
            if r.get("experiment") not in rows:
                rows.append(r.get("experiment"))
    return rows


def yours_cell(doc, f, experiment):
    """One run's cell of a file's row: '69 (8/9) +5', its round trip over
    the same run's direct row after the figure; 'not in this run' where
    the run did not measure the file, 'not measured' where it did but
    not this row (its config chose fewer sources), else as figure()."""
    if not f:
        return "not in this run"
    row = next((r for r in f.get("rows", [])
                if r.get("experiment") == experiment), None)
    if not row:
        return "not measured"
    cell = figure(doc, experiment)
    over = (row.get("over_direct") or {}).get("round_trip_median_over")
    if row.get("status") != "ok" or over is None:
        return cell
    # Signed as web/common.js's signed(): "+5", "0", "-3".
    return "%s %s" % (cell, "+%d" % over if over > 0 else over)


def print_table(headers, lines):
    widths = [max(len(str(x)) for x in col)
              for col in zip(*headers, *lines)]
    for row in headers + lines:
        print("  ".join(str(x).ljust(w) for x, w in
                        zip(row, widths)).rstrip())


def print_yours(docs, runs):
    """The files of yours, a table each: each row's cell per run, so that
    one file is read side by side across machines."""
    files = yours_files(docs)
    if not files:
        return
    print("\nyour entry code (docs/your-entry.md): each file's rows, median "
          "round trip (entry/exit) and its round trip over the run's "
          "direct row")
    for name, entries in files:
        print("\nyours: %s" % name)
        for note in yours_file_notes(entries):
            print("  " + note)
        print_table([["row"] + ["run %d" % (i + 1) for i in range(len(runs))],
                     [""] + [unit_name(r["unit"]) for r in runs]],
                    [[x] + [yours_cell(d, f, x) for d, f in zip(docs, entries)]
                     for x in yours_rows(entries)])


def fill_template(template, data, out):
    """A page from its template (web/inline.py), the data in its slot;
    tools/fleet.py's too."""
    with open(template) as f:
        page = f.read()
    # Safe inside the page's <script> element.
    text = json.dumps(data).replace("<", "\\u003c")
    with open(out, "w") as f:
        f.write(page.replace(DATA_SLOT, text, 1))
    print("wrote %s" % out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--template")
    ap.add_argument("--out", help="the page; by default compare.html beside "
                    "the first run's folder")
    ap.add_argument("runs", nargs="+")
    args = ap.parse_args()

    runs, problems = [], []
    for path in args.runs:
        label, doc, problem = load(path)
        if problem:
            problems.append(problem)
        else:
            runs.append({"label": label, "doc": doc})
    if not runs:
        print("compare: no run could be read", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        return 1
    docs = [r["doc"] for r in runs]
    first = docs[0].get(SCHEMA_VERSION_KEY)
    for r in runs[1:]:
        v = r["doc"].get(SCHEMA_VERSION_KEY)
        if v != first:
            problems.append("%s: schema version %s, the first run's is %s: "
                            "figures shown where they could be read"
                            % (r["label"], v, first))
    units = []
    for r in runs:
        unit = (r["doc"].get("clock") or {}).get("unit", "?")
        r["unit"] = unit
        if unit not in units:
            units.append(unit)
    if len(units) > 1:
        problems.append("the runs are in %d different units, which are "
                        "never compared with each other: %s"
                        % (len(units), "; ".join(
                            "%s (%s)" % (u, ", ".join(
                                "run %d" % (i + 1) for i, r in
                                enumerate(runs) if r["unit"] == u))
                            for u in units)))

    # Two header lines: each run's column, and under it its unit's name,
    # so the unit is beside every figure's column, not in a note below.
    headers = [["source", "scheme"] + ["run %d" % (i + 1)
                                       for i in range(len(runs))],
               ["", ""] + [unit_name(r["unit"]) for r in runs]]
    for i, r in enumerate(runs):
        print("run %d: %s\n       unit: %s" % (i + 1, r["label"], r["unit"]))
    # What cannot be compared, before the table it is about.
    for p in problems:
        print("note: " + p)
    print("each figure: median round trip (entry/exit), in the unit under "
          "its run's name")
    # Long mode's rows, then the i386 rows of the 32-bit phase, which are
    # measured against i386-direct and never compared with long mode's.
    for mode, title in (("long", None),
                        ("protected-32", "the i386 rows, in 32-bit "
                         "protected mode (docs/protected-mode.md)")):
        lines = [[s, sch] + [figure(d, name, sch, s) for d in docs]
                 for s, sch, name in headline_rows(docs, mode)]
        if not lines:
            continue
        if title:
            print("\n" + title)
        print_table(headers, lines)
    print_yours(docs, runs)

    if args.template:
        # Beside the runs it compares, never in the working directory.
        out = args.out or os.path.join(os.path.dirname(os.path.abspath(
            args.runs[0].rstrip("/") if not args.runs[0].endswith(".json")
            else os.path.dirname(args.runs[0]))), "compare.html")
        fill_template(args.template, {"runs": runs, "problems": problems},
                      out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
