"""The counted pass on the exact-count Bochs, whose PMU counts
(docs/emulators.md "The counting PMU"): its figures pinned to the TSC's,
and the PMU as firmware leaves it (docs/timing.md "Counters the firmware
owns")."""

import json
import os
import re

from bochs import EXACT_SAMPLES, registers_per_kind
from harness import bochs_exact_binary, check, run_bochs
from source_checks import (SKIP_CALL16, SKIP_FRED, SKIP_GATE_GAP,
                           SKIP_IBRS_IBPB, SKIP_LKGS, SKIP_PCID, SKIP_X2APIC,
                           check_skips)


# The counted pass's matrix (bochs_counted_pass): what each model skips
# there, and how many of its rows run, every one of them exactly, how
# many of those QEMU's reference also has (all but wildcat_lake's six
# under FRED), how many of those deliver an event (an interrupt not
# raised by INT n, or pf-cr2's #PF), and its ok gap and counted
# primitive rows; a row added to the matrix changes the count here.
COUNTED_SKIPS = {
    "wildcat_lake": SKIP_CALL16 + SKIP_GATE_GAP,
    "ryzen": (SKIP_CALL16 + SKIP_GATE_GAP + SKIP_FRED + SKIP_X2APIC
              + SKIP_LKGS + SKIP_PCID + SKIP_IBRS_IBPB),
}
COUNTED_ROWS = {
    "wildcat_lake": {"ok": 59, "compared": 53, "delivering": 35, "gaps": 10,
                     "primitives": 26},
    "ryzen": {"ok": 42, "compared": 42, "delivering": 24, "gaps": 8,
              "primitives": 22},
}

# The PMU as firmware leaves it, preset in the counting build at reset
# (bochsrc cpu: pmu_preset; docs/emulators.md "The counting PMU"): a
# counter of irqlab's already counting in every ring (Intel's fixed 1
# and 2 by IA32_FIXED_CTR_CTRL = 330H, AMD's counter 0 by PERF_CTL0 =
# 530076H, as real logs show them), and the instructions counter left
# 2^20 short of its 48 bits' end, to wrap inside the counted pass were
# it not started from 0. Each MSR, its value, and the enable Linux's
# check_hw_exists names.
# Each model's options beyond the preset, so that every path of the
# clock pin and the counters runs (docs/emulators.md "The counting
# PMU"): wildcat_lake with HWP on as firmware leaves it (IA32_PM_ENABLE
# = 1), and each event delivery counted as an instruction, as Intel's
# counters count it; ryzen with PerfMonV2's global control, core
# performance boost, and a P-state limit of P1 (PStateCurLim = 11H:
# limit 1, highest P-state 1).
DELIVERY_COUNTED = {"wildcat_lake": True, "ryzen": False}
COUNTED_OPTIONS = {
    "wildcat_lake": ("pmu_count_delivery=1", "770=1"),
    "ryzen": ("pmu_perfmon_v2=1, pmu_boost=1", "c0010061=11"),
}
COUNTED_PRESET = {
    "wildcat_lake": ("38d=330 38f=70000000f 309=fffffff00000",
                     "MSR 38d is 330"),
    "ryzen": ("c0010200=530076 c0010203=fffffff00000",
              "MSR c0010200 is 530076"),
}




# What the counted instrument adds to each figure of a row, against the
# TSC's, under Bochs' counting PMU in the exact-count build, where both
# count instructions (docs/emulators.md "The counting PMU"):
# - each counted read loads ECX first (arch/timing.h PMC_OPEN_TO), so the
#   timed round trip, with its two reads in the handler, is 2 longer;
# - the gate pushes and pops RCX around its counted timestamps
#   (arch/dispatch/gate.S): entry and exit 1 longer each, 2 more timed;
# - the x2APIC MSR samples load ECX with the MSR again after the counted
#   read (arch/timing.S IPI_SAMPLE_MSR): entry and round trip 1 longer;
# - pf-cr2's gate fetch faults: Bochs ticks its TSC and its cycle
#   counter for it, but an instruction that faults does not retire;
# - with the delivery switch on (DELIVERY_COUNTED), each event delivered
#   counts one instruction, as Intel's counters do: the interrupt, where
#   INT n did not raise it, and pf-cr2's #PF (deliveries).
def deliveries(e):
    """Events a round trip of row e delivers that hardware counts as an
    instruction each (bench/report/path_length.c deliveries)."""
    return int(e["source"] != "int") + int(e["scheme"] == "pf-cr2")


