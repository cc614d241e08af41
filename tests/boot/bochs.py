"""Bochs: the models of docs/emulators.md, the SMP build, the exact-count
build's runs (the counted pass: bochs_counted.py), and CET."""

import json
import os
import re
import subprocess

from between_cpus import CROSS_CPU_SOURCES
from every_step import linux_sites_from_listing, linux_steps_over
from harness import (PASSES, ROOT, STATUS, TINY_SAMPLES, TINY_WARMUP,
                     bochs_binary, bochs_exact_binary, bochs_smp_binary,
                     check,
                     check_every_plan_row,
                     experiment, handler_kinds, matrix_cells, run_bochs)
from row_checks import check_i386
from source_checks import (SKIP_CALL16, SKIP_FRED, SKIP_FSGSBASE,
                           SKIP_GATE_GAP, SKIP_IBRS_IBPB, SKIP_LKGS,
                           SKIP_ONE_CPU, SKIP_PCID, SKIP_TSC_DEADLINE,
                           SKIP_X2APIC, TCG_SKIPS, check_skips, literally)


# What each model lacks among the rows bochs_smp_runs selects, and the
# reason each skipped row gives: wildcat_lake has all they need; ryzen
# has no FRED, LKGS, PCID, IBRS or IBPB (Bochs' cpudb).
BOCHS_SMP_SKIPS = {
    "wildcat_lake": (),
    "ryzen": ((r"experiment int-fred(@cpu1)?",
               literally("CPUID.(7,1):EAX[17] (FRED) is 0 on this CPU")),)
    + SKIP_LKGS + SKIP_PCID + SKIP_IBRS_IBPB,
}
# bochs_runs' three models on one processor: every model skips call16,
# the rows between CPUs and the gate's gap row (the chained build's ticks
# are too coarse for it too). ryzen lacks what QEMU's TCG models lack,
# and x2APIC; core2_penryn_t9600 lacks as much and FSGSBASE, and its
# IBRS and IBPB are named by Intel's bit.
BOCHS_SKIPS = {
    "wildcat_lake": SKIP_CALL16 + SKIP_ONE_CPU + SKIP_GATE_GAP,
    "ryzen": TCG_SKIPS + SKIP_X2APIC,
    "core2_penryn_t9600": (
        SKIP_CALL16 + SKIP_ONE_CPU + SKIP_GATE_GAP + SKIP_FRED
        + SKIP_TSC_DEADLINE + SKIP_LKGS + SKIP_PCID + SKIP_X2APIC
        + SKIP_FSGSBASE + (
            (r"experiment int-direct\+ibrs(\+cold)?|primitive wrmsr-spec-ctrl",
             literally("CPUID.(7,0):EDX[26] (IBRS/IBPB, IA32_SPEC_CTRL) is 0 "
                       "on this CPU")),
            (r"experiment int-direct\+ibpb(\+cold)?|primitive wrmsr-pred-cmd",
             literally("CPUID.(7,0):EDX[26] (IBRS/IBPB, IA32_PRED_CMD) is 0 "
                       "on this CPU")))),
}


