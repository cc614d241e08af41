"""What the browser tests check on any page (tests/browser/pages_test.py):
the page's console and requests, each figure cell against results.json,
and each chart's labels, units and ticks, measured where the page drew
them; the runs' folders and the suite's checks."""

import glob
import json
import math
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

# The icount run's report page, every row of the matrix on it: the
# bound it must stay under (it was 24,700 px with a chart per single-bucket
# distribution).
REPORT_HEIGHT_BOUND = 17000


def run_folder(name):
    folders = sorted(glob.glob(os.path.join(RUNS, name, "results", "2*")))
    return folders[0] if folders else None


def inspect(page, shot):
    """The page as headless Chromium shows it (inspect.cjs), its
    screenshot into `shot`, whose folder is made where no page before
    made it: make test-long's pages open first on a build of their own."""
    os.makedirs(os.path.dirname(shot), exist_ok=True)
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


def unit_name(unit):
    """A unit's name, as a chart's axis gives it: its words before any
    bracket or "that" clause ("instructions" of "instructions (QEMU
    -icount path length, not cycles)")."""
    return re.split(r" \(| that ", unit, maxsplit=1)[0]


def corners(text):
    """A text's four corners in page pixels: a canvas text's measured
    (maybe rotated) box, or a laid-out text's rectangle."""
    if "quad" in text:
        return text["quad"]
    x0, y0, x1, y1 = text["box"]
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def overlap(p, q, tolerance=0.5):
    """Whether two convex quadrilaterals share more than `tolerance`
    pixels along every axis their edges give (separating axes)."""
    for poly in (p, q):
        for i in range(4):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % 4]
            nx, ny = y2 - y1, x1 - x2
            norm = math.hypot(nx, ny)
            if norm == 0:
                continue
            a = [(x * nx + y * ny) / norm for x, y in p]
            b = [(x * nx + y * ny) / norm for x, y in q]
            if min(max(a), max(b)) - max(min(a), min(b)) <= tolerance:
                return False
    return True


def inside(quad, box, tolerance=0.5):
    return all(box[0] - tolerance <= x <= box[2] + tolerance
               and box[1] - tolerance <= y <= box[3] + tolerance
               for x, y in quad)


def chart_texts(chart):
    return [t for t in chart["texts"] + chart["dom"] if t["text"].strip()]


def cut_labels(chart, page_width):
    """Each label of the chart that its canvas (a text drawn past the
    canvas is clipped), its box or the page's width cuts."""
    cut = []
    for t in chart_texts(chart):
        quad = corners(t)
        within = chart["canvas_box"] if t["where"] == "canvas" \
            else chart["box"]
        if not within or not inside(quad, within) or not inside(
                quad, [0, -1e9, page_width, 1e9]):
            cut.append("%r at %s" % (t["text"], [[round(x), round(y)]
                                               for x, y in quad[::2]]))
    return cut


def overlapping_labels(chart):
    """Each pair of the chart's labels whose boxes overlap."""
    texts = chart_texts(chart)
    return ["%r and %r" % (a["text"], b["text"])
            for i, a in enumerate(texts) for b in texts[i + 1:]
            if overlap(corners(a), corners(b))]


def numeric(text):
    return re.fullmatch(r"[-+]?[\d,.]+[kMG]?", text.strip()) is not None


def check_labels(label, seen):
    """No chart label cut by its canvas, box or the page, none over
    another: measured from the boxes the page laid out and drew."""
    cut, over = [], []
    for c in seen["charts"]:
        cut += ["%s: %s" % (c["title"], x) for x in
                cut_labels(c, seen["page_width"])]
        over += ["%s: %s" % (c["title"], x) for x in overlapping_labels(c)]
    check("%s: no chart label (tick, axis title, legend, bar label, title) "
          "is cut by its canvas, its box or the page's edge" % label,
          seen["charts"] and not cut, "%d cut: %s" % (len(cut),
                                                      "; ".join(cut[:6])))
    check("%s: no chart label overlaps another in the drawn page" % label,
          seen["charts"] and not over, "%d overlapping: %s" % (
              len(over), "; ".join(over[:6])))


