"""The one count of a run's rows (bench/model/row_counts.h) in the four
places a user reads it: headline.txt (and the runner's printing of it),
summary.txt, results.json's row_counts (which report.html shows), and
the serial log's plan and progress lines. They must agree on one run."""

import os
import re

from harness import check, omitted_rows, serial

# A kind of row as the end screen and summary.txt give it.
STATUSES = r"(\d+) ok, (\d+) skipped(?:, (\d+) failed)?"


def statuses(match):
    """(ok, skipped, failed) of a STATUSES match, failed 0 where unsaid."""
    ok, skipped, failed = match
    return int(ok), int(skipped), int(failed or 0)


def kind(counts):
    return counts["ok"], counts["skipped"], counts["failed"]


def boots_of(o):
    """The boots this run made, as run.sh said them (a run folder may
    keep an earlier run's later boot logs)."""
    with open(os.path.join(o.run_dir, "run.log")) as f:
        return [int(n) for n in re.findall(r"^boot (\d+): \d+ s", f.read(), re.M)]


def counts_agree(o):
    """headline.txt, summary.txt, results.json and the serial log of one
    run give the same counts: experiment rows, gap rows and primitives by
    how they ended, the plan's rows and its steps; results.json's own
    lists hold as many rows as its counts say."""
    name = "%s: the four places of one run give one count of rows: " \
        "headline.txt (as the runner prints it), summary.txt, results.json " \
        "and the serial log's plan and step lines, each saying what it " \
        "counts" % o.name
    doc = o.doc if o.rc == 0 else None
    if doc is None:
        check(name, False, "run.sh exit %d, see %s" % (o.rc, o.run_dir))
        return
    c = doc["row_counts"]
    got, why = {}, []

    # results.json: its lists hold what its counts say.
    lists = {"experiments": doc["experiments"],
             "gap_rows": doc["gap_method"]["rows"],
             "primitives": doc["primitives"]["rows"]}
    for key, rows in lists.items():
        by = tuple(sum(1 for r in rows if (r["status"] if r["status"] in
                                           ("ok", "skipped") else "failed")
                       == s) for s in ("ok", "skipped", "failed"))
        if by != kind(c[key]) or len(rows) != c[key]["total"]:
            why.append("results.json %s: lists %s, row_counts %s"
                       % (key, by, c[key]))
    if not all(c["what"].get(k) for k in ("experiments", "gap_rows",
                                          "primitives", "plan_rows",
                                          "plan_steps")):
        why.append("results.json's row_counts does not say what each "
                   "count counts: %s" % c["what"])

    # headline.txt, its wrapped lines joined, and the runner's copy.
    headline = o.file("headline.txt")
    flat = headline.replace("\n         ", " ")
    m = re.search(r"^rows     " + STATUSES + r" of (\d+) experiment rows"
                  r"(?: \(\d+ in i386 mode\))?; gap rows " + STATUSES +
                  r"; primitives " + STATUSES +
                  r"(?:; between CPUs [^;]*)?; plan: (\d+) rows",
                  flat, re.M)
    if m:
        g = m.groups()
        got["headline"] = (statuses(g[0:3]), int(g[3]), statuses(g[4:7]),
                           statuses(g[7:10]), int(g[10]))
    else:
        why.append("headline.txt has no rows line of the four counts: %r"
                   % flat[:400])
    with open(os.path.join(o.run_dir, "run.log")) as f:
        if headline.rstrip("\n") not in f.read():
            why.append("the runner did not print headline.txt as it is")

    # summary.txt's Rows lines.
    summary = o.file("summary.txt")
    lines = {}
    for label in ("experiment rows", "gap rows", "primitives"):
        m = re.search(r"^  %s\s+(\d+): %s$" % (label, STATUSES), summary,
                      re.M)
        lines[label] = m and (int(m.group(1)), statuses(m.groups()[1:4]))
    plan = re.search(r"^  the plan\s+(\d+) rows: its experiment and gap "
                     r"rows", summary, re.M)
    steps = re.search(r"^  steps\s+(\d+): the plan's rows, then the "
                      r"primitives", summary, re.M)
    if all(lines.values()) and plan and steps:
        got["summary"] = (lines["experiment rows"][1],
                          lines["experiment rows"][0],
                          lines["gap rows"][1], lines["primitives"][1],
                          int(plan.group(1)))
        summary_steps = int(steps.group(1))
    else:
        why.append("summary.txt lacks its Rows lines: %s %s %s"
                   % (lines, plan, steps))
        summary_steps = None

    got["results.json"] = (kind(c["experiments"]),
                           c["experiments"]["total"], kind(c["gap_rows"]),
                           kind(c["primitives"]), c["plan_rows"])
    if len(set(got.values())) != 1:
        why.append("counts differ: %s" % got)

    # The serial log: every part's plan line, and its steps, one total.
    boots = boots_of(o)
    logs = "".join(serial(o.run_dir, n) for n in boots)
    plans = re.findall(r"^plan: (\d+) rows \((\d+) experiment rows, (\d+) "
                       r"gap rows\), then (\d+) primitives: (\d+) steps",
                       logs, re.M)
    totals = set(re.findall(r"^progress: step \d+ of (\d+): ", logs, re.M))
    done = re.findall(r"^progress: all (\d+) steps done", logs, re.M)
    if not plans or len(set(plans)) != 1:
        why.append("the serial log's plan lines: %s" % plans)
    else:
        p, e, g, prims, s = (int(v) for v in plans[0])
        if (p, s) != (c["plan_rows"], c["plan_steps"]) or e + g != p \
                or prims != c["primitives"]["total"] or s != p + prims \
                or summary_steps != s:
            why.append("plan line %s against row_counts %s, summary's "
                       "steps %s" % (plans[0], c, summary_steps))
        # The whole plan ran: each of its rows left a row but those the
        # log says were omitted for want of their APIC mode, counted
        # from the log, not from row_counts' own left_out.
        omitted = omitted_rows(logs)
        if c["unmeasured_from_row"] is not None or c["first_row"] != 0 or \
                c["experiments"]["total"] + c["gap_rows"]["total"] \
                + omitted != p or c["left_out"] != omitted:
            why.append("%d experiment and %d gap rows, %d omitted on the "
                       "log (row_counts' left_out %d), of a plan of %d; "
                       "first row %s, unmeasured from %s" % (
                           c["experiments"]["total"], c["gap_rows"]["total"],
                           omitted, c["left_out"], p, c["first_row"],
                           c["unmeasured_from_row"]))
        if totals != {str(s)} or done != [str(s)]:
            why.append("progress lines count %s steps, end %s; the plan "
                       "has %d" % (sorted(totals), done, s))
    check(name, not why, "; ".join(why))
