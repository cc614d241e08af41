"""Runs about the config: a series of runs, a bad config, the shipped
quick config and a selection of rows."""

import itertools
import os

import varstore
from harness import BUILD, PASSES, ROOT, check, experiment, serial, statuses

# A boot log an earlier run in more boots left in the selection's run
# folder, which image/run.sh must clear before it boots.
STALE_BOOT_LOG = os.path.join(BUILD, "selection", "boot9.log")


def plant_stale_boot_log():
    os.makedirs(os.path.dirname(STALE_BOOT_LOG), exist_ok=True)
    with open(STALE_BOOT_LOG, "w") as f:
        f.write("an earlier run's boot 9\n")


def runs_3(o):
    """runs = 3: three measuring boots, one reset apart, merged by the
    fourth. Under icount every run must give the same medians."""
    if not check("runs-3: four boots completed", o.rc == 0,
                 "run.sh exit %d, see %s" % (o.rc, o.run_dir)):
        return
    doc, folders = o.doc, o.folders
    rows = doc["runs"]["rows"] if doc else []
    check("runs-3: three runs merged into one folder, earlier runs kept "
          "on the ESP", doc is not None and doc["runs"]["count"] == 3
          and doc["config"]["runs"] == 3
          and os.path.exists(os.path.join(o.results, folders[0], "run-1.bin"))
          and os.path.exists(os.path.join(o.results, folders[0], "run-2.bin")),
          str(folders))
    ok_rows = [e for e in (doc or {}).get("experiments", [])
               if e["status"] == "ok"]
    check("runs-3: every ok row has its three run medians",
          len(rows) == len(ok_rows) > 0
          and all(len(r["round_trip_medians"]) == 3 for r in rows),
          "%d rows, %d ok experiments" % (len(rows), len(ok_rows)))
    check("runs-3: icount runs agree exactly: no spread, nothing unstable",
          rows and all(r["spread"] == 0 and not r["unstable"]
                       for r in rows), str(rows[:3]))
    check("runs-3: each intermediate run's records were deleted",
          [statuses(o.run_dir, n, "run-kept") for n in (2, 3)]
          == [[{"run": "1", "runs": "3"}], [{"run": "2", "runs": "3"}]]
          and varstore.irqlab_records(
              os.path.join(o.run_dir, "vars.fd")) == [])


def bad_config(o):
    """A config with an error stops in phase A, visibly: every problem on
    screen and serial, a countdown, power off; nothing is measured. The
    runner prints each problem with its line, naming the user's file."""
    log = serial(o.run_dir, 1)
    with open(os.path.join(o.run_dir, "run.log")) as f:
        said = f.read()
    mine = os.path.join(o.run_dir, "irqlab.cfg")
    check("bad-config: the runner names the user's config file and prints "
          "each of its three errors and its warning with its line, and says "
          "nothing was measured",
          "irqlab: 3 error(s) in %s:" % mine in said
          and "  line 1: samples must be a number" in said
          and "  line 4: schemes: unknown name 'fast'" in said
          and "  line 5: sources selects nothing" in said
          and "irqlab: 1 warning(s) in %s:" % mine in said
          and "  line 3: unknown key 'shade' ignored" in said
          and "nothing measured: fix the lines above in %s" % mine in said,
          said[-1500:])
    check("bad-config: the run stops in phase A with every problem said, "
          "then powers off by itself",
          o.rc != 0 and "irqlab will not measure" in log
          and "line 1: samples must be a number" in log
          and "line 3: unknown key 'shade' ignored" in log
          and "line 4: schemes: unknown name 'fast'" in log
          and "line 5: sources selects nothing" in log
          and "powering off in" in log
          and not statuses(o.run_dir, 1, "handed-over")
          and "exiting boot services" not in log, log[-800:])


def shipped_with_quick():
    """A copy of the shipped irqlab.cfg with quick = 1, one scheme and one
    source chosen below it (a user's edits); its variants = all stays."""
    with open(os.path.join(ROOT, "image", "irqlab.cfg")) as f:
        text = f.read()
    return (text.replace("\nquick = 0", "\nquick = 1")
            + "schemes = direct\nsources = int\n")


