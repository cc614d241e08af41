#!/usr/bin/env python3
"""The report pages in a real browser (headless Chromium): report.html
of two boot-test runs (QEMU -cpu max under icount, and -cpu EPYC), and
compare.html over both, made as `make compare` makes it. For each page:
no console errors, no request beyond the page itself, every chart drawn
with data, and every figure cell equal to results.json. Screenshots go
to build/boot-test/screenshots/."""

import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
from checks import Checks  # noqa: E402

BUILD = os.path.join(ROOT, "build")
RUNS = os.path.join(BUILD, "boot-test")
SHOTS = os.path.join(RUNS, "screenshots")
check = Checks("browser")


def run_folder(name):
    folders = sorted(glob.glob(os.path.join(RUNS, name, "results", "2*")))
    return folders[0] if folders else None


def inspect(page, shot):
    env = dict(os.environ, NODE_PATH=os.path.join(BUILD, "web",
                                                  "node_modules"))
    p = subprocess.run(["node", os.path.join(HERE, "inspect.cjs"), page,
                        shot], capture_output=True, text=True, env=env,
                       timeout=120)
    if p.returncode:
        return None, p.stderr[-800:]
    return json.loads(p.stdout.strip().splitlines()[-1]), ""


def signed(v):
    return "+%d" % v if v > 0 else str(v)


def expected_cell(doc, cell):
    """What results.json says a figure cell must read."""
    rows = {e["name"]: e for e in doc["experiments"]}
    over = {a["experiment"]: a for a in doc["against_baseline"]}
    e = rows.get(cell["row"])
    metric = cell.get("metric")
    if e is None:
        return None
    if metric is None:      # compare.html: round trip (entry/exit)
        return "%s (%s/%s)" % tuple(e[k]["median"] for k in
                                    ("round_trip", "entry", "exit"))
    # The long-mode answer leads with core cycles where the counters
    # measured them (docs/timing.md "Core cycles").
    cycles = (cell.get("table") in ("headline", "i386-headline")
              and doc["clock"].get("lead_unit") == "core cycles")
    if metric.endswith("_over"):
        a = over.get(cell["row"])
        key = ("cycles_" if cycles else "") + metric[:-5] + "_median_over"
        return signed(a[key]) if a else None
    if metric.endswith("_above_gate"):
        # The gate's floor (docs/long-mode.md): above_gate's figure.
        above = {a["experiment"]: a for a in doc.get("above_gate", [])}
        a = above.get(cell["row"])
        key = ("cycles_" if cycles else "") + metric[:-11] + "_median_over"
        return signed(a[key]) if a and a.get(key) is not None else ""
    return str((e["cycles"] if cycles else e)[metric]["median"])


