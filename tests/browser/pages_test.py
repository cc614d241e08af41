#!/usr/bin/env python3
"""The report pages in a real browser (headless Chromium): report.html
of two boot-test runs (QEMU -cpu max under icount, and -cpu EPYC), and
compare.html over both, made as `make compare` makes it. For each page:
no console errors, no request beyond the page itself, every chart drawn
with data, and every figure cell equal to results.json, the figures of
the distributions' one-bucket table too. Every chart names its unit, on
an axis and in full, and no label on it (ticks, axis titles, legend,
bar labels, title) is cut by its canvas or the page, or overlaps another:
the boxes measured where the page drew them. Made-up runs cover what the
boot tests' runs lack: histograms of the rows between CPUs, a compare
across units. Screenshots go to build/boot-test/screenshots/."""

import json
import os
import re
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from matrix_places import relation_of  # noqa: E402
from page_checks import (  # noqa: E402
    BUILD, RUNS, SHOTS, check, run_folder, inspect, signed,
    expected_cell, check_labels, legend_runs, check_gap_labels,
    check_charts, check_page)


# How many checks the suite counts under CI (tests/checks.py), and with
# --long, the pages of make test-long's runs (docs/testing.md).
CHECKS_UNDER_CI = 96
CHECKS_LONG = 12


def pages():
    runs = [(name, run_folder(name)) for name in ("icount-a", "cpu-EPYC")]
    docs = []
    for name, folder in runs:
        if not check("%s: the boot tests left a results folder" % name,
                     folder is not None):
            return
        with open(os.path.join(folder, "results.json")) as f:
            doc = json.load(f)
        docs.append(doc)
        page = os.path.join(folder, "report.html")
        if check("%s: phase C wrote report.html beside results.json" % name,
                 os.path.exists(page)):
            check_page(name + "-report", page, [doc], 4)

    out = os.path.join(RUNS, "compare.html")
    p = subprocess.run(["make", "--no-print-directory", "-C", ROOT, "compare",
                        "RUNS=" + " ".join(f for _, f in runs), "OUT=" + out],
                       capture_output=True, text=True)
    table = p.stdout
    check("make compare: a table with a column per run, and compare.html",
          p.returncode == 0 and "run 1" in table and "run 2" in table
          and os.path.exists(out)
          and re.search(r"^int\s+direct\s+\d+ \(\d+/\d+\)\s+\d+ \(\d+/\d+\)",
                        table, re.M),
          p.stdout[-600:] + p.stderr[-600:])
    check("make compare: the runs' different CPUs are named, one unit",
          "QEMU TCG CPU" in table and "AMD EPYC" in table
          and "different units" not in table, table[:600])
    if os.path.exists(out):
        check_page("compare", out, docs, 2)


def compare_selections():
    """make compare of two runs that chose different schemes, the one
    with fewer last: the table holds every row of both, a row a run did
    not choose reads "not selected", never "missing"; each source's chart
    draws every scheme of both runs (the union), the i386 rows too."""
    runs = [run_folder(n) for n in ("cpu-EPYC", "selection")]
    if not check("compare-selections: cpu-EPYC and selection left results "
                 "folders", all(runs)):
        return
    docs, out, p = make_compare(runs, "compare-selections")
    check("compare-selections: rows the second run did not choose read "
          "'not selected', none 'missing'",
          p.returncode == 0 and "not selected" in p.stdout
          and "missing" not in p.stdout, p.stdout[-800:] + p.stderr[-300:])
    seen, why = inspect(out, os.path.join(SHOTS, "compare-selections.png"))
    if not check("compare-selections: opens in headless Chromium",
                 seen is not None, why):
        return
    plain = [(i, e) for i, d in enumerate(docs) for e in d["experiments"]
             if e["status"] == "ok" and not e["variant"]
             and not e["name"].startswith("selftest-")]
    cells = {(int(c["run"]), c["row"]) for c in seen["cells"]
             if c.get("run") is not None}
    lost = [(i, e["name"]) for i, e in plain if (i, e["name"]) not in cells]
    int_bars = sum(1 for _, e in plain if e["source"] == "int"
                   and e["cpu_mode"] == "long")
    chart = [c for c in seen["charts"] if c["title"] == "int"]
    check("compare-selections: every plain row of both runs (%d) has its "
          "cell, and the int chart draws every scheme either run has (%d "
          "bars), i386 charts too" % (len(plain), int_bars),
          not lost and chart and chart[0]["points"] == int_bars
          and any(c["title"].endswith("(i386)") for c in seen["charts"]),
          "%s %s" % (lost[:5], [(c["title"], c["points"])
                                for c in seen["charts"]][:8]))
    # The second run chose fewer schemes: its gaps are "not selected".
    check_labels("compare-selections", seen)
    check_gap_labels("compare-selections", seen, docs, ("not selected",))


