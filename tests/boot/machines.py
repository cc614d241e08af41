"""Other CPU models and platforms: an xAPIC-only CPU and the i440FX
machine, old and new CPU models, a busy host, simulated platform quirks,
an NMI in the mode switches, no HPET or one pointing nowhere, and a
boot's first 32-bit trip at a call16 row."""

import os
import re
import struct

from harness import BUILD, TPM_OFF, check, load_results, run, serial, statuses
from row_checks import check_i386, check_run_whole
from source_checks import (SKIP_FSGSBASE, SKIP_X2APIC, TCG_SKIPS,
                           check_every_row_ends_well, check_skips,
                           check_sources)
from stick import rescue_parts


# The i386 rows of three sources under the two call16 schemes, with their
# baseline: plan rows 0-2 are long mode's direct rows, then per source
# i386-direct, i386-call16, i386-call16-3byte (bench/run/plan.c).
CALL16_SELECTION = ("schemes = i386-call16, i386-call16-3byte\n"
                    "sources = int, ipi-self-xapic, lapic-oneshot\n"
                    "variants = none\napic_modes = xapic\n")
CALL16_STARTS = {4: "int-i386-call16",
                 8: "ipi-self-xapic-i386-call16-3byte",
                 11: "lapic-oneshot-i386-call16-3byte"}


def call16_first(tiny):
    """A boot whose first trip to 32-bit protected mode is a call16 row,
    as a part that begins there: once, building the 32-bit tables on that
    first trip reset the call16 gates' segment base, and such a row
    failed with #UD at EIP 0xb0000 or hung (issue item 11). start_row
    makes the boot begin at each such row; every row from it must end
    ok."""
    for start, name in sorted(CALL16_STARTS.items()):
        label = "call16-first/row-%d" % start
        rc, run_dir, results = run(label, "", config=tiny + CALL16_SELECTION
                                   + "start_row = %d\n" % start,
                                   extra_env=TPM_OFF)
        steps = re.findall(r"progress: step (\d+) of \d+: ([a-z0-9-]+)",
                           serial(run_dir, 1))
        doc, _ = load_results(results) if rc == 0 else (None, None)
        rows = [(e["name"], e["status"]) for e in doc["experiments"]] \
            if doc else []
        check("call16-first: a boot that starts at plan row %d, %s, runs "
              "it first and ends every row from it ok" % (start, name),
              rc == 0 and steps[:1] == [(str(start + 1), name)]
              and rows and rows[0][0] == name
              and all(status == "ok" for _, status in rows)
              and len(rows) == 12 - start,
              "rc %d, first steps %s, rows %s" % (rc, steps[:2], rows))


# seed 004's IO-APIC access strategies: rows that need no xAPIC, run in
# x2APIC mode where the firmware locked it.
ACCESS_ROWS = ("ioapic-level-uncached-nf", "ioapic-level-index-cached",
               "ioapic-level-index-cached-nf", "ioapic-level-value-cached",
               "ioapic-level-value-cached-nf")