def counted_over_tsc(e, delivery_counted):
    """(cycles entry, exit, round trip, timed round trip) less the TSC's,
    and instructions retired per round trip less the TSC's."""
    x2apic = int(e["source"].startswith("ipi-self-x2apic"))
    gate = int(e["scheme"] == "gate")
    fault = int(e["scheme"] == "pf-cr2")
    return ((x2apic + gate, gate, x2apic, 2 + x2apic + 2 * gate),
            x2apic - fault + (deliveries(e) if delivery_counted else 0))


COUNTED_SOURCES = ("int", "ipi-self-xapic", "ipi-self-x2apic-selfipi",
                   "lapic-oneshot", "lapic-periodic")


def logged_msrs(log, what):
    """The MSR=value pairs of the serial log's "counters: <what> (MSR=value,
    hex):" line, as {msr: value}; a value that reads back other than it
    should is logged "value!=wanted", kept whole. None without it."""
    line = re.search(r"counters: %s \(MSR=value, hex\):(.*)" % what, log)
    return dict(p.split("=", 1) for p in line.group(1).split()) \
        if line else None


def check_counters_found(label, doc, run_dir, preset, in_use):
    """What the firmware left in the PMU (COUNTED_PRESET) is read before
    irqlab takes it, named as Linux names it, and put back before the
    reset. The preset's MSRs are controls and an idle counter, each read
    as preset; a counter the preset enables keeps counting, so reads
    more once put back."""
    with open(os.path.join(run_dir, "serial.log"), "rb") as f:
        log = f.read().decode("latin-1")
    found, back = logged_msrs(log, "found"), logged_msrs(log, "put back")
    preset_pairs = dict(p.split("=") for p in preset.split())
    check("%s: each counter and control the firmware left is read and "
          "logged before irqlab takes it, the preset's as preset, and "
          "results.json's clock.cycles.found names in Linux's words the "
          "one in use: %s" % (label, in_use),
          found is not None
          and all(found.get(m) == v for m, v in preset_pairs.items())
          and doc["clock"]["cycles"]["found"]
          == "the BIOS has corrupted hw-PMU resources (%s): taken, and put "
             "back before the reset" % in_use
          and doc["platform"]["counters-found"]["state"] == "quirk",
          "found %s; %s" % (found, doc["clock"]["cycles"].get("found")))
    check("%s: before the reset each preset MSR, which irqlab changed, "
          "reads what the firmware left: the controls and the idle "
          "instructions counter it had started from 0" % label,
          back is not None
          and all(back.get(m) == v for m, v in preset_pairs.items()),
          "put back %s" % back)
    loop = re.search(r"counters: over a loop of 100000: (\d+) instructions "
                     r"\(the counter at ([0-9a-f]+)\), (\d+) cycles", log)
    check("%s: the instructions counter, preset 2^20 short of its 48 bits' "
          "end, counts from 0 once irqlab takes it (it would wrap in the "
          "counted pass, where the wait's deadline is not taken modulo its "
          "width), and both it and the cycles counter count over the probe's "
          "loop" % label,
          loop is not None and int(loop.group(2), 16) < 1 << 20
          and int(loop.group(1)) >= 100000 and int(loop.group(3)) >= 50000,
          loop.group(0) if loop else "no loop line")
    check("%s: no counted pass found the counters' enables changed: no "
          "row's counted figures dropped" % label,
          doc["clock"]["cycles"]["disturbed_rows"] == 0,
          str(doc["clock"]["cycles"]))