def with_core_cycles(doc):
    """A run as one whose counters measured core cycles would report it:
    each ok row given cycle figures (3 x its TSC figure + 7, a
    made-up value the page must carry over, not a measurement) and their
    overheads, and the clock leading with core cycles."""
    doc = json.loads(json.dumps(doc))
    rows = {}
    for e in doc["experiments"]:
        if e["status"] == "ok":
            e["cycles"] = {"state": "measured", **{
                k: {"median": 3 * e[k]["median"] + 7}
                for k in ("entry", "exit", "round_trip", "round_trip_timed")}}
            rows[e["name"]] = e
    for a in doc["against_baseline"]:
        e, b = rows.get(a["experiment"]), rows.get(a["baseline"])
        for k in ("entry", "exit", "round_trip", "round_trip_timed"):
            a["cycles_%s_median_over" % k] = (
                e["cycles"][k]["median"] - b["cycles"][k]["median"]
                if e and b else None)
    doc["clock"]["lead_unit"] = "core cycles"
    doc["clock"]["cycles"] = {"state": "measured", "counters": "made up"}
    return doc


def cycles_page():
    """The report page of a run whose counters measured core cycles (a
    results.json made so from icount-a's): the answer table's cells are
    the rows' core cycles and their overheads, and it says so."""
    folder = run_folder("icount-a")
    if not check("cycles-report: icount-a left a results folder",
                 folder is not None):
        return
    with open(os.path.join(folder, "results.json")) as f:
        doc = with_core_cycles(json.load(f))
    with open(os.path.join(BUILD, "report-template.html")) as f:
        template = f.read()
    page = os.path.join(RUNS, "cycles-report.html")
    with open(page, "w") as f:
        f.write(template.replace("IRQLAB_RESULTS_JSON", json.dumps(doc), 1))
    seen, why = inspect(page, os.path.join(SHOTS, "cycles-report.png"))
    if not check("cycles-report: opens in headless Chromium",
                 seen is not None, why):
        return
    cells = [c for c in seen["cells"]
             if c["table"] in ("headline", "i386-headline")]
    wrong = [(c["row"], c.get("metric"), c["text"], expected_cell(doc, c))
             for c in cells if c["text"] != expected_cell(doc, c)]
    check("cycles-report: the answer tables' cells (%d, long mode's and "
          "i386's) are each row's core cycles and their overheads over its "
          "baseline, as results.json has them" % len(cells),
          len(cells) > 20 and not wrong
          and any(c["table"] == "i386-headline" for c in cells),
          str(wrong[:4]))


def boot_report(run, label):
    """The report page a boot test left, opened in headless Chromium:
    (results.json as parsed, what inspect.cjs saw), or None after the
    check that failed."""
    folder = run_folder(run)
    if not check("%s: the %s boot test left a results folder" % (label, run),
                 folder is not None):
        return None
    with open(os.path.join(folder, "results.json")) as f:
        doc = json.load(f)
    seen, why = inspect(os.path.join(folder, "report.html"),
                        os.path.join(SHOTS, label + ".png"))
    if not check("%s: opens in headless Chromium" % label,
                 seen is not None, why):
        return None
    return doc, seen


def fill_template(name, doc):
    """A report page made as phase C makes it, from a results.json made
    up here: the template with the document in its data slot."""
    with open(os.path.join(BUILD, "report-template.html")) as f:
        template = f.read()
    page = os.path.join(RUNS, name + ".html")
    with open(page, "w") as f:
        f.write(template.replace("IRQLAB_RESULTS_JSON", json.dumps(doc)
                                 .replace("<", "\\u003c"), 1))
    return page