def platform_simulated(o):
    """A gated PIT and a firmware-locked x2APIC, simulated (no emulator
    has either), and an IOMMU (QEMU's intel-iommu): each probe says what
    it saw in results.json, the PIT's rows are skipped with the probe's
    reason instead of timing out, the xAPIC rows with the lock's, and
    seed 004's access rows run, ok, in x2APIC mode."""
    doc = o.doc or {}
    probes = doc.get("platform", {})
    rows = {e["name"]: e for e in doc.get("experiments", [])}
    check("platform-simulated: results.json names the gated PIT and the "
          "x2APIC lock as simulated, and the one VT-d unit with remapping "
          "off", o.rc == 0
          and probes.get("pit", {}).get("state") == "simulated"
          and "gated" in probes["pit"]["detail"]
          and probes.get("x2apic-lock", {}).get("state") == "simulated"
          and probes.get("interrupt-remapping", {}).get("state") == "ok"
          and "1 VT-d unit" in probes["interrupt-remapping"]["detail"],
          str(probes)[:900])
    pit_rows = [n for n in rows if n.startswith(("ioapic-edge", "pic8259"))]
    pmu = probes.get("performance-counters", {})
    check("platform-simulated: TCG has no performance counters and no "
          "APERF/MPERF: the counters are absent by CPUID or found not to "
          "count (AMD's, which no CPUID bit announces, fault), APERF/MPERF "
          "absent with CPUID's reason, no row carries a clock ratio or "
          "core cycles, and the report leads with the TSC's unit",
          (pmu.get("state") == "absent" or (
              pmu.get("state") == "quirk"
              and "do not count here" in pmu.get("detail", "")))
          and doc["clock"]["cycles"]["state"] == "skipped"
          and doc["clock"]["lead_unit"] == doc["clock"]["unit"]
          and doc["method"]["cycles_floor"] is None
          and all(e.get("cycles") is None for e in rows.values())
          and probes.get("aperf-mperf", {}).get("state") == "absent"
          and "CPUID.06H:ECX[0] is 0" in probes["aperf-mperf"]["detail"]
          and rows and all(e.get("clock_ratio_milli") is None
                           for e in rows.values())
          and probes.get("frequency-pin", {}).get("detail", "").startswith(
              "not pinned: CPUID 8000_0007H:EDX[9] and [7] are 0"),
          "%s %s" % (probes.get("performance-counters"),
                     probes.get("aperf-mperf")))
    check("platform-simulated: the PIT's rows (ioapic-edge, pic8259) are "
          "skipped with the probe's reason, none timed out or failed",
          pit_rows and all(
              rows[n]["status"] == "skipped"
              and ("gated" in rows[n]["reason"]
                   or "locked x2APIC" in rows[n]["reason"])
              for n in pit_rows)
          and any("gated" in rows[n]["reason"] for n in pit_rows),
          str([(n, rows[n]["status"], rows[n]["reason"]) for n in pit_rows]))
    xapic = [n for n in rows if rows[n]["status"] == "skipped"
             and "locked x2APIC" in (rows[n]["reason"] or "")]
    access = [rows.get(n + "-direct", {}) for n in ACCESS_ROWS]
    check("platform-simulated: the xAPIC pass is skipped for the lock, and "
          "seed 004's five access-strategy rows end ok in x2APIC mode",
          "ipi-self-xapic-direct" in xapic
          and all(a.get("status") == "ok" and a.get("apic_mode") == "x2apic"
                  for a in access),
          "skipped for the lock: %s; access rows %s" % (
              xapic, [(a.get("name"), a.get("status"), a.get("apic_mode"))
                      for a in access]))


def nmi_in_switch(o):
    """INT 2 at each point of the 32-bit trips' mode switches where an NMI
    could come (simulate = nmi-in-switch): the switches' IDT holds vector
    2 in both formats, so every trip survives them, where a 64-bit IDT
    read as a 32-bit one (or the reverse) triple-faulted and reset the
    machine, losing the run."""
    rows = [e for e in (o.doc or {}).get("experiments", [])
            if "-i386-" in e["name"]]
    check("nmi-in-switch: with INT 2 in every switch window the run is "
          "kept and all 6 i386 rows end ok",
          o.rc == 0 and len(rows) == 6
          and all(e["status"] == "ok" for e in rows),
          "rc %d, %s" % (o.rc, [(e["name"], e["status"], e.get("reason"))
                                for e in rows]))
    # A run that survived proves little if its INT 2s never came: the
    # handlers count what they take (docs/protected-mode.md "NMIs during
    # the switches"), six windows a trip, every i386 row a trip at least.
    tally = statuses(o.run_dir, 1, "switch-nmis")
    got = {k: int(v) for k, v in tally[0].items()} if len(tally) == 1 \
        else {}
    check("nmi-in-switch: one switch-nmis line says the handlers were "
          "entered 6 times a trip (windows=6, taken = 6 x trips, trips "
          ">= the 6 i386 rows)",
          got.get("windows") == 6 and got.get("trips", 0) >= 6
          and got.get("taken") == 6 * got["trips"], str(tally))


def hpet_missing(label):
    """No HPET, or a table pointing at nothing: the probe says so and the
    level rows are skipped with its reason, never a timeout."""
    def checks(o):
        doc = o.doc or {}
        probe = doc.get("platform", {}).get("hpet", {})
        level = [e for e in doc.get("experiments", [])
                 if e["name"].startswith("ioapic-level")]
        want = {"hpet-off": ("absent", "no usable ACPI HPET table"),
                "hpet-nowhere": ("quirk", "the HPET")}[label]
        check("%s: the HPET probe says %s, and every level row is skipped "
              "with a reason, none timed out" % (label, want[0]),
              o.rc == 0 and probe.get("state") == want[0]
              and want[1] in probe.get("detail", "")
              and level and all(e["status"] == "skipped" and e["reason"]
                                for e in level),
              "%s; %s" % (probe, [(e["name"], e["status"], e["reason"])
                                  for e in level][:3]))
    checks.__name__ = "hpet_missing"
    return checks


HPET_NOWHERE = os.path.join(BUILD, "hpet-nowhere.bin")