def quick(o):
    """quick = 1 in a copy of the shipped file, which sets every count:
    the quick counts are used all the same, and the runner says which."""
    doc = o.doc if o.rc == 0 else None
    if not check("quick: both boots completed, one results folder, from a "
                 "run folder more than 108 bytes deep (a UNIX socket's path "
                 "may not pass 108): the TPM's socket lives elsewhere",
                 doc is not None and len(os.path.abspath(o.run_dir)) > 108,
                 "run.sh exit %d, see %s (%d bytes)"
                 % (o.rc, o.run_dir, len(os.path.abspath(o.run_dir)))):
        return
    with open(os.path.join(o.run_dir, "run.log")) as f:
        said = f.read()
    c = doc["config"]
    row = experiment(doc, "int-direct")
    # The runner's lines of the counts used: its own, and those under it.
    lines = said.splitlines()
    first = next((i for i, line in enumerate(lines) if line.startswith(
        "irqlab: quick = 1: the counts used:")), len(lines))
    used = lines[first:first + 1] + list(itertools.takewhile(
        lambda line: line.startswith("  "), lines[first + 1:]))
    check("quick: the shipped file's counts give way to the quick ones "
          "(samples 1000 after 100 warm-up, both passes delivered), and the "
          "runner prints the counts used, within 80 columns",
          (c["samples"], c["warmup"], c["floor_samples"],
           c["primitive_blocks"], c["gap_samples"]) == (1000, 100, 200, 20, 200)
          and row is not None and row["delivered"] == PASSES * 1100
          and "irqlab: quick = 1: the counts used:\n  samples=1000 "
          "warmup=100" in said and len(used) > 1
          and all(len(line) <= 80 for line in used),
          "%s %s %s" % (c, row and row["delivered"], said[-600:]))
    folder = os.path.join(o.results, doc["run_id"])
    ends = said.rstrip().splitlines()[-2:]
    check("quick: the runner ends with the headline, in at most 80 columns, "
          "and the paths of report.html and summary.txt",
          "irqlab: run %s done" % doc["run_id"] in said
          and "round trip, median, net of the floor" in said
          and all(len(line) <= 80 for line in said[said.index(
              "irqlab: run %s done" % doc["run_id"]):].splitlines()
              if not line.startswith("irqlab: "))
          and ends == ["irqlab: the report:   %s" % os.path.join(
              folder, "report.html"),
                       "irqlab: every figure: %s, results.json" % os.path.join(
              folder, "summary.txt")], "\n".join(ends))
    modes = {e["cpu_mode"] for e in doc["experiments"]}
    variants = {e["variant"] for e in doc["experiments"] if e["variant"]}
    check("quick: schemes = direct with variants = all runs direct's entry "
          "variants and cache states, and no i386 row: the i386 variants "
          "come in only where an i386 scheme is chosen or they are named",
          modes == {"long"} and {"gs-swapgs", "cold"} <= variants
          and not variants & {"ds-es", "pda-gs"},
          "%s %s" % (sorted(modes), sorted(variants)))


def selection(o):
    """Choosing what runs: two schemes, one source, no variants. Only
    those rows run; the choice is in the results."""
    doc = o.doc if o.rc == 0 else None
    if not check("selection: both boots completed, one results folder",
                 doc is not None, "run.sh exit %d, see %s"
                 % (o.rc, o.run_dir)):
        return
    names = sorted(e["name"] for e in doc["experiments"])
    check("selection: a config that selects two schemes and one source "
          "runs only those rows", names == ["int-direct", "int-push-jmp"]
          and not doc["gap_method"]["rows"]
          and all(e["status"] == "ok" for e in doc["experiments"]),
          str(names) + str(doc["gap_method"]["rows"][:2]))
    logs = sorted(f for f in os.listdir(o.run_dir)
                  if f.startswith("boot") and f.endswith(".log"))
    check("selection: the run folder holds this run's boot logs alone, "
          "an earlier run's cleared by the runner",
          logs == ["boot1.log", "boot2.log"]
          and not os.path.exists(STALE_BOOT_LOG), str(logs))
    check("selection: the choice is in the results",
          doc["config"]["schemes"] == "direct,push-jmp"
          and doc["config"]["sources"] == "int"
          and doc["config"]["variants"] == "none"
          and doc["config"]["apic_modes"] == "all", str(doc["config"]))