def with_histograms(doc):
    """A run as one that kept histograms would report it: each ok row
    given, for round trip, entry and exit, a bucket about 3% wide at each
    of its percentiles (min .. max; the counts made up), so that its
    charts span what its figures span: under plain TCG a cross-CPU row's
    run from thousands of ticks to tens of millions."""
    doc = json.loads(json.dumps(doc))
    for e in doc["experiments"]:
        if e["status"] != "ok":
            continue
        e["histograms"] = {}
        for key in ("round_trip", "entry", "exit"):
            bins = []
            for i, p in enumerate(("min", "p1", "median", "p90", "p99",
                                   "p99.9", "max")):
                v = e[key][p]
                if not bins or v > bins[-1][1]:
                    bins.append([v, v + v // 32, 50 if p == "median" else 5])
            e["histograms"][key] = bins
    return doc


def cross_cpu_histograms_page():
    """The -smp 4 run's report page (boot test cross-cpu), its rows given
    histograms as a run that kept them would have: every histogram,
    the rows between CPUs too, has values on its x axis, and no label
    is cut or over another."""
    folder = run_folder("cross-cpu")
    if not check("cross-cpu-histograms: the cross-cpu boot test left a "
                 "results folder", folder is not None):
        return
    with open(os.path.join(folder, "results.json")) as f:
        doc = with_histograms(json.load(f))
    page = fill_template("cross-cpu-histograms", doc)
    seen, why = inspect(page, os.path.join(SHOTS, "cross-cpu-histograms.png"))
    if not check("cross-cpu-histograms: opens in headless Chromium",
                 seen is not None, why):
        return
    between = {c["title"] for c in seen["charts"]
               if c["kind"] == "histogram" and c["title"].startswith("ipi-cpu")}
    check("cross-cpu-histograms: the rows between CPUs have histograms "
          "drawn, with no page error",
          between and not seen["page_errors"] and not seen["console_errors"],
          "%s %s" % (sorted(between)[:4], seen["page_errors"]))
    check_charts("cross-cpu-histograms", seen, [doc])


# A unit as long as any run's: the coarse Bochs clock's (docs/timing.md),
# whose whole sentence on an axis was cut.
LONG_UNIT = ("emulator TSC ticks that do not count each instruction (Bochs "
             "with handler chaining advances them where a chain of traces "
             "ends): round trips come near the path length, entry and exit "
             "do not; never cycles")


def make_compare(runs, name):
    """make compare of the run folders into build/boot-test/NAME.html:
    their results.json, the page's path, and make's completed process."""
    docs = []
    for folder in runs:
        with open(os.path.join(folder, "results.json")) as f:
            docs.append(json.load(f))
    out = os.path.join(RUNS, name + ".html")
    p = subprocess.run(["make", "--no-print-directory", "-C", ROOT, "compare",
                        "RUNS=" + " ".join(runs), "OUT=" + out],
                       capture_output=True, text=True)
    return docs, out, p


def compare_text_cells(lines, docs):
    """What is wrong with make compare's text tables (long mode's, then
    the i386 rows'): each row of either run once, each cell that run's
    median round trip (entry/exit) from its results.json, its status
    where it did not end ok, or missing/not selected where the run has
    no such row. A list of what differs, empty when all agree."""
    wrong, tables = [], []
    for i, line in enumerate(lines):
        if line.startswith("source ") and i + 1 < len(lines):
            rows = []
            for row in lines[i + 2:]:
                # The table ends at a blank line, or at the line saying
                # where the page was written.
                if not row.strip() or row.startswith("wrote "):
                    break
                rows.append(re.split(r"\s{2,}", row.strip()))
            tables.append(rows)
    for mode, rows in zip(("long", "protected-32"), tables):
        # A line per experiment, in the first run's order and then the
        # others', labelled by the first run that has it: its source
        # (with @x2apic in that mode) and scheme; a cell per run.
        order, label, cells = [], {}, {}
        for k, doc in enumerate(docs):
            for e in doc["experiments"]:
                if e.get("variant") or e["name"].startswith("selftest-") \
                        or e.get("cpu_mode", "long") != mode:
                    continue
                if e["name"] not in label:
                    order.append(e["name"])
                    label[e["name"]] = [e["source"] + (
                        "@x2apic" if e.get("apic_mode") == "x2apic"
                        else ""), e["scheme"]]
                    cells[e["name"]] = [None] * len(docs)
                cells[e["name"]][k] = (
                    "%d (%d/%d)" % tuple(e[m]["median"] for m in (
                        "round_trip", "entry", "exit"))
                    if e["status"] == "ok" else e["status"])
        if len(rows) != len(order):
            wrong.append("%s: %d lines, %d rows in results.json"
                         % (mode, len(rows), len(order)))
        for name, row in zip(order, rows):
            want = label[name] + cells[name]
            if len(row) != len(want) or row[:2] != want[:2] or any(
                    h != c if c is not None
                    else h not in ("missing", "not selected")
                    for h, c in zip(row[2:], want[2:])):
                wrong.append("%s %s: table %s, results.json %s"
                             % (mode, name, row, want))
    if len(tables) < 2:
        wrong.append("%d tables, not long mode's and the i386 rows'"
                     % len(tables))
    return wrong


def compare_units():
    """make compare of two runs in different units (icount-a's, and
    cpu-EPYC's given the coarse Bochs clock's long unit): the text table
    names each run's unit under its column, and says the units differ
    before the table; the page's charts each name their unit, none cut
    or overlapping."""
    runs = [run_folder(n) for n in ("icount-a", "cpu-EPYC")]
    if not check("compare-units: icount-a and cpu-EPYC left results folders",
                 all(runs)):
        return
    docs = []
    for folder in runs:
        with open(os.path.join(folder, "results.json")) as f:
            docs.append(json.load(f))
    docs[1]["clock"].update(kind="emulator-coarse", unit=LONG_UNIT,
                            figures_are_tsc_ticks=False)
    other = os.path.join(RUNS, "compare-units", "coarse")
    os.makedirs(other, exist_ok=True)
    with open(os.path.join(other, "results.json"), "w") as f:
        json.dump(docs[1], f)
    out = os.path.join(RUNS, "compare-units.html")
    p = subprocess.run(["make", "--no-print-directory", "-C", ROOT, "compare",
                        "RUNS=" + " ".join([runs[0], other]), "OUT=" + out],
                       capture_output=True, text=True)
    lines = p.stdout.splitlines()
    header = next((i for i, l in enumerate(lines)
                   if l.startswith("source ")), None)
    units = (re.split(r"\s{2,}", lines[header + 1].strip())
             if header is not None and header + 1 < len(lines) else [])
    note = next((i for i, l in enumerate(lines)
                 if l.startswith("note: ") and "different units" in l), None)
    check("compare-units: the text table names each run's unit under its "
          "column, and the note that the units differ comes before it",
          p.returncode == 0 and units == ["instructions",
                                          "emulator TSC ticks"]
          and note is not None and note < header,
          "units %s, note at %s, table at %s: %s" % (
              units, note, header, (p.stdout[:600] + p.stderr[-300:])))
    wrong = compare_text_cells(lines, docs)
    check("compare-units: every cell of make compare's text tables, long "
          "mode's and the i386 rows', is its run's median round trip "
          "(entry/exit) from its results.json, or its status, for each "
          "row of either run once and no other",
          p.returncode == 0 and not wrong, "; ".join(wrong[:4]))
    seen, why = inspect(out, os.path.join(SHOTS, "compare-units.png"))
    if not check("compare-units: opens in headless Chromium",
                 seen is not None, why):
        return
    drawn = {docs[i]["clock"]["unit"] for c in seen["charts"]
             for i in legend_runs(c)}
    check("compare-units: each unit's runs are charted, never together",
          len(drawn) == 2 and all(len({docs[i]["clock"]["unit"] for i in
                                       legend_runs(c)}) == 1
                                  for c in seen["charts"]),
          str([(c["title"], c["legend"]) for c in seen["charts"]][:6]))
    check_charts("compare-units", seen, docs)


def cross_cpu_page():
    """The report page of the -smp 4 run (boot test cross-cpu): the
    heatmap has a cell per ordered pair of its 4 CPUs, each the pair's
    ipi-ack median and relation as results.json has them, coloured by
    value (not all one colour)."""
    opened = boot_report("cross-cpu", "cross-cpu-report")
    if not opened:
        return
    doc, seen = opened
    m = doc["cross_cpu"]["matrix"]
    cells = [dict(zip(m["columns"], c)) for c in m["cells"]]
    pairs = {(c["sender"], c["target"]): c for c in cells
             if isinstance(c["ipi-ack"], int)}
    wrong = [c for c in seen["heat"]
             if (c["sender"], c["target"]) not in pairs
             or c["text"] != str(pairs[(c["sender"], c["target"])]
                                 ["ipi-ack"])
             or c["relation"] != pairs[(c["sender"], c["target"])]
             ["relation"]]
    check("cross-cpu-report: the heatmap has a cell for each of the 12 "
          "ordered pairs of 4 CPUs, each its ipi-ack median and relation "
          "from results.json's matrix, in more than one colour, with no "
          "page error",
          len(seen["heat"]) == 12 and len(pairs) == 12 and not wrong
          and len({c["background"] for c in seen["heat"]}) > 1
          and not seen["page_errors"] and not seen["console_errors"],
          "%d cells, %d pairs, wrong %s, errors %s" % (
              len(seen["heat"]), len(pairs), wrong[:3],
              seen["page_errors"] + seen["console_errors"]))
    # Its config ran direct alone: nothing over direct to chart.
    note = seen["notes"].get("s-overheads-against-direct", "")
    check("cross-cpu-report: with direct the only scheme, the overheads "
          "section draws no chart and says there is nothing to chart",
          "nothing to chart" in note and not any(
              c["title"].endswith(": over direct") for c in seen["charts"]),
          repr(note))


def wide_matrix_page(run, label, full, past):
    """The report page of a matrix past 64 processors (wide_matrix)."""
    opened = boot_report(run, label)
    if opened:
        wide_matrix(label, *opened, full, past)


def wide_matrix(label, doc, seen, full, past):
    """The heatmap has a cell for each ordered pair of the full matrix's
    `full` processors, each with its pair's relation from results.json,
    and stays within the page's width; the table under it has a line
    for each of the `past` processors past the full matrix, with the
    pairs results.json gives it."""
    m = doc["cross_cpu"]["matrix"]
    cells = [dict(zip(m["columns"], c)) for c in m["cells"]]
    ids = {c["apic_id"] for c in m["cpus"] if c.get("full")}
    pairs = {(c["sender"], c["target"]): c for c in cells
             if c["sender"] in ids and c["target"] in ids
             and isinstance(c["ipi-ack"], int)}
    wrong = [c for c in seen["heat"]
             if (c["sender"], c["target"]) not in pairs
             or c["relation"] != pairs[(c["sender"], c["target"])]
             ["relation"]]
    box = seen.get("heat_box")
    check("%s: the heatmap has a cell for each of the %d ordered pairs of "
          "the full matrix's %d processors, each with its relation from "
          "results.json, and is no wider than the page (%s px)"
          % (label, full * (full - 1), full, seen["page_width"]),
          len(seen["heat"]) == full * (full - 1) == len(pairs)
          and not wrong and box is not None
          and box[2] - box[0] <= seen["page_width"]
          and not seen["page_errors"] and not seen["console_errors"],
          "%d cells, %d pairs, wrong %s, box %s, errors %s" % (
              len(seen["heat"]), len(pairs), wrong[:3], box,
              seen["page_errors"] + seen["console_errors"]))
    lines = {int(r[0]): r[1] for r in seen.get("past_full", [])}
    want = {c["apic_id"]: sum(1 for x in cells
                              if x["sender"] == c["apic_id"])
            for c in m["cpus"] if not c.get("full")}
    short = [a for a, n in want.items()
             if a not in lines or lines[a].count(": ") != n]
    check("%s: the table past the full matrix has a line for each of its "
          "%d processors, each naming as many pairs as it sent in "
          "results.json" % (label, past),
          len(lines) == len(want) == past and not short,
          "%d lines, %d processors past it, short %s" % (
              len(lines), len(want), short[:4]))


def matrix_past_64_page():
    """-smp 128: 64 in the full matrix, 64 past it."""
    wide_matrix_page("matrix-past-64", "matrix-past-64-report", 64, 64)


def matrix_of_128_page():
    """cpus = all's largest full matrix, 128 x 128, as phase C would
    write its page: matrix-past-64's results.json with all 128 of its
    processors in the full matrix and a made-up median for each of the
    16,256 pairs, each pair's relation as its two processors stand."""
    folder = run_folder("matrix-past-64")
    if not check("matrix-of-128-report: the matrix-past-64 boot test left "
                 "a results folder", folder is not None):
        return
    with open(os.path.join(folder, "results.json")) as f:
        doc = json.load(f)
    m = doc["cross_cpu"]["matrix"]
    col = {name: k for k, name in enumerate(m["columns"])}
    where = {c["apic_id"]: c for c in m["cpus"]}
    relation = relation_of(m["cpus"])
    model = m["cells"][0]

    cells = []
    for a in where:
        for b in where:
            if a != b:
                c = list(model)
                c[col["sender"]], c[col["target"]] = a, b
                c[col["relation"]] = relation(a, b)
                c[col["ipi-ack"]] = 20000 + (a * 7919 + b * 104729) % 180000
                cells.append(c)
    for c in m["cpus"]:
        c["full"] = True
    m["cells"] = cells
    seen, why = inspect(fill_template("matrix-of-128", doc),
                        os.path.join(SHOTS, "matrix-of-128-report.png"))
    if check("matrix-of-128-report: opens in headless Chromium",
             seen is not None, why):
        wide_matrix("matrix-of-128-report", doc, seen, 128, 0)


def matrix_all_72_page():
    """-smp 72 with cpus = all: all 72 in the full matrix, in the
    smallest cells, none past it."""
    wide_matrix_page("matrix-in-parts", "matrix-in-parts-report", 72, 0)


def other_cpus_page():
    """The report page of the run that took CPU 1 into the boot CPU's
    place under -icount (boot test matrix-on-cpu1-icount): its table of
    rows on other processors has a line for each row results.json sets
    beside the boot CPU's, with its CPU, core type and the three
    differences results.json gives, and the page has no error."""
    opened = boot_report("matrix-on-cpu1-icount", "other-cpus-report")
    if not opened:
        return
    doc, seen = opened
    want = [[r["row"], str(r["cpu"]), r["core_type"],
             r.get("boot_core_type", ""),
             *(str(r[k]) if k in r else "" for k in
               ("entry_over_boot", "exit_over_boot", "round_trip_over_boot"))]
            for r in doc["matrix_on_other_cpus"]]
    got = [line[:7] for line in seen["other_cpus"]]
    check("other-cpus-report: the table of rows on other processors has "
          "each of results.json's %d lines: row, CPU, core types and the "
          "entry, exit and round-trip differences, with no page error"
          % len(want),
          len(want) >= 15 and got == want and not seen["page_errors"]
          and not seen["console_errors"],
          "%d lines, first differing %s, errors %s" % (
              len(got), next(((a, b) for a, b in zip(got, want) if a != b),
                             None), seen["page_errors"]
              + seen["console_errors"]))


def signed_words(over, keys=("entry", "exit", "round_trip")):
    """"+5 entry, +4 exit, +9 round trip" of results.json's figures."""
    return ", ".join("%s %s" % (signed(over[k]), k.replace("_", " "))
                     for k in keys)


def report_counts_and_sites():
    """icount-a's report page (QEMU's TCG max: Linux takes nothing there):
    its header gives results.json's row_counts, each count saying what it
    counts; its mitigations' Linux line says "sites only", its figures
    results.json's, and the patched jump sites' cost stands on a line of
    its own (docs/mitigations.md)."""
    opened = boot_report("icount-a", "icount-a-counts")
    if not opened:
        return
    doc, seen = opened
    texts = seen.get("texts", {})
    c = doc["row_counts"]
    counts = texts.get("counts", "")
    want = ["%d ok" % c["experiments"]["ok"],
            "%d skipped" % c["experiments"]["skipped"],
            "%d failed" % c["experiments"]["failed"],
            "of the %d experiment rows" % c["experiments"]["total"],
            "%d gap rows (%d ok" % (c["gap_rows"]["total"],
                                    c["gap_rows"]["ok"]),
            "%d primitives (%d ok" % (c["primitives"]["total"],
                                      c["primitives"]["ok"]),
            "The plan had %d rows, its experiment and gap rows"
            % c["plan_rows"]]
    check("icount-a-counts: the report's header gives results.json's "
          "row_counts, each count with what it counts, and no notice of "
          "rows never measured on a whole run",
          all(w in counts for w in want) and not c["missing"]
          and "missing-rows" not in texts,
          "%s; wanted %s" % (counts, [w for w in want if w not in counts]))
    linux = doc["mitigations"]["linux"] or {}
    off = not any(d["per_interrupt"] for d in doc["mitigations"]["decisions"])
    line, sites = texts.get("linux-set", ""), texts.get("linux-sites", "")
    cost = (linux.get("sites") or {}).get("cost") or {}
    check("icount-a-counts: every decision off, the mitigations' Linux line "
          "says 'sites only' with results.json's figures, and the patched "
          "jump sites' cost stands on a line of its own",
          off and linux.get("sites_only") is True
          and line.startswith("Linux on this CPU (none: sites only): "
                              + signed_words({k: linux.get(k + "_median_over")
                                              for k in ("entry", "exit",
                                                        "round_trip")}))
          and sites.startswith("Sites only: every decision is off")
          and cost and signed_words(cost) in sites,
          "decisions off %s; %r; %r; %s" % (off, line, sites, cost))


def your_entry_page():
    """The your-entry run's report page (docs/your-entry.md): its section
    "Your entry code" comes before the answer, and each file's table has
    a row per row of results.json's yours, each overhead over direct
    reading results.json's figure."""
    opened = boot_report("your-entry", "your-entry-page")
    if not opened:
        return
    doc, seen = opened
    order = list(seen.get("notes", {}))
    check("your-entry-page: the section 'Your entry code' comes first, "
          "before the answer",
          "s-your-entry-code" in order and "s-the-answer" in order and
          order.index("s-your-entry-code") < order.index("s-the-answer"),
          order[:4])
    cells = {(c["table"], c["row"], c["metric"]): c["text"]
             for c in seen.get("cells", [])}
    want, wrong = 0, []
    for f in doc.get("yours", []):
        for r in f["rows"]:
            for k in ("round_trip", "entry", "exit"):
                key = ("yours-table-" + f["name"], r["experiment"],
                       k + "_over_direct")
                if r["status"] != "ok":
                    continue
                want += 1
                figure = r["over_direct"][k + "_median_over"]
                if cells.get(key) != signed(figure):
                    wrong.append((key, cells.get(key), figure))
    check("your-entry-page: each file's table shows each of its ok rows' "
          "entry, exit and round trip over direct as results.json's yours "
          "has them (%d cells)" % want,
          want >= 3 * 3 * 7 and not wrong, wrong[:5])


def your_entry_compare():
    """make compare of the your-entry run and the your-entry-faults run,
    which share one file (nops-3-2.S): its table sets both runs' rows
    side by side, each cell the run's figure and its round trip over the
    run's direct row as results.json has them; the text says run 2's is
    the same file, and a file only one run measured reads 'not in this
    run' in the other's column."""
    runs = [run_folder(n) for n in ("your-entry", "your-entry-faults")]
    if not check("your-entry-compare: the your-entry and your-entry-faults "
                 "boot tests left results folders", all(runs)):
        return
    docs, out, p = make_compare(runs, "your-entry-compare")
    text = p.stdout
    shared = text[text.find("yours: nops-3-2"):]
    check("your-entry-compare: the text has a table for nops-3-2 saying "
          "run 2's file is the same (SHA-256), and linux-6.12-user's rows "
          "read 'not in this run' for run 2",
          p.returncode == 0 and "\n  run 2: the same file\n" in shared
          and re.search(r"^int-direct\+yours-linux-6\.12-user .*\S  +not "
                        r"in this run$", text, re.M) is not None,
          text[-1500:] + p.stderr[-300:])
    seen, why = inspect(out, os.path.join(SHOTS, "your-entry-compare.png"))
    if not check("your-entry-compare: opens in headless Chromium",
                 seen is not None, why):
        return
    cells = {(c["table"], c["run"], c["row"]): c["text"]
             for c in seen.get("cells", [])}
    want, wrong = 0, []
    for i, doc in enumerate(docs):
        rows = {e["name"]: e for e in doc["experiments"]}
        f = next(f for f in doc["yours"] if f["name"] == "nops-3-2")
        for r in f["rows"]:
            e = rows.get(r["experiment"])
            want += 1
            if r["status"] != "ok" or not e or not r.get("over_direct"):
                wrong.append((i, r["experiment"], r["status"], "not ok"))
                continue
            text = "%d (%d/%d) %s" % (e["round_trip"]["median"],
                                      e["entry"]["median"],
                                      e["exit"]["median"],
                                      signed(r["over_direct"]
                                             ["round_trip_median_over"]))
            got = cells.get(("compare-yours-table-nops-3-2", str(i),
                             r["experiment"]))
            if got != text:
                wrong.append((i, r["experiment"], got, text))
    check("your-entry-compare: nops-3-2's table shows each run's rows of "
          "the file, each ok and as its run's median round trip "
          "(entry/exit) and round trip over direct (%d cells, both runs)"
          % want,
          want >= 7 + 2 and not wrong, wrong[:4])


def fleet_row_text(values, measured, unselected):
    """A group's cell as docs/lab.md "The collection" states it, from
    fleet.db: the lower middle of the ok round trips, the range where
    they differ, how many of the machines that measured the row had it
    ok, and how many did not select it."""
    if not values:
        return None
    fmt = lambda v: str(int(v)) if float(v).is_integer() else "%.1f" % v
    mid = sorted(values)[(len(values) - 1) // 2]
    spread = ("" if min(values) == max(values) else
              " [%s..%s]" % (fmt(min(values)), fmt(max(values))))
    return "%s%s, %d of %d ok%s" % (
        fmt(mid), spread, len(values), measured,
        ", %d not selected" % unselected if unselected else "")


def fleet_value(doc, topic, row):
    """A row in one run, read from its results.json as docs/lab.md "The
    collection" says each topic's rows are made (not from fleet.db, which
    the code under test writes): (whether the run has the row, its ok
    figure or None)."""
    def median(v):
        return v.get("median") if isinstance(v, dict) else None
    if topic in ("schemes", "i386", "variants", "caches", "mitigations"):
        e = next((x for x in doc["experiments"] if x["name"] == row), None)
        return e is not None, median(e["round_trip"]) \
            if e and e["status"] == "ok" else None
    if topic == "other-cpus":
        r = next((x for x in doc.get("matrix_on_other_cpus") or []
                  if "%s on CPU %s" % (x["row"], x["cpu"]) == row), None)
        return r is not None, r.get("round_trip_over_boot") \
            if r and r.get("status") == "ok" else None
    if topic == "between-cpus":
        for kind, relations in ((doc.get("cross_cpu") or {}).get(
                "by_relation") or {}).items():
            for relation, v in relations.items():
                if "%s %s" % (kind, relation) == row:
                    return True, v.get("median")
        return False, None
    if topic == "primitives":
        r = next((x for x in (doc.get("primitives") or {}).get("rows") or []
                  if x["name"] == row), None)
        return r is not None, median(r.get("block")) \
            if r and r["status"] == "ok" else None
    raise ValueError("a topic docs/lab.md does not name: %s" % topic)


def fleet_of_50():
    """make fleet over 50 machines, made from icount-a's and cpu-EPYC's
    runs: 20 of each CPU model in their own units, 10 of them renamed
    to a third model, int-direct moved by each machine's index so that
    groups have ranges, and 10 machines with an earlier, different run.
    fleet.db holds all 60 runs; the page opens in Chromium, fits the
    window with its groups closed, and every group cell of every topic
    equals what fleet.db's latest runs give, every machine cell of the
    schemes equals its results.json."""
    sources = [run_folder(n) for n in ("icount-a", "cpu-EPYC")]
    if not check("fleet-50: icount-a and cpu-EPYC left results folders",
                 all(sources)):
        return
    bases = []
    for folder in sources:
        with open(os.path.join(folder, "results.json")) as f:
            bases.append(json.load(f))
    top = os.path.join(RUNS, "fleet-50")
    subprocess.run(["rm", "-rf", top], check=True)
    docs = {}
    for i in range(50):
        machine = "m%02d" % i
        for again in ((0, 1) if i < 10 else (1,)):
            doc = json.loads(json.dumps(bases[i % 2]))
            if i >= 40:
                doc["machine"]["brand"] = "Made-up CPU for the fleet test"
            for e in doc["experiments"]:
                if e["name"] == "int-direct" and e["status"] == "ok":
                    e["round_trip"]["median"] += i % 7 + (0 if again
                                                          else 100)
            doc["run_id"] = "2026120%d-120000" % (4 + again)
            folder = os.path.join(top, "runs", machine, doc["run_id"])
            os.makedirs(folder)
            with open(os.path.join(folder, "results.json"), "w") as f:
                json.dump(doc, f)
            if again:
                docs[machine] = doc
    p = subprocess.run(["make", "-s", "--no-print-directory", "-C", ROOT,
                        "fleet", "DIR=" + top], capture_output=True,
                       text=True)
    check("fleet-50: make fleet reads 50 machines' 60 runs and writes "
          "fleet.db and fleet.html",
          p.returncode == 0 and p.stdout.startswith(
              "50 machine(s), 60 run(s)") and os.path.exists(
                  os.path.join(top, "fleet.html")),
          (p.stdout[:400] + p.stderr[-400:]))
    if p.returncode:
        return
    db = sqlite3.connect(os.path.join(top, "fleet.db"))
    counts = db.execute("SELECT COUNT(DISTINCT machine), COUNT(*) FROM runs"
                        ).fetchone()
    per_run = dict(((m, r), n) for m, r, n in db.execute(
        "SELECT machine, run, COUNT(*) FROM rows WHERE topic IN ('schemes',"
        " 'i386', 'variants', 'caches', 'mitigations') GROUP BY 1, 2"))
    want_rows = {m: len([e for e in d["experiments"]
                         if not e["name"].startswith("selftest-")])
                 for m, d in docs.items()}
    check("fleet-50: fleet.db holds 60 runs of 50 machines, each run with "
          "one row per experiment of its results.json",
          counts == (50, 60) and len(per_run) == 60 and all(
              n == want_rows[m] for (m, _), n in per_run.items()),
          str((counts, len(per_run))))
    seen, why = inspect(os.path.join(top, "fleet.html"),
                        os.path.join(SHOTS, "fleet-50.png"))
    if not check("fleet-50: fleet.html opens in headless Chromium with no "
                 "error and no request beyond itself",
                 seen is not None and not seen["console_errors"] and
                 not seen["page_errors"] and not seen["requests"], why or
                 str(seen and (seen["console_errors"], seen["page_errors"],
                               seen["requests"]))):
        return
    check("fleet-50: its title counts 50 machines and 60 runs, and with "
          "the groups closed it is no wider than the window",
          seen["title"] == "irqlab: 50 machines, 60 runs" and
          seen["page_width"] == 1200, str((seen["title"],
                                           seen["page_width"])))
    # Each machine's latest run, and its group: CPU model and unit, from
    # the results.json files the fleet was made of.
    group_of = {m: (d["machine"]["brand"], d["clock"]["unit"])
                for m, d in docs.items()}
    groups = sorted(set(group_of.values()))
    member = {m: groups.index(g) for m, g in group_of.items()}
    wrong, compared = [], 0
    by_table = {}
    for c in seen["cells"]:
        by_table.setdefault(c["table"], []).append(c)
    topics = [t[len("fleet-"):] for t in by_table
              if t.startswith("fleet-") and "-group-" not in t]
    for topic in topics:
        cells = by_table["fleet-" + topic]
        for k, c in enumerate(cells):
            g = k % len(groups)
            machines = [m for m in member if member[m] == g]
            found = [fleet_value(docs[m], topic, c["row"])
                     for m in machines]
            values = [v for _, v in found if v is not None]
            measured = sum(1 for has, _ in found if has)
            want = fleet_row_text(values, measured,
                                  len(machines) - measured)
            compared += 1
            if want is not None and c["text"] != want or \
                    want is None and c["text"].endswith(" ok"):
                wrong.append((topic, c["row"], g, c["text"], want))
    check("fleet-50: each group cell of every topic is the median machine's "
          "round trip, the range and the count of ok machines of the "
          "machines' latest results.json files",
          compared > 100 and not wrong
          and {"schemes", "primitives"} <= set(topics), "%d compared: %s" % (compared,
                                                            wrong[:4]))
    wrong, compared = [], 0
    for g in range(len(groups)):
        machines = sorted(m for m in member if member[m] == g)
        cells = by_table.get("fleet-schemes-group-%d" % g, [])
        for k, c in enumerate(cells):
            e = next((x for x in docs[machines[k % len(machines)]][
                "experiments"] if x["name"] == c["row"]), None)
            want = ("not measured" if e is None else e["status"]
                    if e["status"] != "ok" else "%d (%d/%d)" % (
                        e["round_trip"]["median"], e["entry"]["median"],
                        e["exit"]["median"]))
            compared += 1
            if c["text"] != want:
                wrong.append((g, c["row"], c["text"], want))
    check("fleet-50: each machine's cell of the schemes is its latest "
          "results.json's median round trip (entry/exit), or its state",
          compared >= 50 and not wrong, "%d compared: %s" % (compared,
                                                            wrong[:4]))


def long_pages():
    """make test-long's: the pages of its matrices of 72 and 128."""
    check.guarded("the browser tests, the heatmap past 64 processors",
                  matrix_past_64_page)
    check.guarded("the browser tests, the full matrix of 72",
                  matrix_all_72_page)
    check.guarded("the browser tests, the full matrix of 128",
                  matrix_of_128_page)
    return check.finish(CHECKS_LONG)


def main():
    if sys.argv[1:] == ["--long"]:
        return long_pages()
    check.guarded("the browser tests", pages)
    check.guarded("the browser tests, your entry code", your_entry_page)
    check.guarded("the browser tests, your entry code compared",
                  your_entry_compare)
    check.guarded("the browser tests, the cross-CPU heatmap", cross_cpu_page)
    check.guarded("the browser tests, the rows on other processors",
                  other_cpus_page)
    check.guarded("the browser tests, core cycles", cycles_page)
    check.guarded("the browser tests, histograms between CPUs",
                  cross_cpu_histograms_page)
    check.guarded("the browser tests, a compare across units",
                  compare_units)
    check.guarded("the browser tests, a compare of two selections",
                  compare_selections)
    check.guarded("the browser tests, the report's counts and Linux's sites",
                  report_counts_and_sites)
    check.guarded("the browser tests, a fleet of 50 machines", fleet_of_50)
    return check.finish(CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