def hpet_table_to_nowhere():
    """An ACPI HPET table whose timer block is at 0xFED00000 on a machine
    with the HPET off (nothing answers there): for -acpitable."""
    body = struct.pack("<I", 0x8086a201)
    body += struct.pack("<BBBBQ", 0, 64, 0, 0, 0xFED00000)
    body += struct.pack("<BHB", 0, 0x80, 0)
    table = bytearray(b"HPET" + struct.pack("<IBB", 36 + len(body), 1, 0)
                      + b"IRQLAB" + b"NOWHERE " + struct.pack("<I", 1)
                      + b"IRQL" + struct.pack("<I", 1) + body)
    table[9] = (-sum(table)) & 0xff
    os.makedirs(BUILD, exist_ok=True)
    with open(HPET_NOWHERE, "wb") as f:
        f.write(table)


def other_machine(x2apic, level):
    """An xAPIC-only CPU or the i440FX machine: behaviour, not figures."""
    def checks(o):
        if not check("%s: both boots completed" % o.name, o.rc == 0,
                     "run.sh exit %d, see %s" % (o.rc, o.run_dir)):
            return
        if not check("%s: one results folder" % o.name, o.doc is not None,
                     str(o.folders)):
            return
        check_sources(o.name, o.doc, 500, 20, x2apic(), level)
        bad = [e for e in o.doc["experiments"] if e["status"] == "failed"]
        check("%s: no experiment failed" % o.name, not bad, str(bad))
    return checks


# Each QEMU CPU model's skips: what no TCG model offers, and neither
# model has x2APIC; qemu64 has no FSGSBASE either.
CPU_SKIPS = {
    "cpu-EPYC": TCG_SKIPS + SKIP_X2APIC,
    "cpu-qemu64": TCG_SKIPS + SKIP_X2APIC + SKIP_FSGSBASE,
}


def other_cpu(o):
    doc = check_every_row_ends_well(o.name, o.rc, o.run_dir, o.results)
    if doc:
        check_skips(o.name, doc, CPU_SKIPS[o.name])
        check_i386(o.name, doc, exact=False)


# The shipped config, as `make run` and a stick run it.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                       "image", "irqlab.cfg")) as _f:
    SHIPPED = _f.read()
# The records a handoff may take of OVMF's stores, as phase A sizes it
# (bench/model/records.c handoff_records_for; tests/unit/test_records.c
# pins the rule): the 4 MB store's 245 KB free give the most there is;
# the fresh 2 MB store's 45780 (40788 at its end, the rest what deleted
# variables hold) twenty-six.
HANDOFF_RECORDS = {"4m": 64, "2m": 26}
RECORD_PAYLOAD = 988


def one_reset(store, most_parts):
    """The shipped matrix under plain TCG, whose figures scatter as a real
    PC's do: a handoff sized to the store and compressed carries it in
    `most_parts` part(s) at most, one boot to measure each and one to
    write."""
    def checks(o):
        label = o.name
        doc = check_every_row_ends_well(label, o.rc, o.run_dir, o.results)
        if not doc:
            return
        boots = sorted(int(m.group(1)) for m in
                       (re.match(r"boot(\d+)\.log$", f)
                        for f in os.listdir(o.run_dir)) if m)
        room = statuses(o.run_dir, 1, "store")
        handed = [h for b in boots for h in statuses(o.run_dir, b,
                                                     "handed-over")]
        parts = doc["handoff"]["parts"]
        check("%s: phase A sized the handoff to OVMF's %s store: %d records "
              "of %d bytes, what three quarters of its free room beyond "
              "the 5 KiB reserve hold" % (label, store[0] + " MB", HANDOFF_RECORDS[store],
                                 RECORD_PAYLOAD),
              room and room[-1]["ok"] == "1" and int(room[-1]["budget"])
              == HANDOFF_RECORDS[store] * RECORD_PAYLOAD, str(room))
        check("%s: the shipped matrix, its histograms spread by plain TCG's "
              "noise, went in %s, one boot measuring each and one writing "
              "the files, every part within its handoff" % (
                  label, "one part" if most_parts == 1
                  else "at most %d parts" % most_parts),
              1 <= parts <= most_parts and boots == list(range(1, parts + 2))
              and len(handed) == parts
              and all(int(h["records"]) <= HANDOFF_RECORDS[store]
                      for h in handed)
              and doc["handoff"]["unmeasured_from_row"] is None
              and doc["handoff"]["row_histograms"] > 0,
              "parts=%d boots=%s handed=%s %s" % (parts, boots, handed,
                                                  doc["handoff"]))
        check_run_whole(label, doc, "".join(serial(o.run_dir, b)
                                            for b in boots))
    return checks