def bochs_counted_pass(tiny):
    """The counted pass (docs/timing.md "Core cycles") on the exact-count
    Bochs, whose PMU counts (docs/emulators.md "The counting PMU"), with
    no simulate switch: its real set-up on both vendors' models, Intel's
    architectural PMU (wildcat_lake) and AMD's core counters (ryzen).
    Every scheme runs, long mode's and i386's, so that each counted
    assembly does; every figure is pinned to the TSC's, which counts
    instructions there: a swapped counter, a counted timestamp that reads
    the TSC, or a wrong floor moves one of them."""
    bochs = bochs_exact_binary()
    # Every sample of a row counts the same instructions here, so a
    # quarter of TINY's samples gives the same medians, in a quarter of
    # the time (wildcat_lake's run took 225 s of its 400 s limit).
    samples, warmup = EXACT_SAMPLES, 10
    for model in ("wildcat_lake", "ryzen"):
        label = "bochs-counted-" + model
        intel = model == "wildcat_lake"
        preset, in_use = COUNTED_PRESET[model]
        options, machine_preset = COUNTED_OPTIONS[model]
        doc, run_dir = run_bochs(
            label, bochs, model, tiny + "samples = %d\n" % samples
            + "schemes = all\nsources = %s\n"
            "variants = none, gs-swapgs, ds-es, pda-gs\n%s" % (
                ", ".join(COUNTED_SOURCES),
                # Phase A then reads the clock controls with turbo off,
                # as a firmware setup option leaves it.
                "simulate = turbo-off\n" if intel else ""),
            # Every MSR the model does not know faults, as on hardware,
            # so each "... faults" branch that applies runs.
            cpu_options='ignore_bad_msrs=0, %s, pmu_preset="%s %s"' % (
                options, preset, machine_preset))
        if doc is None:
            continue
        check_counters_found(label, doc, run_dir, preset, in_use)
        probes = doc["platform"]
        pmu, pin = probes.get("performance-counters", {}), \
            probes.get("frequency-pin", {})
        check("%s: the counters probe programs the %s, finds them counting "
              "2 instructions a turn of its loop of 100000 (200010 with "
              "the reads), and the counted figures are the CPU's: measured"
              % (label, "fixed counters (PMU version 6, 48 bits)" if intel
                 else "core counters (the core extension, with PerfMonV2's "
                 "global control)"),
              pmu.get("state") == "ok"
              and pmu.get("detail", "").startswith(
                  "PMU version 6, 3 fixed counters of 48 bits: cycles on "
                  "fixed 1, instructions on fixed 0 " if intel else
                  "core extension yes, PerfMonV2 yes, IRPerfCount ")
              and pmu["detail"].endswith("(200010 over a loop of 100000)")
              and doc["clock"]["cycles"]["state"] == "measured", str(pmu))
        check("%s: the frequency pin runs its real set-up and reads the "
              "ratio that resulted, exactly 1: %s" % (label, "HWP, on as "
                  "the firmware left it, asked for its guaranteed "
                  "performance 25" if intel else "boost off through "
                  "HWCR[25] and the P-state fixed at P1, the limit "
                  "PStateCurLim sets"),
              pin.get("state") == "ok"
              and pin.get("detail", "").startswith(
                  "HWP request min = max = guaranteed performance 25, "
                  "EPP 0; " if intel else "boost off (HWCR[25]), P-state "
                  "fixed at P1, the fastest allowed; ")
              and pin["detail"].endswith(
                  "core clock then 1000/1000 of the TSC's"),
              str(pin))
        floors = doc["method"]
        check("%s: the counted floors, cycles and instructions, are the "
              "TSC's and the ECX load each counted read adds" % label,
              floors["cycles_floor"]["min"]
              == floors["instructions_floor"]["min"]
              == floors["floor"]["min"] + 1
              and floors["cycles_floor"]["max"]
              == floors["cycles_floor"]["min"], str(floors))
        # long mode's call16 alone is skipped, not applicable (schemes.c)
        rows = [e for e in doc["experiments"] if e["scheme"] != "call16"]
        ok = [e for e in rows if e["status"] == "ok"]
        bad = [(e["name"], e["status"], e["reason"], e["delivered"])
               for e in rows
               if e["status"] == "ok"
               and not (e["delivered"] == 5 * (samples + warmup)
                        and e["cycles"]["state"] == "measured"
                        and e["instructions"]["state"] == "measured")]
        check_skips(label, doc, COUNTED_SKIPS[model])
        check("%s: every row that ran ran the counted pass, %d of them: ok "
              "with 5 passes of warm-up and samples delivered (the TSC's "
              "two, the counted three), core cycles and instructions "
              "measured" % (label, COUNTED_ROWS[model]["ok"]),
              len(ok) == COUNTED_ROWS[model]["ok"] and not bad,
              "%d rows, %d ok: %s" % (len(rows), len(ok), bad[:4]))
        wrong = []
        for e in ok:
            cycles, instructions = counted_over_tsc(
                e, DELIVERY_COUNTED[model])
            got = (tuple(e["cycles"][k]["median"] - e[k]["median"]
                         for k in ("entry", "exit", "round_trip",
                                   "round_trip_timed")),
                   e["instructions"]["round_trip"]["median"]
                   - e["round_trip"]["median"])
            if got != (cycles, instructions) or any(
                    e["cycles"][k]["min"] != e["cycles"][k]["max"]
                    for k in ("entry", "exit", "round_trip")):
                wrong.append((e["name"], got, (cycles, instructions)))
        check("%s: on every ok row, each counted figure is the TSC's "
              "(an instruction count here) plus exactly what the counted "
              "instrument adds (counted_over_tsc)%s, every sample alike"
              % (label, ", and instructions one per event delivered"
                 if DELIVERY_COUNTED[model] else ""), ok and not wrong,
              "%d ok rows: %s" % (len(ok), wrong[:4]))
        # Phase B's results have no reference to compare with; the
        # folder irqlab-rescue wrote from the blob, as phase C would, has.
        with open(os.path.join(run_dir, "results", doc["run_id"],
                               "results.json")) as f:
            path = json.load(f)["path_length"]
        per = 1 if DELIVERY_COUNTED[model] else 0
        want = COUNTED_ROWS[model]["delivering"]
        check("%s: the path length is compared from the counted pass, "
              "instructions retired: the boot CPU's delivery constant is "
              "measured as %d, every one of its %d compared rows that "
              "deliver an event agreeing, and net of it the path length "
              "equals the icount reference's for every row both ran"
              % (label, per, want),
              path.get("state") == "compared"
              and "performance counters" in path.get("counts_from", "")
              and path["compared"] == COUNTED_ROWS[model]["compared"]
              and path["equal"] == path["compared"]
              and path.get("delivery_constant")
              == [{"processor": "the boot CPU",
                   "instructions_per_delivery": per, "rows": want,
                   "agreeing": want}], str(path)[:600])
        gaps = [g for g in doc["gap_method"]["rows"] if g["status"] == "ok"]
        check("%s: the gap loop runs again on the cycle counter and finds "
              "each scheme's gaps as the TSC's loop does, every one alike; "
              "its undisturbed iteration 1 longer, for the ECX load of its "
              "counted read" % label,
              len(gaps) == COUNTED_ROWS[model]["gaps"] and all(
                  g.get("cycles") and g["cycles"]["cost"] == g["cost"]
                  and g["cycles"]["loop_iteration"]
                  == g["loop_iteration"] + 1 for g in gaps),
              str([(g["scheme"], g["status"], g.get("cost"), g.get("cycles"))
                   for g in doc["gap_method"]["rows"]][:4]))
        schemes = {e["scheme"] for e in ok} | {
            e["variant"] for e in ok if e["variant"]}
        want = {"direct", "push-jmp", "compact", "call", "cs-selector",
                "pf-cr2", "int3-byte", "gate", "gs-swapgs", "i386-direct",
                "i386-push-jmp", "i386-cs-selector", "i386-call16",
                "i386-call16-3byte", "ds-es", "pda-gs"} | (
                    {"fred"} if intel else set())
        check("%s: the counted handlers of every scheme, long mode's and "
              "i386's, and of the entry variants ran, each keeping every "
              "register (3 handler kinds checked)" % label,
              want <= schemes
              and all(e["register_checks"] == 3 * registers_per_kind(e)
                      for e in ok),
              "%s; %s" % (sorted(want - schemes), [
                  (e["name"], e["register_checks"]) for e in ok
                  if e["register_checks"] != 3 * registers_per_kind(e)][:4]))
        prims = [p for p in doc["primitives"]["rows"] if p["status"] == "ok"
                 and p.get("cycles")]
        check("%s: every counted primitive block, net of its floor, is the "
              "TSC's" % label,
              len(prims) == COUNTED_ROWS[model]["primitives"] and all(
                  p["cycles"]["block"]["median"] == p["block"]["median"]
                  for p in prims),
              str([(p["name"], p["block"]["median"],
                    p["cycles"]["block"]["median"]) for p in prims][:6]))
        clock = doc["clock"]
        check("%s: an emulator's counted cycles never lead: the answer stays "
              "in the emulator's unit" % label,
              clock["lead_unit"] == clock["unit"]
              and "core cycles" not in clock["lead_unit"], str(clock))
        if intel:
            with open(os.path.join(run_dir, "serial.log"), "rb") as f:
                log = f.read().decode("latin-1")
            # simulate = turbo-off: phase A read the clock controls with
            # IA32_MISC_ENABLE[38] set, which clears CPUID 06H:EAX[1].
            check("%s: with turbo turned off as firmware leaves it "
                  "(simulate = turbo-off), phase A reports turbo off, "
                  "read from IA32_MISC_ENABLE[38], not absent by CPUID"
                  % label, doc["machine"]["boost"] == "off"
                  and "phase A: turbo read as off with IA32_MISC_ENABLE[38] "
                  "set (simulate = turbo-off), then put back" in log,
                  doc["machine"]["boost"])
        check("%s: with ignore_bad_msrs=0 an MSR the model lacks faults, as "
              "on hardware, and the branch that meets it says so: %s" % (
                  label, "MSR_SMI_COUNT (34H), which the model has, read as "
                  "Intel's SMI counter" if intel else "DE_CFG (C001_1029H) "
                  "faults, so LFENCE's serialisation is not confirmed"),
              probes.get("smi-count", {}).get("detail")
              == "Intel MSR_SMI_COUNT (0x34)" if intel
              else "(DE_CFG faults)" in doc["method"]["fence_serialisation"],
              "%s; %s" % (probes.get("smi-count"),
                          doc["method"]["fence_serialisation"]))
        if not intel:
            smi = probes.get("smi-count", {})
            check("%s: AMD's SMI counter, counter 3, is proven to count "
                  "retired instructions over a loop before it is set to "
                  "SMIs received" % label, smi.get("state") == "ok"
                  and re.search(r"AMD counter 3, event 2BH \(SMIs received\), "
                                r"proven to count \((\d+) instructions over "
                                r"a loop of 100000\)", smi.get("detail", "")),
                  str(smi))

    counters_taken(tiny, bochs)