def check_units(label, seen, units_of):
    """Every chart names its unit: a non-numeric text on its axes holds
    the unit's name, and its title or caption the unit in full.
    units_of(chart) gives the unit(s) of the figures it draws."""
    unnamed = []
    for c in seen["charts"]:
        axes = " / ".join(t["text"] for t in c["texts"]
                          if not numeric(t["text"]))
        heading = c["title"] + " " + c["caption"]
        units = units_of(c)
        if not units:
            unnamed.append("%s: no unit known for it" % c["title"])
        for unit in units:
            if unit_name(unit) not in axes or unit not in heading:
                unnamed.append("%s: axes %r, title %r" % (c["title"],
                                                          axes[:120],
                                                          heading[:160]))
    check("%s: every chart names its unit, by name on an axis and in full "
          "in its title" % label, seen["charts"] and not unnamed,
          "; ".join(unnamed[:4]))


def check_histogram_ticks(label, seen):
    """Every histogram's x axis (the figures' axis) has values on it."""
    bare = []
    for c in seen["charts"]:
        if c["kind"] != "histogram":
            continue
        ticks = [t["text"] for t in c["texts"] if numeric(t["text"])
                 and t["baseline"] == "top" and t["angle"] == 0]
        if len(ticks) < 2:
            bare.append("%s: %s" % (c["title"], ticks))
    histograms = [c for c in seen["charts"] if c["kind"] == "histogram"]
    check("%s: every histogram has values under its x axis" % label,
          histograms and not bare, "; ".join(bare[:4]))


def legend_runs(chart):
    """compare.html: the runs (indexes) a chart's legend names."""
    return [int(n) - 1 for n in re.findall(r"^run (\d+)$",
                                           "\n".join(chart["legend"]), re.M)]


def plain_rows(doc, cpu_mode="long"):
    """The answer's rows by source, as the pages group them (the source,
    "@x2apic" in x2APIC mode): no variant, no self-test, one CPU mode."""
    groups = {}
    for e in doc["experiments"]:
        if e["variant"] or e["name"].startswith("selftest-") \
                or e.get("cpu_mode", "long") != cpu_mode:
            continue
        key = e["source"] + ("@x2apic" if e["apic_mode"] == "x2apic" else "")
        groups.setdefault(key, []).append(e)
    return groups


def check_gap_labels(label, seen, docs, absent=("missing", "not selected")):
    """compare.html: each chart names every scheme its runs have for its
    source on its axis, and where a run has no figure for one, the bar's
    place says why: the status results.json gives its row (skipped,
    failed), or where the run has no such row, one of `absent`. Each
    label is taken to the scheme whose name on the axis is nearest it."""
    wrong, told = [], 0
    centre = lambda t: sum(y for _, y in t["quad"]) / 4  # noqa: E731
    for c in seen["charts"]:
        cpu_mode = "protected-32" if c["title"].endswith(" (i386)") \
            else "long"
        source = c["title"].replace(" (i386)", "")
        rows = [plain_rows(docs[i], cpu_mode).get(source, [])
                for i in legend_runs(c)]
        schemes = {e["scheme"] for r in rows for e in r}
        names = [t for t in c["texts"] if t["align"] == "right"
                 and not numeric(t["text"])]
        unnamed = schemes - {n["text"] for n in names}
        if unnamed or not schemes:
            wrong.append("%s: schemes not named on its axis: %s"
                         % (c["title"], sorted(unnamed)))
            continue
        by_name = {n["text"]: [] for n in names}
        for g in [t for t in c["texts"] if t["align"] == "left"
                  and not numeric(t["text"])]:
            near = min(names, key=lambda n: abs(centre(n) - centre(g)))
            by_name[near["text"]].append(g["text"])
        for scheme in sorted(schemes):
            want = []
            for r in rows:
                e = next((e for e in r if e["scheme"] == scheme), None)
                if e is None:
                    want.append("absent")
                elif e["status"] != "ok":
                    want.append(e["status"])
            got = sorted("absent" if g in absent else g
                         for g in by_name[scheme])
            told += len(got)
            if got != sorted(want):
                wrong.append("%s %s: drawn %s, results.json %s"
                             % (c["title"], scheme, got, sorted(want)))
    check("%s: each chart names every scheme its runs have, and each gap, "
          "a scheme a run has no figure for, is labelled why: its row's "
          "status (skipped) or %s where the run has no row"
          % (label, " or ".join(absent)),
          seen["charts"] and told and not wrong, "; ".join(wrong[:4]))