def noise(o):
    doc = check_every_row_ends_well(o.name, o.rc, o.run_dir, o.results)
    if not doc:
        return
    check("noise: figures are labelled TCG noise, never cycles",
          doc["clock"]["kind"] == "tcg-noise"
          and not doc["clock"]["figures_are_cycles"], str(doc["clock"]))
    # Noisy rows have wide histograms: more than a handoff capped at
    # 8 KiB (handoff_kib = 8) holds. The run goes in parts, a reset
    # apart, joined by phase C.
    parts = statuses(o.run_dir, 2, "part-kept")
    folder = os.path.join(o.results, o.folders[0])
    ok_rows = [e for e in doc["experiments"] if e["status"] == "ok"]
    with_hist = [e for e in ok_rows if all(
        e["histograms"][k] for k in ("entry", "exit", "round_trip"))]
    check("noise: histograms that outgrow a handoff capped at 8 KiB "
          "(handoff_kib = 8) spread the run over resets, joined into one "
          "folder with every row",
          doc["handoff"]["parts"] >= 2 and parts
          and parts[0]["part"] == "1"
          and doc["handoff"]["unmeasured_from_row"] is None
          and os.path.exists(os.path.join(folder, "run-1-part-1.bin"))
          and len(with_hist) >= 0.9 * len(ok_rows) > 0
          and doc["handoff"]["row_histograms"] >= 3 * len(with_hist),
          "%s parts=%s, %d of %d ok rows with histograms"
          % (parts, doc["handoff"], len(with_hist), len(ok_rows)))
    gaps = [g for g in doc["gap_method"]["rows"] if g["status"] != "skipped"]
    # On a host this busy the loop can gather its gaps from stalls alone
    # before the timer fires in a row: the timer must be seen in some
    # row, and each row's count of stalls must add up.
    check("noise: gap rows on a noisy host end ok, never failed: one whose "
          "histogram outgrew %d bytes keeps its percentiles and says so, "
          "stalls beyond the timer's interrupts are counted and said, and "
          "the timer's interrupts are seen" % 384,
          gaps and any(g["interrupts"] > 0 for g in gaps) and all(
              g["status"] == "ok"
              and g["stalls"] == max(0, g["gaps"] - g["interrupts"])
              and (bool(g["histogram"]) or "percentiles only" in g["note"])
              and (not g["stalls"] or "stalls" in g["note"])
              for g in gaps),
          str([(g["scheme"], g["status"], g.get("note")) for g in gaps]))
    rescue_parts(o.results)


U_BOOT_CONFIG = ("handoff = serial\nschemes = direct, push-jmp\n"
                 "variants = none, gs-swapgs\nsources = int, ipi-self-xapic, "
                 "lapic-oneshot\n")


def u_boot_sse(o):
    """U-Boot's EFI (docs/run.md "The FPU and SSE"), which leaves
    CR4.OSFXSR clear, where LDMXCSR raises #UD: phase A says what it
    found, phase B makes the x87 and SSE its own before it measures and
    gives them back before the firmware runs again; the blob comes out
    on COM1 (handoff = serial: U-Boot keeps no variable store across
    boots) and irqlab-rescue --blob writes every row of the plan."""
    log = serial(o.run_dir, 1)
    found = re.search(r"^phase A: x87 and SSE: CR0 ([0-9a-f]+), CR4 "
                      r"([0-9a-f]+): not as UEFI requires \(2\.10, "
                      r"section 2\.3\.4", log, re.M)
    check("u-boot: U-Boot's EFI left CR4.OSFXSR (bit 9) clear; phase A's "
          "line says the state is not as UEFI requires, and phase B says "
          "it made the x87 and SSE its own",
          found is not None and not int(found.group(2), 16) & 0x200
          and "phase B: the x87 and SSE made irqlab's" in log,
          found.group(0) if found else log[-600:])
    handed = statuses(o.run_dir, 1, "serial-handoff")
    doc = o.doc if o.rc == 0 else None
    rows = (doc or {}).get("experiments", [])
    bad = [(e["name"], e["status"], e["reason"]) for e in rows
           if e["status"] not in ("ok", "skipped")
           or e["status"] == "skipped" and not e["reason"]]
    check("u-boot: the run measured in one boot, printed its blob on COM1, "
          "and irqlab-rescue --blob wrote results.json from it with rows, "
          "each ok or skipped with a reason; no fault in irqlab or in a "
          "runtime service",
          o.rc == 0 and len(handed) == 1 and rows and not bad
          and "irqlab faulted" not in log and "framework fault" not in log
          and "faulted (" not in log,
          "rc %s, %s, %d rows, %s, %s" % (o.rc, handed, len(rows), bad[:4],
                                          log[-600:]))
    check_run_whole("u-boot", doc, log)