def counters_taken(tiny, bochs):
    """One row's counted pass with the PMU's enable cleared after it, as
    SMM code that stops the counters leaves it (simulate =
    counters-taken): the pass finds it, says so, writes it back, and the
    row's counted figures are dropped, never reported. On icelake, whose
    CPUID advertises a fourth fixed counter (TOPDOWN.SLOTS), left enabled
    by the firmware as it may be: the model takes its enable, and
    irqlab puts it back."""
    label = "bochs-counters-taken"
    doc, run_dir = run_bochs(
        label, bochs, "corei7_icelake_u", tiny + "samples = %d\n"
        "schemes = direct, push-jmp\nsources = int\nvariants = none\n"
        "simulate = counters-taken\n" % EXACT_SAMPLES,
        cpu_options='pmu_preset="38d=3000"')
    if doc is None:
        return
    with open(os.path.join(run_dir, "serial.log"), "rb") as f:
        found = logged_msrs(f.read().decode("latin-1"), "put back")
    check("%s: icelake's fourth fixed counter (30CH), enabled by the "
          "firmware (IA32_FIXED_CTR_CTRL 3000H), is taken with the rest "
          "and put back: the control reads 3000 before the reset" % label,
          found is not None and found.get("38d") == "3000"
          and doc["clock"]["cycles"]["found"].startswith(
              "the BIOS has corrupted hw-PMU resources (MSR 38d is 3000)"),
          "%s; %s" % (found, doc["clock"]["cycles"].get("found")))
    with open(os.path.join(run_dir, "serial.log"), "rb") as f:
        log = f.read().decode("latin-1")
    rows = [e for e in doc["experiments"] if e["status"] == "ok"]
    check("%s: the first row's counted pass finds IA32_FIXED_CTR_CTRL "
          "(38d) cleared, not the 111 irqlab wrote, and says so; its "
          "counted figures are dropped (cycles null, disturbed_rows 1), "
          "the next row's, the enable written back, are measured"
          % label,
          "counters: MSR 38d reads 0 after the counted pass, not the 111 "
          "irqlab wrote: the pass's counted figures are dropped" in log
          and doc["clock"]["cycles"]["disturbed_rows"] == 1
          and len(rows) == 2 and rows[0]["cycles"] is None
          and rows[1]["cycles"] is not None
          and rows[1]["cycles"]["state"] == "measured",
          str([(e["name"], e["status"], e.get("cycles") and 1)
               for e in doc["experiments"]]))