def bochs_smp_runs(tiny):
    """Bochs with two processors (cpu: count=2), wildcat_lake (x2APIC,
    FRED) and ryzen: the other processor starts, every cross-CPU row runs
    ok or is skipped with a reason, in each APIC mode the model has; the
    spinning target's row under FRED too, where the boot CPU takes the
    answer by FRED event delivery; the section between CPUs measures
    both ordered pairs and the broadcasts."""
    bochs = bochs_smp_binary()
    per_row = (TINY_SAMPLES // 2 + TINY_WARMUP) * 2
    for model in ("wildcat_lake", "ryzen"):
        label = "bochs-smp-" + model
        doc, run_dir = run_bochs(label, bochs, model, tiny + (
            "samples = %d\nschemes = direct, fred\nvariants = none\n"
            "matrix_cpus = 1\nsources = int, %s\n" % (
                TINY_SAMPLES // 2, ", ".join(CROSS_CPU_SOURCES))), cpus=2)
        if doc is None:
            continue
        check_skips(label, doc, BOCHS_SMP_SKIPS[model])
        with open(os.path.join(run_dir, "serial.log"), "rb") as f:
            log = f.read().decode("latin-1")
        other = [dict(kv.split("=", 1) for kv in m.group(2).split()
                      if "=" in kv) for m in STATUS.finditer(log)
                 if m.group(1) == "other-cpus"]
        rows = [e for e in doc["experiments"]
                if e["source"] in CROSS_CPU_SOURCES]
        bad = [(e["name"], e["status"], e["reason"]) for e in rows
               if not (e["status"] == "ok" and e["delivered"] == per_row
                       or e["status"] == "skipped" and e["reason"])]
        ok = [e["name"] for e in rows if e["status"] == "ok"]
        fred = model == "wildcat_lake"
        check("%s: with 2 processors the other one starts; every cross-CPU "
              "row is ok with its %d interrupts or skipped with a reason, "
              "%s" % (label, per_row, "the spinning target's under FRED "
                      "and in x2APIC mode among the ok ones" if fred else
                      "the three waits among the ok ones"),
              other and other[0].get("listed") == "2"
              and other[0].get("started") == "1" and rows and not bad
              and (("ipi-cpu-roundtrip-fred@x2apic" in ok
                    or "ipi-cpu-roundtrip-fred" in ok)
                   and any(n.endswith("@x2apic") for n in ok) if fred
                   else all(any(n.startswith(src + "-direct") for n in ok)
                            for src in CROSS_CPU_SOURCES)),
              "%s %s ok %s" % (other, bad, ok))
        again = {e["name"]: e for e in doc["experiments"]
                 if e["on_cpu"] == 1 and e["source"] == "int"}
        want = ("int-direct@cpu1", "int-fred@cpu1") if fred else \
            ("int-direct@cpu1",)
        check("%s: matrix_cpus = 1: INT n runs again on the other processor "
              "in the boot CPU's place, ok with its %d interrupts: %s"
              % (label, per_row, ", ".join(want)),
              all(n in again and again[n]["status"] == "ok"
                  and again[n]["delivered"] == per_row for n in want),
              str([(n, e["status"], e.get("reason"), e["delivered"])
                   for n, e in again.items()]))
        x = doc.get("cross_cpu", {}).get("rows", [])
        check("%s: the section between CPUs measured both ordered pairs "
              "acknowledged and the two broadcasts, and labels its figures "
              "the emulator's" % label,
              len([c for c in matrix_cells(doc["cross_cpu"]).values()
                   if isinstance(c["ipi-ack"], int)]) == 2
              and len([r for r in x if r["target"] == "all"
                       and r["status"] == "ok"]) == 2
              and "emulator" in doc["cross_cpu"]["figures"],
              str([(r["kind"], r["sender"], r["target"], r["status"],
                    r.get("reason")) for r in x]))
        waits = [e for e in rows if e["source"] in (
            "ipi-cpu-roundtrip-halted", "ipi-cpu-roundtrip-mwait")]
        said = [l for l in (dict(kv.split("=", 1) for kv in m.group(2).split()
                                 if "=" in kv) for m in STATUS.finditer(log)
                            if m.group(1) == "cross-cpu")
                if l.get("told") in ("halt", "mwait")]
        check("%s: the halted and MWAITing targets woke only for an "
              "interrupt or a new command: Bochs ends MWAIT on any store to "
              "the monitored line, and the target's own stores lie off it "
              "(every such row ok with 0 wake-ups without an interrupt in "
              "results.json, and 0 on each of its status lines)" % label,
              any(e["source"] == "ipi-cpu-roundtrip-mwait"
                  and e["status"] == "ok" for e in waits)
              and all(e["status"] == "ok"
                      and e["target_wakeups_without_interrupt"] == 0
                      for e in waits)
              and said and all(l.get("wakeups") == "0" for l in said),
              "%s %s" % ([(e["name"], e["status"], e["reason"],
                           e.get("target_wakeups_without_interrupt"))
                          for e in waits],
                         sorted({l.get("wakeups") for l in said})))
        one_way = [r for r in x if r["kind"] == "ipi-oneway"]
        cells = matrix_cells(doc["cross_cpu"])
        # Bochs' processors read one simulated clock: their TSCs'
        # offset is 0, and an arrival corrected by it is never before
        # its sending. Both pairs share one relation, so the first is
        # kept in full with its bound, and each cell has its figure.
        check("%s: Bochs offers an invariant TSC, so the one-way figures "
              "go as far as the TSC offset's bound: the pair kept in full "
              "holds the processors' offset of 0 (low <= 0 <= high), its "
              "figure within it, its least sample >= 0, or skipped for its "
              "width; and both ordered pairs' cells have a one-way median "
              ">= 0 or offset-wide" % label, len(one_way) == 1 and all(
                  r.get("tsc_offset")
                  and r["tsc_offset"]["low"] <= 0 <= r["tsc_offset"]["high"]
                  and (r["status"] == "ok" and r["time"]["min"] >= 0
                       or r["status"] != "ok" and "TSC offset is known to"
                       in (r.get("reason") or "")) for r in one_way)
              and len(cells) == 2 and all(
                  isinstance(c["ipi-oneway"], int) and c["ipi-oneway"] >= 0
                  or c["ipi-oneway"] == "skipped: offset-wide"
                  for c in cells.values()),
              "%s %s" % (one_way, list(cells.values())))
        check_one_way_within_ack(label, one_way, cells)
        clocks = doc["clock"].get("other_cpus", [])
        pin = doc["platform"].get("frequency-pin", {})
        pinned = pin.get("state") == "ok"
        # The boot CPU's own ratio: once pinned, else over its probe's
        # loop; CPU 1 runs the same loop and must come within 2% of it.
        boot_ratio = re.search(r"core clock (?:then )?(\d+)/1000", pin.get(
            "detail", "") if pinned else doc["platform"].get(
                "aperf-mperf", {}).get("detail", ""))
        boot_ratio = int(boot_ratio.group(1)) if boot_ratio else None
        ratio = clocks[0]["aperf_mperf_milli"] if clocks else None
        check("%s: CPU 1, which ran rows and sent IPIs, has its own clock "
              "entry: pinned where the boot CPU was, else not pinned with "
              "the boot CPU's reason; its APERF/MPERF ratio within 2%% of "
              "the boot CPU's; started more than once and put back before "
              "every INIT" % label,
              [c["cpu"] for c in clocks] == [1]
              and pin.get("state") in ("ok", "absent")
              and clocks[0]["pinned"] is pinned
              and clocks[0]["pin_reason"] == (
                  "pinned as the boot CPU was" if pinned
                  else "as the boot CPU: " + pin["detail"])
              and boot_ratio and ratio
              and abs(ratio - boot_ratio) * 50 <= boot_ratio
              and clocks[0]["starts"] >= 2 and clocks[0]["restored"] is True,
              "%s; boot ratio %s; %s" % (pin, boot_ratio, clocks))


def check_one_way_within_ack(label, kept, cells):
    """Where every processor reads one clock (Bochs: docs/emulators.md),
    the true offset between two TSCs is 0: each pair kept in full has an
    offset bound that holds 0, and is ok with its one-way median between
    0 and its acked round trip's, or skipped for the product's one
    reason, its bound over 250/1000 of that median. The provided,
    chained build advances its TSC where a chain of traces ends, so the
    ping-pong's bound moves with where the code's traces end (one build
    of irqlab measured +-7 against a one-way median of 34, the next +-11
    against 30): whether a pair is kept depends on that. And every cell
    that has a one-way median lies between 0 and its ipi-ack median."""
    bad = []
    for r in kept:
        ack = cells.get((r["sender"], r["target"]), {}).get("ipi-ack")
        bound = r.get("tsc_offset") or {}
        median = (r.get("time") or {}).get("median")
        wide = re.match(r"the TSC offset is known to \+-(\d+) ticks, over "
                        r"250/1000 of the one-way median (\d+)$",
                        r.get("reason") or "")
        if not (isinstance(ack, int) and bound
                and bound["low"] <= 0 <= bound["high"]
                and (r["status"] == "ok" and 0 <= median <= ack
                     or r["status"] == "skipped" and wide
                     and int(wide.group(1)) == bound["plus_minus"]
                     and 1000 * int(wide.group(1))
                     > 250 * int(wide.group(2)))):
            bad.append((r["sender"], r["target"], r["status"],
                        r.get("reason"), median, ack, bound))
    bad += [(k, c["ipi-oneway"], c["ipi-ack"]) for k, c in cells.items()
            if isinstance(c["ipi-oneway"], int)
            and not (isinstance(c["ipi-ack"], int)
                     and 0 <= c["ipi-oneway"] <= c["ipi-ack"])]
    check("%s: every processor reads Bochs' one clock, so each pair kept "
          "in full has a TSC offset bound that holds 0, and is ok with its "
          "one-way median between 0 and its ipi-ack median, or skipped "
          "only as that bound is over 250/1000 of the median; every cell's "
          "one-way median that was measured lies between 0 and its ipi-ack "
          "median" % label, kept and not bad, str(bad[:6]))


def bochs_smp_four(tiny):
    """The exact-count Bochs with four processors in two packages of two
    (cpu: count=2:2:1), wildcat_lake, whose TSC is invariant and whose
    IA32_MISC_ENABLE and IA32_PM_ENABLE the package's processors share
    (docs/emulators.md "The counting PMU"): the section between CPUs
    takes all four, and each of its 12 ordered pairs has its ipi-ack
    median and its one-way figure (or the bound's reason); the pairs of
    two processors other than the boot CPU are those where it halts
    until they are done (docs/cross-cpu.md "The boot CPU halts"), woken
    by the sender. CPU 2 runs INT n again in the boot CPU's place and is
    started again after it, while CPU 3 of its package still holds
    turbo off (docs/timing.md "Pinning the frequency")."""
    label = "bochs-smp-4"
    doc, run_dir = run_bochs(label, bochs_exact_binary(), "wildcat_lake",
                             tiny + (
        "schemes = direct\nvariants = none\nsources = int, "
        "ipi-cpu-roundtrip\napic_modes = x2apic\nmatrix_cpus = 2\n"),
                             cpus="2:2:1")
    if doc is None:
        return
    check_package_turbo(label, doc, run_dir)
    x = doc.get("cross_cpu", {})
    m = x.get("matrix", {})
    cells = matrix_cells(x)
    ids = [c["apic_id"] for c in m.get("cpus", [])]
    want = {(a, b) for a in ids for b in ids if a != b}
    bad = [(k, c["ipi-ack"], c["ipi-oneway"]) for k, c in cells.items()
           if not isinstance(c["ipi-ack"], int)
           or not (isinstance(c["ipi-oneway"], int)
                   and c["ipi-oneway"] >= 0
                   or c["ipi-oneway"] in ("skipped: offset-wide",
                                          "skipped: clamped"))]
    check("%s: the section takes the 4 processors in ascending APIC ID, "
          "and each of their 12 ordered pairs has its ipi-ack median and "
          "a one-way median >= 0, or the offset bound's reason; the 6 "
          "pairs without the boot CPU among them" % label,
          len(ids) == 4 and ids == sorted(ids) and set(cells) == want
          and not bad
          and len([k for k in want if ids[0] not in k]) == 6,
          "%s %s %d cells" % (ids, bad[:4], len(cells)))
    check_one_way_within_ack(label, [r for r in x.get("rows", [])
                                     if r["kind"] == "ipi-oneway"], cells)
    broadcasts = [r for r in x.get("rows", []) if r["target"] == "all"]
    check("%s: the broadcast and the per-target loop each waited for the "
          "3 others' acks, ok" % label,
          len(broadcasts) == 2 and all(r["status"] == "ok"
                                       and r["targets"] == 3
                                       for r in broadcasts),
          str([(r["kind"], r["status"], r.get("reason"))
               for r in broadcasts]))


def registers_per_kind(e):
    """The register checks one handler kind makes on a row (bench/run/
    experiment.c check()): 256 on the row's vector and 256 on the high
    check vector for a scheme's row, 256 on the variants' vector alone
    for an entry variant's."""
    return 256 if e["variant"] else 2 * 256


def bochs_runs(tiny):
    """Bochs, a second emulator (docs/emulators.md): phases A and B under
    three of its CPU models, their blobs cut from the serial log. Every row
    ends ok or skipped with a reason; wildcat_lake has x2APIC and the
    TSC-deadline timer, which QEMU's TCG cannot offer. Its table entry
    needs Bochs (have)."""
    bochs = bochs_binary()
    for model in ("wildcat_lake", "ryzen", "core2_penryn_t9600"):
        label = "bochs-" + model
        # wildcat_lake has FRED: its rows include the fault self-tests,
        # one of them raised under FRED.
        # The runner runs every part (image/bochs.sh); serial.log holds
        # every part's lines, in order.
        # Half TINY's samples: these runs check what ends ok or skipped
        # and why, not figures (Bochs' chained build counts coarsely).
        doc, run_dir = run_bochs(label, bochs, model, tiny + (
            "samples = %d\n" % (TINY_SAMPLES // 2)) + (
            "selftest_fault = 1\n" if model == "wildcat_lake" else ""))
        if doc is None:
            continue
        check_every_plan_row(label, doc, run_dir)
        rows = (doc["experiments"] + doc["primitives"]["rows"]
                + doc["gap_method"]["rows"])
        bad = [(e.get("name") or e.get("scheme"), e["status"], e["reason"])
               for e in rows if not (e.get("name") or "").startswith(
                   "selftest-")
               and (e["status"] not in ("ok", "skipped")
                    or (e["status"] == "skipped" and not e["reason"]))]
        check("%s: every row ok or skipped with a reason" % label,
              rows and not bad, "%d rows: %s" % (len(rows), bad[:5]))
        check_skips(label, doc, BOCHS_SKIPS[model])
        check_i386(label, doc, exact=False)
        probes = doc.get("platform", {})
        amd = model == "ryzen"
        pmu, ratio = (probes.get("performance-counters", {}),
                      probes.get("aperf-mperf", {}))
        ratios = [e.get("clock_ratio_milli") for e in doc["experiments"]
                  if e["status"] == "ok"]
        check("%s: the counters Bochs advertises are found not to count "
              "(never read as zero cycles); APERF/MPERF, which Bochs gives "
              "as the TSC, report a ratio of exactly 1 for every row" % label,
              pmu.get("state") == "quirk"
              and "do not count here" in pmu.get("detail", "")
              and doc["clock"]["cycles"]["state"] == "skipped"
              and all(e.get("cycles") is None for e in doc["experiments"])
              and ratio.get("state") == "ok"
              and "1000/1000" in ratio.get("detail", "")
              and ratios and all(x == {"low": 1000, "high": 1000,
                                       "unstable_frequency": False}
                                 for x in ratios),
              "%s; %s; %s" % (pmu, ratio, ratios[:3]))
        pin = probes.get("frequency-pin", {})
        check("%s: pinning the frequency is tried and recorded: set with the "
              "ratio that resulted (exactly 1 under Bochs), or not, with why"
              % label, pin.get("state") in ("ok", "absent")
              and ("1000/1000" in pin.get("detail", "")
                   if pin.get("state") == "ok"
                   else pin.get("detail", "").startswith("not pinned: ")),
              str(pin))
        smi, cet = probes.get("smi-count", {}), probes.get("cet", {})
        # No SMI can be raised here: AMD's counter 3 is proven to count by
        # retired instructions over a known loop before it is set to SMIs
        # received (docs/timing.md); on a Bochs whose counters do not
        # count (the counters probe says so) that proof fails, and the
        # SMI count is not watched, saying why.
        counting = pmu.get("state") == "ok"
        check("%s: CET found off and said so; the SMI counter %s" % (
            label, "watched through MSR_SMI_COUNT" if not amd else
            "AMD's counter 3, proven to count retired instructions over a "
            "loop before it was set to SMIs received, where the counters "
            "count; else not watched, saying counter 3 does not count or "
            "keep its event"),
              cet.get("state") == "ok" and "CR4.CET off" in cet.get("detail", "")
              and (smi.get("state") == "ok"
                   and "MSR_SMI_COUNT" in smi.get("detail", "") if not amd
                   else smi.get("state") == "ok" and re.search(
                       r"AMD counter 3, event 2BH \(SMIs received\), proven "
                       r"to count \(\d+ instructions over a loop of 100000\)",
                       smi.get("detail", "")) if counting
                   else smi.get("state") == "absent" and smi.get(
                       "detail", "").startswith("AMD's performance counter "
                                                "3 does not ")),
              "cet %s, smi %s" % (cet, smi))
        # An exact-count build reads "emulator"; the handler-chaining
        # build, whose TSC skips ahead, "emulator-coarse".
        check("%s: figures labelled an emulator's ticks, never cycles"
              % label, doc["clock"]["kind"] in ("emulator", "emulator-coarse")
              and not doc["clock"]["figures_are_cycles"], str(doc["clock"]))
        if model == "wildcat_lake":
            ok = {e["name"] for e in doc["experiments"] if e["status"] == "ok"}
            check("%s: the TSC-deadline timer and the x2APIC rows run here"
                  % label, {"lapic-tscdeadline-direct",
                            "ipi-self-x2apic-selfipi-direct"} <= ok,
                  str(sorted(ok)[:10]))
            lkgs = {p["name"]: p for p in doc["primitives"]["rows"]}.get(
                "lkgs", {})
            # How many instructions a repetition is a path length, which
            # only the exact-count build gives (bochs-exact checks it).
            check("%s: LKGS runs, its primitive ok" % label,
                  lkgs.get("status") == "ok", str(lkgs))
            row = experiment(doc, "int-direct+gs-lkgs")
            check("%s: the LKGS entry variant runs and keeps every register"
                  % label, row is not None and row["status"] == "ok"
                  and row["register_checks"] == PASSES * 256, str(row))
            check_fred_under_bochs(label, doc, run_dir)


# Samples a row takes on the exact-count build, whose every sample of a
# row counts the same instructions (docs/emulators.md "The two Bochs
# builds"): enough for the medians, which are that count.
EXACT_SAMPLES = 50


def bochs_cet(tiny):
    """simulate = cet-shadow-stack on Bochs wildcat_lake, which has CET
    shadow stacks (CPUID.7.0:ECX[7]): phase B begins with supervisor
    shadow stacks on and a valid SSP, as firmware using CET would leave
    them. CET must be cleared before the GDT's far return (a lretq the
    shadow stack holds no frame for, #CP into the firmware's IDT): the
    run then goes on and reports."""
    doc, _ = run_bochs("bochs-cet", bochs_binary(), "wildcat_lake", tiny +
                       "schemes = direct\nvariants = none\nsources = int\n"
                       "simulate = cet-shadow-stack\n")
    if doc is None:
        return
    cet = doc.get("platform", {}).get("cet", {})
    rows = doc["experiments"]
    check("bochs-cet: phase B found the simulated supervisor shadow stacks "
          "on (CR4.CET, IA32_S_CET.SH_STK_EN, an SSP at its token) and "
          "cleared them before the GDT's far return; the run went on and "
          "its rows are ok",
          cet.get("state") == "simulated"
          and re.match(r"CR4\.CET on, IA32_S_CET 0x1, SSP 0x[0-9a-f]*ff8 "
                       r"as firmware using CET leaves them: cleared before "
                       r"the GDT's far return$", cet.get("detail", ""))
          and rows and all(e["status"] == "ok" for e in rows),
          "%s %s" % (cet, [(e["name"], e["status"]) for e in rows]))


# What wildcat_lake runs that QEMU's TCG CPUs cannot (arch/mitigations.h):
# PTI's switch with PCID and the no-flush bit (mov, bts, and or or, mov),
# SPEC_CTRL written with IBRS on entry and back on exit (three moves and
# wrmsr each), IBPB on entry (three moves and wrmsr).
BOCHS_MITIGATION_COST = {"pti-cr3-pcid": (4, 4), "ibrs": (4, 4),
                         "ibpb": (4, 0)}


def check_mitigations_under_bochs(doc):
    """docs/mitigations.md under Bochs wildcat_lake, which implements
    SPEC_CTRL, PRED_CMD and ARCH_CAPABILITIES: the rows TCG skips run,
    warm and cold, each adding the listing's instructions; the rule reads
    its ARCH_CAPABILITIES (0x1F) and takes VERW alone."""
    comparison = {c["experiment"]: c for c in doc["against_baseline"]}
    kinds = handler_kinds(doc)
    for variant, (entry, exit_) in BOCHS_MITIGATION_COST.items():
        rows = ["int-direct+" + variant + cold for cold in ("", "+cold")]
        got = [(experiment(doc, r) or {}).get("status") for r in rows]
        over = [(comparison.get(r, {}).get("entry_median_over"),
                 comparison.get(r, {}).get("exit_median_over")) for r in rows]
        check("bochs-exact: %s runs, warm and cold, keeps every register "
              "through each handler kind and adds exactly %d+%d "
              "instructions" % (variant, entry, exit_),
              got == ["ok", "ok"] and over == [(entry, exit_)] * 2
              and all(experiment(doc, r)["register_checks"] == kinds * 256
                      for r in rows),
              "%d kinds: %s %s %s" % (kinds, got, over, [
                  experiment(doc, r)["register_checks"] for r in rows]))
    prims = {p["name"]: p for p in doc["primitives"]["rows"]}
    want = {"mov-cr3-noflush": 1, "wrmsr-spec-ctrl": 4, "wrmsr-pred-cmd": 4}
    got = {n: (prims.get(n, {}).get("status"),
               prims.get(n, {}).get("median_per_rep")) for n in want}
    check("bochs-exact: the no-flush CR3 write, SPEC_CTRL and PRED_CMD "
          "primitives run, each the listing's instructions a repetition",
          got == {n: ("ok", float(v)) for n, v in want.items()}, str(got))
    probe = doc["platform"].get("mitigations", {})
    m = doc["mitigations"]
    decisions = {d["name"]: d for d in m["decisions"]}
    linux = m["linux"] or {}
    on = ("LFENCE after swapgs", "VERW")
    want = linux_steps_over(linux_sites_from_listing(), on)
    check("bochs-exact: the rule reads IA32_ARCH_CAPABILITIES 0x1f and "
          "takes the swapgs fence and VERW: PTI off (RDCL_NO), IBRS off "
          "(IBRS_ALL), the fence on (FSGSBASE, no PTI), VERW on (MDS_NO is "
          "0); Linux's set adds its five and four sites and the listing's "
          "LFENCE and VERW",
          probe.get("state") == "ok" and m["arch_capabilities"] == "0x1f"
          and decisions["PTI"]["why"] == "off (RDCL_NO)"
          and decisions["IBRS"]["why"].startswith("off (IBRS_ALL")
          and decisions["LFENCE after swapgs"]["per_interrupt"]
          and decisions["VERW"]["per_interrupt"]
          and linux.get("steps") == ", ".join(on)
          and (linux.get("entry_median_over"),
               linux.get("exit_median_over")) == want,
          "want %d entry, %d exit; %s %s %s" % (want + (probe, decisions,
                                                       linux)))
    fred, plain = experiment(doc, "int-fred-linux"), experiment(doc, "int-fred")
    both = m["idt_against_fred"]
    check("bochs-exact: FRED with Linux's own set is FRED and its VERW site "
          "(a NOP, then VERW): 2 instructions more on the way out; the IDT "
          "with its set against it is stated as one comparison",
          fred is not None and plain is not None
          and fred["status"] == plain["status"] == "ok"
          and fred["exit"]["median"] - plain["exit"]["median"] == 2
          and fred["entry"]["median"] == plain["entry"]["median"]
          and both["fred_row"]["experiment"] == "int-fred-linux"
          and both["idt_row"]["experiment"] == "int-direct+linux"
          and both["fred_less_idt"] == both["fred_row"]["round_trip"]
          - both["idt_row"]["round_trip"], "%s %s %s" % (fred, plain, both))


def check_fred_under_bochs(label, doc, run_dir):
    """The fred scheme on a CPU that has FRED: its rows pass the checks
    every scheme passes, it takes the gap method, and an exception raised
    under it fails only its own row, through FRED's own entry."""
    fred = [e for e in doc["experiments"] if e["scheme"] == "fred"
            and not e["name"].startswith("selftest-")]
    names = {e["name"] for e in fred}
    check("%s: fred runs under INT n, both self-IPIs and the cache states, "
          "every row ok" % label,
          {"int-fred", "ipi-self-xapic-fred", "ipi-self-x2apic-selfipi-fred",
           "int-fred+cold"} <= names
          and all(e["status"] == "ok" for e in fred),
          str([(e["name"], e["status"], e["reason"]) for e in fred]))
    row = experiment(doc, "int-fred")
    check("%s: under FRED every vector 32-255 arrives as itself, and every "
          "register and RFLAGS survive" % label,
          row is not None and row["vectors_verified"] == PASSES * 224
          and row["register_checks"] == PASSES * 2 * 256, str(row))
    gap = {g["scheme"]: g for g in doc["gap_method"]["rows"]}.get("fred", {})
    check("%s: the gap method runs under fred" % label,
          gap.get("status") == "ok" and gap.get("gaps", 0) > 0, str(gap))
    fault = experiment(doc, "selftest-fault-in-fred")
    log = open(os.path.join(run_dir, "serial.log"),
               errors="replace").read()
    dumps = re.findall(r"registers: RIP (\w+) CS \w+ RFLAGS \w+ SS (\w+) "
                       r"CR4 (\w+)", log)
    # The dump of the fault under FRED: CR4.FRED (bit 32) on, and the SS
    # slot's event information naming a hardware exception (type 3), #UD.
    under_fred = [d for d in dumps if int(d[2], 16) >> 32 & 1
                  and int(d[1], 16) >> 32 & 0xff == 6
                  and int(d[1], 16) >> 48 & 0xf == 3]
    check("%s: #UD under FRED fails only its own row, with its register "
          "dump, through FRED's entry" % label,
          fault is not None and fault["status"] == "failed"
          and fault["reason"].startswith("#UD vector 6,") and under_fred
          and under_fred[0][0] in fault["reason"].lower(),
          "%s %s" % (fault, dumps))


def check_first_part_alone(label, doc, run_dir):
    """A Bochs run in parts (image/bochs.sh keeps each part's blob and
    results): its first part alone, as a run that ended after it leaves
    it, written by irqlab-rescue; the runner's last lines, the headline,
    summary.txt and results.json each name the first row never
    measured."""
    first = os.path.join(run_dir, "first-part-alone")
    subprocess.run(["rm", "-rf", first], check=True)
    made = subprocess.run(
        [os.path.join(ROOT, "build", "irqlab-rescue"), "--blob",
         os.path.join(run_dir, "blob-part-1.hex"), first],
        capture_output=True, text=True)
    with open(os.path.join(run_dir, "results-part-1.json")) as f:
        stop = json.load(f)["handoff"]["unmeasured_from_row"]
    folder = os.path.join(first, doc["run_id"])
    end = subprocess.run([os.path.join(ROOT, "image", "run-end.sh"), folder],
                         capture_output=True, text=True)
    check("%s: the first part alone, as a run that ended after it: the "
          "runner's last line says loudly that the run ended early and "
          "names the first row never measured" % label,
          made.returncode == 0 and stop and end.returncode == 0
          and end.stdout.splitlines()[-2:-1] == [
              "irqlab: THE RUN ENDED EARLY: plan rows from %d on were "
              "never measured" % stop],
          "%s%s%s" % (made.stdout[-300:], made.stderr[-300:], end.stdout))
    said = {}
    for name in ("headline.txt", "summary.txt", "results.json"):
        try:
            with open(os.path.join(folder, name)) as f:
                said[name] = f.read()
        except OSError:
            said[name] = ""
    # The headline's short form, and the long form of the others.
    row, at = "plan rows from %s on" % stop, "plan row %s:" % stop
    missing = (json.loads(said["results.json"]).get("row_counts", {})
               .get("missing", []) if said["results.json"] else [])
    check("%s: the first part alone, as a run that ended after it: the "
          "headline has a MISSING line naming the first row never "
          "measured, summary.txt's first lines, under its title, say NOT ALL"
          " MEASURED naming it, and "
          "results.json's row_counts.missing (the report's red notice) "
          "names it" % label,
          any(line.startswith("MISSING") and row in line
              for line in said["headline.txt"].splitlines())
          and any(line.startswith("NOT ALL MEASURED") and at in line
                  for line in said["summary.txt"].splitlines()[:4])
          and any(at in m for m in missing),
          "%s | %s | %s" % (said["headline.txt"][:400],
                            said["summary.txt"][:200], missing))


def bochs_shipped_config():
    """Bochs with the config the image ships (image/irqlab.cfg), as `make
    run EMULATOR=bochs` runs it, its handoff capped so that its results
    outgrow one: the runner starts Bochs again for each part (image/bochs.sh) until every
    row of the plan is measured. Then the first part alone, as a run that
    ended early would leave it: its files and the runner's last lines say
    so, naming the first row never measured."""
    label = "bochs-shipped"
    with open(os.path.join(ROOT, "image", "irqlab.cfg")) as f:
        shipped = f.read()
    # The store-sized handoff takes the whole matrix at once; capped at
    # 8 KiB, as an owner sparing a firmware's flash would cap it, it
    # goes in parts.
    doc, run_dir = run_bochs(label, bochs_binary(), "wildcat_lake",
                             shipped + "handoff_kib = 8\n")
    if doc is None:
        return
    parts = doc["handoff"]["parts"]
    check("%s: the shipped config's run, its handoff capped at 8 KiB "
          "(handoff_kib = 8), takes more than one part, each a Bochs run "
          "of its own, and the folder keeps each part's blob" % label, parts >= 2 and all(os.path.exists(os.path.join(
              run_dir, "results", doc["run_id"],
              "run-1-part-%d.bin" % p)) for p in range(1, parts + 1)),
          "%d part(s)" % parts)
    check_every_plan_row(label, doc, run_dir)
    bad = [(e["name"], e["status"], e["reason"]) for e in doc["experiments"]
           if not (e["status"] == "ok"
                   or e["status"] == "skipped" and e["reason"])]
    check("%s: every experiment row ok or skipped with a reason" % label,
          doc["experiments"] and not bad, str(bad[:5]))
    check_first_part_alone(label, doc, run_dir)


def check_package_turbo(label, doc, run_dir):
    """Turbo off, IA32_MISC_ENABLE[38], held per package (docs/timing.md
    "Pinning the frequency"): package 0's bit is the boot CPU's, never
    cleared by another; package 1's is set by the first of it in and
    cleared by the last out, after the other's put back, never while
    one of it still measures, so every processor finds it still set
    when its own pin is put back."""
    with open(os.path.join(run_dir, "serial.log"), "rb") as f:
        log = f.read().decode("latin-1")
    clocks = {c["cpu"]: c for c in doc["clock"].get("other_cpus", [])}
    pin = doc["platform"].get("frequency-pin", {}).get("detail", "")
    events = re.findall(r"other CPUs: CPU (\d+): turbo (off|put back) "
                        r"\(IA32_MISC_ENABLE\[38\] \w+\) for package (\d+), "
                        r"(the first of it in|the last of it out|its own)",
                        log)
    by_package = {}
    for cpu, what, package, how in events:
        by_package.setdefault(package, []).append((int(cpu), what, how))
    one = by_package.get("1", [])
    check("%s: with the boot CPU's turbo off, each other processor's pin "
          "holds it and finds it still off when put back (turbo "
          "off-throughout, restored), CPU 2 started again after its rows "
          "in the boot CPU's place" % label,
          "turbo off (IA32_MISC_ENABLE[38])" in pin
          and sorted(clocks) == [1, 2, 3]
          and all(c["turbo"] == "off-throughout" and c["restored"] is True
                  for c in clocks.values())
          and clocks[2]["starts"] >= 2
          and "found on again" not in log,
          "%s; %s" % (pin, list(clocks.values())))
    check("%s: package 0's bit, the boot CPU's, is never set or cleared by "
          "another; package 1's is set by the first of it in and cleared "
          "by the last of it out, in turn, every set cleared once, and at "
          "least once the bit one processor set is cleared by the other, "
          "whose pin outlasted it: %s" % (label, one),
          "0" not in by_package and len(one) >= 2 and len(one) % 2 == 0
          and all(what == ("off" if i % 2 == 0 else "put back")
                  and how == ("the first of it in" if i % 2 == 0
                              else "the last of it out")
                  for i, (cpu, what, how) in enumerate(one))
          and any(one[i][0] != one[i + 1][0]
                  for i in range(0, len(one) - 1, 2)),
          str(by_package))