def check_charts(label, seen, docs):
    """The charts a person reads: labels neither cut nor overlapping,
    each chart's unit named, values on each histogram's x axis, and on
    compare.html every gap labelled."""
    check_labels(label, seen)
    if len(docs) > 1:
        # compare.html: a chart draws the runs its legend names.
        check_units(label, seen, lambda c: {
            docs[i]["clock"]["unit"] for i in legend_runs(c)})
        check_gap_labels(label, seen, docs)
    else:
        check_units(label, seen, lambda c: [docs[0]["clock"]["unit"]])
    if any(c["kind"] == "histogram" for c in seen["charts"]):
        check_histogram_ticks(label, seen)


def check_one_bucket(label, doc, seen):
    """The distributions' one-bucket table: a figure for each row whose
    source's histograms of that metric are all one bucket, each its
    median as results.json holds it, or where it holds none the word
    bucket and the bucket's range; each cell nothing but its figures."""
    want = set()
    for rows in plain_rows(doc).values():
        ok = [e for e in rows if e["status"] == "ok"]
        for key in ("round_trip", "entry", "exit"):
            has = [e for e in ok if (e.get("histograms") or {}).get(key)]
            if has and all(len(e["histograms"][key]) == 1 for e in has):
                want |= {(e["name"], key) for e in has}
    rows = {e["name"]: e for e in doc["experiments"]}
    got, wrong = set(), []
    for line in seen["one_bucket"]:
        texts = [f["text"] for f in line["figures"]]
        if line["cells"][-1] != ", ".join(texts):
            wrong.append("cell %r holds more than its figures"
                         % line["cells"][-1])
        for f in line["figures"]:
            got.add((f["row"], f["metric"]))
            e = rows.get(f["row"])
            median = ((e or {}).get(f["metric"]) or {}).get("median")
            if e is None:
                expect = None
            elif median is not None:
                expect = "%s %s" % (e["scheme"], median)
            else:
                b = e["histograms"][f["metric"]][0]
                expect = "%s: bucket %d-%d" % (e["scheme"], b[0], b[1])
            if f["text"] != expect:
                wrong.append("%s %s: page %r, results.json %r"
                             % (f["row"], f["metric"], f["text"], expect))
    check("%s: the distributions' one-bucket table has a figure for each "
          "row whose source's histograms of it are all one bucket, each its "
          "median in results.json (or the bucket's range, called a bucket, "
          "where it has none), and nothing else" % label,
          got == want and not wrong,
          "%d figures, %d expected; %s" % (len(got), len(want),
                                           "; ".join(wrong[:4])))


def answer_rows(doc, cpu_mode):
    """The rows the report's answer table must show figures for: the
    schemes' rows (no variant, no self-test) of one CPU mode that ended
    ok, by source (and APIC mode), but for a source whose rows results.json
    says are not latencies (an emulator's scheduling between CPUs)."""
    groups = {}
    for e in doc["experiments"]:
        if e.get("variant") or e["name"].startswith("selftest-") \
                or e.get("cpu_mode", "long") != cpu_mode:
            continue
        key = e["source"] + ("@x2apic" if e.get("apic_mode") == "x2apic"
                             else "")
        groups.setdefault(key, []).append(e)
    return {e["name"] for rows in groups.values()
            if not any(e.get("latencies") is False for e in rows)
            for e in rows if e["status"] == "ok"}


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
    check_charts(label, seen, docs)
    if len(docs) == 1:
        check_one_bucket(label, docs[0], seen)
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
    if len(docs) == 1:
        want = answer_rows(docs[0], "long")
        got = {c["row"] for c in cells if c["table"] == "headline"}
        check("%s: the answer table has a figure for every ok row of "
              "results.json's long-mode schemes, every source's group (left "
              "out only where its rows are not latencies), and no other row"
              % label, want and got == want,
              "missing %s, extra %s" % (sorted(want - got)[:5],
                                         sorted(got - want)[:5]))
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