def check_page(label, page, docs, min_charts):
    """docs: the results.json each data-run index (or the one run) is."""
    os.makedirs(SHOTS, exist_ok=True)
    shot = os.path.join(SHOTS, label + ".png")
    if os.path.exists(shot):
        os.remove(shot)
    seen, why = inspect(page, shot)
    if not check("%s: opens in headless Chromium" % label, seen is not None,
                 why):
        return
    check("%s: no console errors, no uncaught errors" % label,
          not seen["console_errors"] and not seen["page_errors"],
          str(seen["console_errors"] + seen["page_errors"]))
    check("%s: no network requests: the page is self-contained" % label,
          not seen["requests"], str(seen["requests"][:5]))
    charts = seen["charts"]
    empty = [c["title"] for c in charts
             if not (c["canvas"] and c["points"] > 0 and c["series"] > 0)]
    check("%s: every chart (%d) was given data points and drew them: "
          "pixels in a series' colour on its canvas, not only axes"
          % (label, len(charts)),
          len(charts) >= min_charts and not empty,
          "%d charts; empty: %s" % (len(charts), empty))
    cells = seen["cells"]
    wrong = []
    for c in cells:
        doc = docs[int(c["run"])] if c.get("run") is not None else docs[0]
        want = expected_cell(doc, c)
        if want is None or c["text"] != want:
            wrong.append("%s %s: page %r, results.json %r"
                         % (c["row"], c.get("metric"), c["text"], want))
    check("%s: every figure cell (%d) equals results.json" % (label,
                                                             len(cells)),
          len(cells) > 20 and not wrong, "; ".join(wrong[:5]))
    # The i386 rows of the 32-bit phase (docs/protected-mode.md): a table
    # of their own, against i386-direct, and none in long mode's.
    i386 = {e["name"] for e in docs[0]["experiments"]
            if e.get("cpu_mode") == "protected-32" and e["status"] == "ok"
            and not e["variant"] and not e["name"].startswith("selftest-")}
    if len(docs) > 1:
        tables = {}
        for c in cells:
            tables.setdefault(c["table"], set()).add(c["row"])
        both = {e["name"] for d in docs for e in d["experiments"]
                if e.get("cpu_mode") == "protected-32" and not e["variant"]
                and not e["name"].startswith("selftest-")}
        check("%s: the runs' i386 rows (%d) have their own table, and long "
              "mode's has none of them" % (label, len(both)),
              both and tables.get("compare-i386-table", set()) <= both
              and tables.get("compare-i386-table")
              and not both & tables.get("compare-table", set()),
              str(sorted(tables))[:300])
    if len(docs) == 1 and i386:
        tables = {}
        for c in cells:
            tables.setdefault(c["table"], set()).add(c["row"])
        check("%s: the i386 rows (%d) have their own table, and long mode's "
              "has none of them" % (label, len(i386)),
              tables.get("i386-headline") == i386
              and not i386 & tables.get("headline", set()),
              str(sorted(tables.get("i386-headline", set())))[:300])
    if label == "icount-a-report":
        # The full matrix under -icount: every distribution one bucket.
        check("%s: a page a person reads top-down: a contents list of its "
              "sections, and under %d px tall (single-bucket distributions "
              "are a table, not charts)" % (label, REPORT_HEIGHT_BOUND),
              seen.get("contents", 0) >= 8
              and seen.get("height", 1 << 30) < REPORT_HEIGHT_BOUND,
              "%s contents, %s px" % (seen.get("contents"),
                                      seen.get("height")))
    check("%s: screenshot saved (%s)" % (label, os.path.relpath(shot, ROOT)),
          os.path.exists(shot) and os.path.getsize(shot) > 10000)


# The icount run's report page, every row of the matrix on it: the
# bound it must stay under (it was 24,700 px with a chart per single-bucket
# distribution).
REPORT_HEIGHT_BOUND = 17000

# How many checks the suite counts under CI (tests/checks.py).
CHECKS_UNDER_CI = 41


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
    docs = []
    for folder in runs:
        with open(os.path.join(folder, "results.json")) as f:
            docs.append(json.load(f))
    out = os.path.join(RUNS, "compare-selections.html")
    p = subprocess.run(["make", "--no-print-directory", "-C", ROOT, "compare",
                        "RUNS=" + " ".join(runs), "OUT=" + out],
                       capture_output=True, text=True)
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


def cross_cpu_page():
    """The report page of the -smp 4 run (boot test cross-cpu): the
    heatmap has a cell per ordered pair of its 4 CPUs, each the pair's
    ipi-ack median and relation as results.json has them, coloured by
    value (not all one colour)."""
    opened = boot_report("cross-cpu", "cross-cpu-report")
    if not opened:
        return
    doc, seen = opened
    pairs = {(r["sender"], r["target"]): r for r in doc["cross_cpu"]["rows"]
             if r["kind"] == "ipi-ack" and r["status"] == "ok"}
    wrong = [c for c in seen["heat"]
             if (c["sender"], c["target"]) not in pairs
             or c["text"] != str(pairs[(c["sender"], c["target"])]["time"]
                                 ["median"])
             or c["relation"] != pairs[(c["sender"], c["target"])]
             ["relation"]]
    check("cross-cpu-report: the heatmap has a cell for each of the 12 "
          "ordered pairs of 4 CPUs, each its ipi-ack median and relation "
          "from results.json, in more than one colour, with no page error",
          len(seen["heat"]) == 12 and len(pairs) == 12 and not wrong
          and len({c["background"] for c in seen["heat"]}) > 1
          and not seen["page_errors"] and not seen["console_errors"],
          "%d cells, %d pairs, wrong %s, errors %s" % (
              len(seen["heat"]), len(pairs), wrong[:3],
              seen["page_errors"] + seen["console_errors"]))


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


def main():
    check.guarded("the browser tests", pages)
    check.guarded("the browser tests, the cross-CPU heatmap", cross_cpu_page)
    check.guarded("the browser tests, the rows on other processors",
                  other_cpus_page)
    check.guarded("the browser tests, core cycles", cycles_page)
    check.guarded("the browser tests, a compare of two selections",
                  compare_selections)
    return check.finish(CHECKS_UNDER_CI)


if __name__ == "__main__":
    sys.exit(main())
