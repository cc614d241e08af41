"""Between CPUs: the other processors' start-up, the cross-CPU rows and
section, a faulting sender, and the matrix run on another CPU, under
plain TCG and under icount."""

import json
import os
import re
import socket
import tempfile
import threading
import time

from harness import (BUILD, ICOUNT_CROSS_SAMPLES, ICOUNT_CROSS_WARMUP,
                     TINY_SAMPLES, TINY_WARMUP, TPM_OFF, boot_processor_ms,
                     check,
                     entry_thread,
                     matrix_cells, result_folders, run, serial, statuses)
from row_checks import SCHEMES_RUN, qemu_has_tcg_x2apic


def other_cpus(tiny):
    """-smp 4 (two sockets of two cores): phase B starts the three other
    processors the MADT lists at once, and parks them halted in irqlab's
    loop (arch/ap.c); QEMU's monitor then shows the three halted in long
    mode, not at the reset vector, while phase B measures: they are no
    longer parked with INIT between rows, so that they start once a boot
    (docs/cross-cpu.md "Starting the other processors"). The run takes
    about as long as with -smp 1, where firmware loops on the other vCPUs
    once took a host core each. Each sits where QEMU's topology says."""
    name = "other-cpus"
    sock = os.path.join(tempfile.mkdtemp(prefix="irqlab-mon-"), "monitor.sock")
    # The cross-CPU rows and section start the others again; the
    # cross-cpu run has them, and this one shows the others parked while
    # CPU 0 measures.
    config = (tiny + "schemes = direct\nvariants = none\ncpus = 0\n"
              + SINGLE_CPU_SOURCES)
    seen = {}
    result = {}
    done = threading.Event()

    def measure():
        try:
            result["run"] = run(name + "-4", "", config=config,
                                extra_env={"TPM": "off",
                                           "SMP": "4,sockets=2,cores=2",
                                           "MONITOR": sock})
        finally:
            done.set()

    alone = run(name + "-1", "", config=config, extra_env=TPM_OFF)
    runner = entry_thread("other-cpus: the -smp 4 run", measure)
    runner.start()
    log = os.path.join(BUILD, name + "-4", "boot1.log")
    # Up to three looks: on a loaded host the monitor may answer late,
    # or catch a parked processor between a wake-up and its HLT.
    looks = 0
    while not done.wait(0.2) and looks < 3 and not seen.get("all_parked"):
        try:
            with open(log, "rb") as f:
                if b"irqlab-status: other-cpus" not in f.read():
                    continue
            with socket.socket(socket.AF_UNIX) as mon:
                mon.settimeout(30)
                mon.connect(sock)
                mon.recv(4096)
                mon.sendall(b"info registers -a\n")
                out = b""
                while out.count(b"HLT=") < 4:
                    try:
                        chunk = mon.recv(65536)
                    except socket.timeout:
                        break
                    if not chunk:
                        break
                    out += chunk
                # the last CPU's dump to its end
                time.sleep(0.5)
                mon.settimeout(0.5)
                try:
                    out += mon.recv(65536)
                except socket.timeout:
                    pass
            looks += 1
            seen["cpus"] = out.decode("latin-1")
            seen["looks"] = looks
            others = re.split(r"\nCPU#", "\n" + seen["cpus"])[2:]
            seen["all_parked"] = len(others) == 3 and all(
                re.search(r"HLT=1", d) and re.search(r"RIP=", d)
                for d in others)
        except OSError:
            pass
    runner.join()
    rc, run_dir, _ = result["run"]
    parked = statuses(run_dir, 1, "other-cpus")
    # Each CPU's dump: "CPU#n", then its registers. In long mode QEMU
    # prints the 64-bit registers (RIP=); a processor in wait-for-SIPI
    # would hold the reset state instead (EIP fff0, SDM vol. 3A §9.1.1,
    # Table 9-1). The three parked ones halt (HLT=1) in long mode.
    dumps = re.split(r"\nCPU#", "\n" + seen.get("cpus", ""))[1:]
    states = [(bool(re.search(r"HLT=1", d)), bool(re.search(r"RIP=", d)),
               bool(re.search(r"[ER]IP=0*fff0 ", d))) for d in dumps]
    check("other-cpus: with -smp 4 phase B starts the 3 other processors "
          "into long mode together, in one start (INIT, 10 ms, SIPI, each "
          "reaching ap_main), parks them halted in irqlab's loop, and "
          "QEMU's monitor shows CPUs 1-3 halted in long mode, not at the "
          "reset vector (no longer parked with INIT between rows), while "
          "CPU 0 measures",
          rc == 0 and parked and parked[0].get("started") == "3"
          and parked[0].get("listed") == "4" and parked[0].get("parked") == "3"
          and parked[0].get("stuck") == "0"
          and parked[0].get("rounds") == "1" and len(states) == 4
          and states[0][1:] == (True, False)
          and all(st == (True, True, False) for st in states[1:]),
          "rc %d, %s, HLT, RIP and reset vector per CPU %s (look %s)"
          % (rc, parked, states, seen.get("looks")))
    # QEMU numbers the APIC IDs socket by socket: CPU 1 shares CPU 0's
    # socket (and its last-level cache, a socket's), CPUs 2 and 3 are
    # the other socket's (bench/model/topology.c).
    folders = result_folders(os.path.join(run_dir, "results"))
    topology = None
    if folders:
        with open(os.path.join(run_dir, "results", folders[0],
                               "results.json")) as f:
            topology = json.load(f)["machine"]["topology"]
    check("other-cpus: where the 3 sit from CPU 0 follows the topology QEMU "
          "gives (-smp 4,sockets=2,cores=2): one behind the same last-level "
          "cache, two in the other package, in the status line and the "
          "results",
          parked and parked[0].get("relations")
          == "same-llc:1/other-package:2"
          and topology is not None and topology["package_shift"] == 1
          and topology["other_cpus"] == {"smt-sibling": 0, "same-llc": 1,
                                         "same-package": 0,
                                         "other-package": 2, "unknown": 0},
          "%s %s" % (parked, topology))
    # Processor time, not wall time: parked processors halt, so QEMU
    # spends about what it spends with one; spinning, three more vCPUs
    # would spend their own. Wall time also grows with what else the host
    # runs (make test beside two emulators, docs/testing.md).
    one, four = (boot_processor_ms(alone[1], 1),
                 boot_processor_ms(run_dir, 1))
    check("other-cpus: the measuring boot costs QEMU about as much processor "
          "time with -smp 4 as with -smp 1 (at most 1.5 times, plus 5 s)",
          alone[0] == 0 and one is not None and four is not None
          and four <= 1.5 * one + 5000,
          "-smp 1: %s ms, -smp 4: %s ms" % (one, four))


CROSS_CPU_SOURCES = ("ipi-cpu-roundtrip", "ipi-cpu-roundtrip-halted",
                     "ipi-cpu-roundtrip-mwait", "ipi-cpu-nmi")
SINGLE_CPU_SOURCES = ("sources = int, ipi-self-xapic, ipi-self-x2apic-selfipi, "
                      "ipi-self-x2apic-icr, lapic-oneshot, lapic-periodic, "
                      "lapic-tscdeadline, ioapic-edge, ioapic-level, "
                      "pic8259\n")
CROSS_CPU_STATES = {"ipi-cpu-roundtrip": "spin",
                    "ipi-cpu-roundtrip-halted": "halt",
                    "ipi-cpu-roundtrip-mwait": "mwait",
                    "ipi-cpu-nmi": "spin"}


def parked_for_good(label, o, started, left_in_init):
    """The end of phase B (docs/cross-cpu.md "Parked for good"): the
    started processors halted for good in irqlab's loop, none sent INIT
    there; and the reset's status line, of phase B's last runtime call,
    says how many of phase B's runtime calls (the handoff's SetVariable
    calls, then ResetSystem) met a processor an INIT had left in
    wait-for-SIPI: none, or, where `left_in_init` did not arrive after
    their start and got INIT, every call."""
    reset = statuses(o.run_dir, 1, "reset")[-1:]
    log = serial(o.run_dir, 1)
    parked = re.findall(r"other CPUs: (\d+) parked for good, halted with "
                        r"interrupts off in irqlab's loop \((\d+) late", log)
    line = reset[0] if reset else {}
    calls = int(line.get("runtime_calls", 0))
    check("%s: at the end of phase B its %d running processor(s) are parked "
          "for good, halted in irqlab's loop, none late, none sent INIT; "
          "phase B's runtime calls (the handoff's SetVariable calls, then "
          "ResetSystem), at least 3, each met %s in wait-for-SIPI"
          % (label, started, "no processor" if not left_in_init else
             "the %d that did not arrive after their start" % left_in_init),
          parked == [(str(started), "0")] and calls >= 3
          and line.get("beside_wait_for_sipi") == str(
              calls if left_in_init else 0)
          and line.get("in_wait_for_sipi") == str(left_in_init)
          and "parked with INIT" not in log,
          "%s %s" % (parked, line))


def cross_cpu(o):
    """-smp 4 (two sockets of two cores): each cross-CPU source runs in
    xAPIC and x2APIC mode against the closest other CPU (behind the same
    last-level cache), spinning, halted and in MWAIT. Every IPI sent
    arrives once and is answered once: the target's handler took exactly
    the interrupts CPU 0's handler counted, no AP faulted, every AP took
    each command, and phase C ran after they were parked again."""
    rows = {e["name"]: e for e in (o.doc or {}).get("experiments", [])}
    lines = statuses(o.run_dir, 1, "cross-cpu")
    # The last line of a source in a mode is its measuring pass's.
    last = {}
    for line in lines:
        last[(line.get("source"), line.get("mode"))] = line
    per_row = (TINY_SAMPLES + TINY_WARMUP) * 2
    bad = []
    for source in CROSS_CPU_SOURCES:
        for mode, suffix in (("xapic", ""), ("x2apic", "@x2apic")):
            name = "%s-direct%s" % (source, suffix)
            row, line = rows.get(name), last.get((source, mode), {})
            # TCG's MWAIT with several vCPUs is a PAUSE: the target wakes
            # at once every time, and the row is skipped for what the
            # emulator lacks, saying so with the count.
            mwait = source == "ipi-cpu-roundtrip-mwait"
            if not (row and (row["status"] == "skipped"
                             and "it did not wait" in row["reason"]
                             and row["target_wakeups_without_interrupt"]
                             > per_row // 100
                             and line.get("wakeups") == str(
                                 row["target_wakeups_without_interrupt"])
                             if mwait else row["status"] == "ok")
                    and row["delivered"] == per_row
                    and line.get("took") == str(per_row)
                    and line.get("target_took") == str(per_row)
                    and line.get("faults") == "0" and line.get("late") == "0"
                    and line.get("relation") == "same-llc"
                    and line.get("told") == CROSS_CPU_STATES[source]):
                bad.append("%s: %s %s" % (name, row and (
                    row["status"], row.get("reason"), row["delivered"]),
                    line))
    check("cross-cpu: with -smp 4 each of the %d cross-CPU sources, in xAPIC "
          "and x2APIC mode, runs against the same-llc CPU, waiting as its "
          "row says: ok, but the MWAIT row, skipped because its target woke "
          "more than once per 100 interrupts without one (TCG's MWAIT does "
          "not wait), the count in results.json and the status line; CPU "
          "0's handler counted %d interrupts and the target's took exactly "
          "as many, with no fault and every command taken"
          % (len(CROSS_CPU_SOURCES), per_row),
          o.rc == 0 and not bad and len(lines) > 0, "; ".join(bad) or
          "rc %d, %d status lines" % (o.rc, len(lines)))
    parked_for_good("cross-cpu", o, 3, 0)
    # What the target did, counted by itself: every HLT or MWAIT it
    # served, read once it stopped waiting. Halted, each IPI ended one,
    # as did each wake-up without an interrupt, and the command that
    # ended the row may have ended one more; TCG's MWAIT returns at once,
    # so it served at least one per IPI, and the command that ended the
    # row may have ended one HLT: its wake-up IPI, sent while the target
    # was in MWAIT, can arrive once the target has taken the command and
    # halted; a spinning target, never seen waiting, served none.
    did = []
    for source in CROSS_CPU_SOURCES:
        for mode in ("xapic", "x2apic"):
            line = last.get((source, mode), {})
            halts, mwaits = (int(line.get(k, -1)) for k in ("halts",
                                                               "mwaits"))
            woke = per_row + int(line.get("wakeups", 0))
            told = CROSS_CPU_STATES[source]
            if not (woke <= halts <= woke + 1 and mwaits == 0
                    if told == "halt" else halts <= 1 and mwaits >= per_row
                    if told == "mwait" else halts == 0 and mwaits == 0):
                did.append("%s %s: %s" % (source, mode, line))
    check("cross-cpu: each target did what it was told, by its own count: "
          "halted, its %d IPIs and each wake-up without an interrupt each "
          "ended one HLT (one more at most for the command that ended the "
          "row) and no MWAIT; in MWAIT, at least %d MWAITs and at most "
          "the one HLT that command may end; spinning, neither"
          % (per_row, per_row),
          o.rc == 0 and not did, "; ".join(did))
    sweeps = [l for l in lines if l.get("took") == "1"]
    check("cross-cpu: the vector sweep fired each cross-CPU row's 7 vectors "
          "at the target one by one, each taken once there and answered",
          len(sweeps) == 7 * 2 * 2 * len(CROSS_CPU_SOURCES)
          and all(l.get("target_took") == "1" for l in sweeps),
          "%d single-interrupt lines of %d" % (len(sweeps), len(lines)))


def cross_cpu_section(o):
    """-smp 4: the cross-CPU section after the rows. The broadcasts reach
    the 3 others and wait for 3 acks; every ordered pair of the 4 CPUs
    has its acked row, in the relation QEMU's topology gives; the one-way
    rows carry a measured TSC offset bound and are skipped, since TCG
    offers no invariant TSC; the others' handlers took exactly the IPIs
    sent to them; summary.txt draws the matrix."""
    x = (o.doc or {}).get("cross_cpu", {})
    rows = x.get("rows", [])
    samples = TINY_SAMPLES // 4 + TINY_WARMUP
    cells = matrix_cells(x)
    near = {(0, 1), (1, 0), (2, 3), (3, 2)}
    broadcasts = [r for r in rows if r["target"] == "all"]
    check("cross-cpu: the broadcast and the per-target loop each waited "
          "for the 3 others' acks, in every sample",
          len(broadcasts) == 2 and all(
              r["status"] == "ok" and r["targets"] == 3
              and r["samples"] == TINY_SAMPLES // 4
              for r in broadcasts), str(broadcasts))
    check("cross-cpu: the matrix takes the 4 CPUs in topology order, each "
          "of its 12 ordered pairs a cell, its ipi-ack a median, same-llc "
          "within a socket and other-package across, %d samples each"
          % (TINY_SAMPLES // 4),
          [c["apic_id"] for c in x.get("matrix", {}).get("cpus", [])]
          == [0, 1, 2, 3] and len(cells) == 12 and all(
              isinstance(c["ipi-ack"], int) and c["relation"] ==
              ("same-llc" if k in near else "other-package")
              for k, c in cells.items())
          and x["matrix"]["samples_per_pair"] == TINY_SAMPLES // 4,
          str(list(cells.items())[:4]))
    one_way = [r for r in rows if r["kind"] == "ipi-oneway"]
    # QEMU's vCPUs read one clock, so the offset between any two of
    # them is 0, and a bound that leaves 0 out is measured wrongly.
    check("cross-cpu: every pair's one-way figure is skipped because TCG's "
          "TSC is not invariant, never shown; the one-way rows kept in "
          "full (2) each carry a measured TSC offset bound holding the "
          "vCPUs' offset of 0 (low <= 0 <= high)",
          len(cells) == 12 and all(c["ipi-oneway"] ==
                                   "skipped: not-invariant"
                                   for c in cells.values())
          and "invariant TSC" in x["matrix"]["why"].get("not-invariant", "")
          and len(one_way) == 2 and all(
              r["status"] == "skipped" and "invariant TSC" in r["reason"]
              and r.get("tsc_offset")
              and r["tsc_offset"]["low"] <= 0 <= r["tsc_offset"]["high"]
              and "time" not in r for r in one_way),
          str(one_way[:2]))
    took = [l for l in statuses(o.run_dir, 1, "cross-cpu")
            if l.get("source") == "cross-cpu"]
    # Each AP: 2 broadcast rows, and 3 senders' pair rows, every sample
    # and warm-up one IPI.
    want = 3 * (2 + 3) * samples
    check("cross-cpu: the other processors' handlers took exactly the %d "
          "IPIs the section sent them, none faulted" % want,
          len(took) == 1 and took[0].get("took") == str(want)
          and took[0].get("faults") == "0", str(took))
    summary = o.file("summary.txt") if o.folders else ""
    check("cross-cpu: summary.txt has the section, each relation's median "
          "and the 4 by 4 matrix",
          "Between CPUs" in summary and "ipi-ack medians, sender (row)" in
          summary and re.search(r"^ipi-ack\s+same-llc\s+\d+\s+4$",
                                summary, re.M)
          and re.search(r"^ipi-ack\s+other-package\s+\d+\s+8$",
                        summary, re.M), summary[-1500:])
    kept = [r for r in rows if "distribution" in r]
    check("cross-cpu: the first acknowledged pair of each relation (same-llc "
          "0 -> 1, other-package 0 -> 2) keeps its distribution, whose "
          "buckets count its %d samples, and no other pair does"
          % (TINY_SAMPLES // 4),
          [(r["relation"], r["sender"], r["target"]) for r in kept]
          == [("same-llc", 0, 1), ("other-package", 0, 2)]
          and all(r["kind"] == "ipi-ack" and sum(b[2] for b in r[
              "distribution"]) == r["samples"] for r in kept),
          str([(r["relation"], r["sender"], r["target"],
                r.get("samples")) for r in kept]))


def cross_cpu_fault(o):
    """-smp 4 with cpus = 0, 2, 3 and simulate = ap-fault: the matrix
    takes the boot CPU and the MADT's CPUs 2 and 3 (APIC ids 2 and 3),
    6 ordered pairs. The first other processor to send (APIC id 2) raises
    #UD instead: it is recorded with its CPU, it parks itself, the pairs
    it is part of from then on fail saying so, and every other pair and
    the run go on."""
    pairs = matrix_cells((o.doc or {}).get("cross_cpu", {}))
    fails = {(2, 0), (2, 3), (3, 2)}
    log = serial(o.run_dir, 1) if o.run_dir else ""
    line = [l for l in statuses(o.run_dir, 1, "cross-cpu")
            if l.get("source") == "cross-cpu"]
    check("cross-cpu-fault: cpus = 0, 2, 3 takes 3 processors (6 ordered "
          "pairs); the #UD on APIC id 2 is logged with its CPU, fails the "
          "3 pairs it is part of from then on, their cells saying "
          "failed: faulted, and the other 3 pairs and the run go on",
          o.rc == 0 and set(pairs) == {(0, 2), (0, 3), (2, 0), (2, 3),
                                       (3, 0), (3, 2)}
          and all(r["ipi-ack"] == "failed: faulted" if k in fails
                  else isinstance(r["ipi-ack"], int)
                  for k, r in pairs.items())
          and "CPU 2, APIC id 2: exception 6; it parked itself" in log
          and len(line) == 1 and line[0].get("faults") == "1",
          "rc %d, %s, %s" % (o.rc, [(k, r["ipi-ack"])
                                    for k, r in pairs.items()], line))
    rows = {e["name"]: e for e in (o.doc or {}).get("experiments", [])}
    boot, there = rows.get("int-direct"), rows.get("int-direct@cpu3")
    check("cross-cpu-fault: matrix_cpus = 3 runs int-direct again on CPU 3 "
          "(the other socket), in the boot CPU's place, ok with as many "
          "interrupts as the boot CPU's row; a processor that is not hybrid "
          "says so",
          boot and there and boot["status"] == "ok"
          and there["status"] == "ok" and there["on_cpu"] == 3
          and there["delivered"] == boot["delivered"]
          and there["core_type"] == "not-hybrid",
          str(there and (there["status"], there.get("reason"),
                         there["delivered"])))


# The rows the matrix_cpus tests run on another processor.
MATRIX_CPU_SOURCES = ("int", "ipi-self-xapic", "ipi-self-x2apic-icr")


def check_other_cpu_clocks(label, o, cpus, starts):
    """Each processor in `cpus` (MADT indexes) that ran rows or sent IPIs
    has its own clock entry: under QEMU's TCG, which has no clock
    controls and no APERF/MPERF, not pinned for the boot CPU's reason,
    LFENCE as the boot CPU found it, no ratio; pinned exactly `starts`
    times, once for each start it then worked after (phase B's start is
    the first; only a row in the boot CPU's place, after which it gets
    INIT and starts again, makes another), and put back before each INIT
    and the park for good; the summary
    and the log say so for each."""
    doc = o.doc or {}
    clocks = {c["cpu"]: c for c in doc.get("clock", {}).get("other_cpus", [])}
    boot_pin = doc.get("platform", {}).get("frequency-pin", {})
    summary = o.file("summary.txt") if o.folders else ""
    log = serial(o.run_dir, 1) if o.run_dir else ""
    check("%s: each processor that ran rows or sent IPIs (CPU %s) is "
          "recorded not pinned, with the boot CPU's reason, LFENCE "
          "'serialising' or 'in-order', no APERF/MPERF ratio, pinned after "
          "%d start(s) and put back before each INIT and the park for "
          "good; summary.txt and the log say so for each" % (label, ", ".join(map(str, cpus)), starts),
          set(clocks) == set(cpus)
          and boot_pin.get("state") == "absent"
          and boot_pin.get("detail", "").startswith("not pinned: ")
          and all(c["pinned"] is False and c["pin"] == "not-pinned"
                  and c["pin_reason"] == "as the boot CPU: "
                  + boot_pin["detail"]
                  and c["lfence"] in ("serialising", "in-order")
                  and c["aperf_mperf_milli"] is None
                  and c["aperf_mperf"] == "absent on the boot CPU"
                  and c["starts"] == starts and c["restored"] is True
                  for c in clocks.values())
          and all(summary_says_clock(summary, n, "as the boot CPU: not "
                                     "pinned: ")
                  and "other CPUs: CPU %d: clock not-pinned, LFENCE " % n
                  in log for n in cpus),
          "boot CPU: %s; %s" % (boot_pin.get("detail"),
                                list(clocks.values())))


def summary_says_clock(summary, cpu, text):
    """Whether summary.txt's clock lines say `text` of processor `cpu`:
    on its own line ("CPU 3: ..."), or on one of consecutive processors
    that say the same ("CPUs 1-3: ...")."""
    for m in re.finditer(r"^ +CPUs? (\d+)(?:-(\d+))?: (.*)$", summary,
                         re.M):
        low, high = int(m.group(1)), int(m.group(2) or m.group(1))
        if low <= cpu <= high and m.group(3).startswith(text):
            return True
    return False


def matrix_on_cpu1_icount(o):
    """-smp 2 under -icount, matrix_cpus = 1, 5: CPU 1 takes the boot
    CPU's place for INT n and the self-IPIs under every scheme, in xAPIC
    and x2APIC mode, while the boot CPU halts. Under -icount a halted
    vCPU runs nothing, so CPU 1's figures are its own path lengths: each
    must equal the boot CPU's, to the instruction. CPU 5 is not in the
    MADT: its rows are skipped, saying so."""
    rows = {e["name"]: e for e in (o.doc or {}).get("experiments", [])}
    boot = [e for e in rows.values() if e["on_cpu"] is None
            and e["cpu_mode"] == "long"
            and e["source"] in MATRIX_CPU_SOURCES and e["status"] == "ok"]
    schemes = {e["scheme"] for e in boot if e["source"] == "int"}
    bad = []
    for e in boot:
        twin = rows.get(e["name"] + "@cpu1")
        if not twin or twin["status"] != "ok" or twin["on_cpu"] != 1 \
                or twin["delivered"] != e["delivered"] \
                or any(twin[k]["median"] != e[k]["median"]
                       for k in ("entry", "exit", "round_trip")):
            bad.append((e["name"], twin and (twin["status"],
                        twin.get("reason"), [twin.get(k, {}).get("median")
                        for k in ("entry", "exit", "round_trip")])))
    # Under TCG's max model: every long-mode scheme but FRED's and
    # call16 (SCHEMES_SKIPPED), and the gate; INT n and the xAPIC
    # self-IPI under each, the x2APIC one under direct where QEMU's TCG
    # has x2APIC.
    want_schemes = set(SCHEMES_RUN) | {"gate"}
    want_rows = 2 * len(want_schemes) + (1 if qemu_has_tcg_x2apic() else 0)
    check("matrix-on-cpu1-icount: every boot-CPU row of INT n and the "
          "self-IPIs (%d rows, INT n under the %d schemes TCG runs) ran "
          "again on CPU 1, ok, with as many interrupts and entry, exit and "
          "round-trip medians equal to the boot CPU's to the instruction"
          % (want_rows, len(want_schemes)),
          o.rc == 0 and len(boot) == want_rows and schemes == want_schemes
          and not bad,
          "rc %s, %d rows, schemes %s: %s" % (o.rc, len(boot),
                                              sorted(schemes), bad[:6]))
    cpu5 = [e for e in rows.values() if e["on_cpu"] == 5]
    check("matrix-on-cpu1-icount: matrix_cpus names CPU 5, which the MADT "
          "of -smp 2 lacks: each of its rows is skipped saying the MADT "
          "lists 2 processors",
          len(cpu5) == len([e for e in rows.values()
                            if e["on_cpu"] is None
                            and e["cpu_mode"] == "long"
                            and e["source"] in MATRIX_CPU_SOURCES])
          and all(e["status"] == "skipped" and "the MADT lists 2 "
                  "processors; there is no CPU 5" in (e.get("reason") or "")
                  for e in cpu5),
          str([(e["name"], e["status"], e.get("reason")) for e in cpu5][:4]))
    side = [r for r in (o.doc or {}).get("matrix_on_other_cpus", [])
            if r["cpu"] == 1 and r["status"] == "ok"]
    log = serial(o.run_dir, 1) if o.run_dir else ""
    summary = o.file("summary.txt") if o.folders else ""
    check("matrix-on-cpu1-icount: results.json sets each CPU 1 row beside "
          "the boot CPU's with entry, exit and round trip 0 over it, in "
          "QEMU -icount's instructions; "
          "summary.txt has the section; the log says CPU 1 took the place "
          "in xAPIC and in x2APIC mode",
          len(side) == len(boot) and all(
              r["status"] == "ok" and r["entry_over_boot"] == 0
              and r["unit"].startswith("instructions (QEMU -icount")
              and r["exit_over_boot"] == 0 and r["round_trip_over_boot"] == 0
              for r in side)
          and "On other processors, each in the boot CPU's place" in summary
          and "CPU 1, APIC id 1, takes the boot CPU's place (xapic)" in log
          and "CPU 1, APIC id 1, takes the boot CPU's place (x2apic)" in log,
          str(side[:3]))
    # Phase B's start; one more after the xAPIC rows in the boot CPU's
    # place (INIT, then started again at once, before the boot CPU's
    # x2APIC rows); and one more after the x2APIC rows there, pinned
    # again for the section between CPUs.
    check_other_cpu_clocks("matrix-on-cpu1-icount", o, [1], 3)


def matrix_all_rows(o):
    """-smp 2,maxcpus=4, matrix_cpus = 1, matrix_cpus_rows = all, and
    the two absent processors tried (absent_ones_named): every long-mode
    row but the 8259's runs again on CPU 1 with the status the boot
    CPU's has, an ok one with as many interrupts: the entry variants, the
    cold state, the local APIC's timers and the IO-APIC's lines, routed
    to CPU 1 in both APIC modes. The 8259, which reaches the boot CPU's
    LINT0 alone, is not run there."""
    rows = {e["name"]: e for e in (o.doc or {}).get("experiments", [])}
    boot = [e for e in rows.values() if e["on_cpu"] is None
            and e["cpu_mode"] == "long" and e["source"] != "pic8259"
            and not e["source"].startswith("ipi-cpu")]
    bad = [(e["name"], rows.get(e["name"] + "@cpu1", {}).get("status"),
            rows.get(e["name"] + "@cpu1", {}).get("reason"))
           for e in boot if e["name"] + "@cpu1" not in rows
           or rows[e["name"] + "@cpu1"]["status"] != e["status"]
           or e["status"] == "ok" and rows[e["name"] + "@cpu1"][
               "delivered"] != e["delivered"]]
    routed = [n for n in rows if n.startswith("ioapic-") and
              n.endswith("@cpu1") and rows[n]["status"] == "ok"]
    check("matrix-all-rows: each of the boot CPU's 19 long-mode rows of "
          "its config (its schemes, variants and cache states under INT n, "
          "each source but the 8259 under direct, the timers and IO-APIC "
          "in both APIC modes) ran again on CPU 1 with the same status and, "
          "where ok, as many interrupts; IO-APIC rows routed to CPU 1 among "
          "them in both APIC modes; no 8259 row on CPU 1",
          o.rc == 0 and len(boot) == 19 and not bad
          and any(n.endswith("@x2apic@cpu1") for n in routed)
          and any(not n.endswith("@x2apic@cpu1") for n in routed)
          and not any(n.startswith("pic8259") and "@cpu" in n for n in rows),
          "rc %s, %d rows, %s, routed %s" % (o.rc, len(boot), bad[:6],
                                              routed))
    absent_ones_named("matrix-all-rows", o)
    # CPU 1 ran rows in the boot CPU's place, and was started again at
    # once after them: the two absent ones are the INIT's alone.
    parked_for_good("matrix-all-rows", o, 1, 2)


def absent_ones_named(label, o):
    """-smp 2,maxcpus=4 with simulate = ap-absent: the two processors the
    MADT lists absent are named, tried as if there, each reported as not
    started after the wait for late ones, and the run goes on with the
    one that is. Plain TCG: under -icount that wait of 5 s is counted
    out in instructions, about 150 s of the host's."""
    parked = statuses(o.run_dir, 1, "other-cpus")
    log = serial(o.run_dir, 1)
    check("%s: the MADT's 2 absent processors are named, "
          "tried under simulate = ap-absent, and each reported as not "
          "started; the present one starts" % label,
          len(parked) == 1 and parked[0].get("listed") == "2"
          and parked[0].get("absent") == "2"
          and parked[0].get("started") == "1"
          and "CPU 2, APIC id 2 (listed absent): did not start" in log
          and "CPU 3, APIC id 3 (listed absent): did not start" in log,
          str(parked))


def cross_cpu_icount(o):
    """-smp 2 under -icount. The cross-CPU figures are QEMU's
    round-robin there, so they are labelled scheduler artefacts and only
    counts are checked: each row's and the section's IPIs all arrive,
    exactly once."""
    rows = {e["name"]: e for e in (o.doc or {}).get("experiments", [])}
    per_row = (ICOUNT_CROSS_SAMPLES + ICOUNT_CROSS_WARMUP) * 2
    line = [l for l in statuses(o.run_dir, 1, "cross-cpu")
            if l.get("source") == "ipi-cpu-roundtrip"][-1:]
    row = rows.get("ipi-cpu-roundtrip-direct")
    check("cross-cpu-icount: the cross-CPU row delivered its %d interrupts, "
          "the target took as many, and the row says its figures are "
          "scheduler artefacts" % per_row,
          o.rc == 0 and row and row["status"] == "ok"
          and row["delivered"] == per_row and line
          and line[0].get("target_took") == str(per_row)
          and line[0].get("target") == "1"
          and "scheduler artefacts" in row.get("between_cpus", ""),
          "%s %s" % (row and (row["status"], row.get("reason"),
                              row["delivered"], row.get("between_cpus")),
                     line))
    x = (o.doc or {}).get("cross_cpu", {})
    pairs = list(matrix_cells(x).values())
    section = [l for l in statuses(o.run_dir, 1, "cross-cpu")
               if l.get("source") == "cross-cpu"]
    samples = max(ICOUNT_CROSS_SAMPLES // 4, 20) + 10
    # The other CPU: the two broadcasts' and the boot CPU's pair's IPIs.
    check("cross-cpu-icount: the section's 2 ordered pairs and broadcasts "
          "are ok, the other CPU took exactly its %d IPIs, and the section "
          "says its figures are scheduler artefacts" % (3 * samples),
          len(pairs) == 2 and all(isinstance(r["ipi-ack"], int)
                                  for r in pairs)
          and "scheduler artefacts" in x.get("figures", "")
          and len(section) == 1
          and section[0].get("took") == str(3 * samples),
          "%s %s %s" % (x.get("figures"), [(r["sender"], r["target"],
                                          r["ipi-ack"]) for r in pairs],
                        section))
    # Started once, by phase B: every row and the section find it
    # parked in irqlab's loop.
    check_other_cpu_clocks("cross-cpu-icount", o, [1], 1)


def cross_cpu_alone(o):
    """-smp 1: no other processor, so each cross-CPU row is skipped with
    the MADT's word for it, never failed or faked."""
    rows = [e for e in (o.doc or {}).get("experiments", [])
            if e["name"].split("-direct")[0] in CROSS_CPU_SOURCES]
    check("cross-cpu: with -smp 1 the %d cross-CPU rows are skipped because "
          "the MADT lists CPU 0 alone" % (2 * len(CROSS_CPU_SOURCES)),
          len(rows) == 2 * len(CROSS_CPU_SOURCES)
          and all(e["status"] == "skipped" and "the MADT lists this "
                  "processor alone" in (e.get("reason") or "")
                  for e in rows), str([(e["name"], e["status"],
                                        e.get("reason")) for e in rows]))
    section = (o.doc or {}).get("cross_cpu", {}).get("rows", [])
    check("cross-cpu: with -smp 1 the cross-CPU section is one skipped row "
          "saying the MADT lists CPU 0 alone",
          len(section) == 1 and section[0]["status"] == "skipped"
          and "the MADT lists this processor alone" in section[0]["reason"],
          str(section))


def cross_cpu_many(o, label, cpus, per_package):
    """-smp N,sockets=2 under plain TCG, on a host of fewer cores
    kept busy: N vCPU threads wait their turn for a core, for tens of
    milliseconds and more. Every other processor starts once, all
    together; every cross-CPU row runs in both APIC modes and is ok (the
    MWAIT row skipped for TCG's MWAIT, which does not wait), however
    late some answers came, each row saying how many; every ordered pair
    of the section is ok, its one-way row skipped for TCG's TSC; the
    section's time on the machine is in the results."""
    doc = o.doc or {}
    parked = statuses(o.run_dir, 1, "other-cpus") if o.run_dir else []
    log = serial(o.run_dir, 1) if o.run_dir else ""
    x = doc.get("cross_cpu", {})
    starts = x.get("starts", {})
    if o.beside_boots is not None:
        check("%s: a second emulator ran beside it, QEMU under plain TCG "
              "with -smp 2 booting irqlab, again each time it ended: at "
              "least one of its boots reached phase A while %s ran, and "
              "its emulators were running at least 95%% of that time"
              % (label, label),
              o.beside_boots >= 1 and o.beside_share >= 0.95,
              "%d boot(s) of the second emulator, running %.1f%% of the "
              "time" % (o.beside_boots, 100 * o.beside_share))
    parts = doc.get("row_counts", {}).get("parts")
    check("%s: with -smp %d phase B starts the %d other "
          "processors together, in one start (INIT, 10 ms, SIPI to each), "
          "and parks all %d; results.json says each processor started "
          "once a boot (starts: together, one per part's boot; at most 1 "
          "per processor)" % (label, cpus, cpus - 1, cpus - 1),
          o.rc == 0 and len(parked) == 1
          and parked[0].get("listed") == str(cpus)
          and parked[0].get("started") == str(cpus - 1)
          and parked[0].get("parked") == str(cpus - 1)
          and parked[0].get("stuck") == "0"
          and parked[0].get("rounds") == "1"
          and "start 1: %d processors at once" % (cpus - 1) in log
          and parts and starts == {"together": parts,
                                   "most_per_processor": 1},
          "rc %d, %s, starts %s, %s part(s)" % (o.rc, parked, starts,
                                                parts))
    rows = {e["name"]: e for e in doc.get("experiments", [])}
    bad, late = [], 0
    for source in CROSS_CPU_SOURCES:
        for suffix in ("", "@x2apic"):
            name = "%s-direct%s" % (source, suffix)
            row = rows.get(name)
            mwait = source == "ipi-cpu-roundtrip-mwait"
            if not (row and (row["status"] == "ok" or mwait and row[
                    "status"] == "skipped" and "it did not wait" in row[
                    "reason"]) and "late_samples" in row):
                bad.append("%s: %s" % (name, row and (row["status"],
                                                      row.get("reason"))))
            else:
                late += row["late_samples"]
    check("%s: each of the %d cross-CPU sources under direct, in "
          "xAPIC and x2APIC mode, is ok (the MWAIT row skipped because "
          "TCG's MWAIT does not wait), each saying how many of its samples "
          "came late" % (label, len(CROSS_CPU_SOURCES)),
          o.rc == 0 and not bad, "; ".join(bad) or "%d late" % late)
    srows = x.get("rows", [])
    cells = matrix_cells(x)
    order = [c["apic_id"] for c in x.get("matrix", {}).get("cpus", [])]
    want = {(a, b) for a in range(cpus) for b in range(cpus) if a != b}
    # a quarter of a row's samples, at most 140,000 over the pairs
    # (cross_samples_per_pair, bench/model/cross_cpu.h)
    samples = max(min(TINY_SAMPLES // 4, 140000 // len(want)), 20)
    # QEMU numbers APIC ids socket by socket: 0-7 the first package,
    # one last-level cache, 8-15 the second.
    near = {(a, b) for a, b in want
            if a // per_package == b // per_package}
    bad = sorted((k, c["relation"], c["ipi-ack"], c["ipi-oneway"])
                 for k, c in cells.items()
                 if not isinstance(c["ipi-ack"], int)
                 or c["relation"] != ("same-llc" if k in near
                                      else "other-package")
                 or not (isinstance(c["ipi-oneway"], int)
                         or c["ipi-oneway"] == "skipped: not-invariant"))
    check("%s: the matrix takes all %d processors in topology "
          "order, and each of their %d ordered pairs has its ipi-ack "
          "median, same-llc within a package and other-package across, "
          "and its one-way figure or skipped because TCG's TSC is not "
          "invariant, %d samples each"
          % (label, cpus, len(want), samples),
          order == list(range(cpus)) and set(cells) == want and not bad
          and x.get("matrix", {}).get("samples_per_pair")
          == samples,
          str(bad[:6]) + " %d cells, order %s" % (len(cells), order))
    broadcasts = [r for r in srows if r["target"] == "all"]
    check("%s: the broadcast and the per-target loop each waited "
          "for all %d others' acks, ok" % (label, cpus - 1),
          len(broadcasts) == 2 and all(r["status"] == "ok"
                                       and r["targets"] == cpus - 1
                                       for r in broadcasts),
          str([(r["kind"], r["status"], r["targets"], r.get("reason"))
               for r in broadcasts]))
    took = [l for l in statuses(o.run_dir, 1, "cross-cpu")
            if l.get("source") == "cross-cpu"] if o.run_dir else []
    machine = x.get("machine_time", {})
    check("%s: the section's time on the machine is in "
          "results.json (cross_cpu.machine_time, ticks and ms), and no "
          "processor faulted or missed a command in it" % label,
          machine.get("ticks", 0) > 0 and machine.get("ms", -1) >= 0
          and len(took) == 1 and took[0].get("faults") == "0"
          and took[0].get("late") == "0",
          "%s %s" % (machine, took))


def matrix_in_parts(o):
    """-smp 72 with cpus = all and a handoff capped at 16 KiB: all 72
    processors make the full matrix, past auto's 64 (docs/cross-cpu.md
    "The full matrix on request"), and its 5,112 cells take several
    parts: each names the next sender for the part after it, which
    measures only the matrix from there (its rows all done), after a
    reset; phase C joins the cells, each ordered pair once."""
    doc = o.doc or {}
    x = doc.get("cross_cpu", {})
    m = x.get("matrix", {})
    cells = matrix_cells(x)
    cpus = 72
    ids = [c["apic_id"] for c in m.get("cpus", [])]
    full = [c["apic_id"] for c in m.get("cpus", []) if c.get("full")]
    want = {(a, b) for a in ids for b in ids if a != b}
    count = len(m.get("cells", []))
    parts = doc.get("handoff", {}).get("parts") or 0
    kept = [k for p in range(2, parts + 1) if o.run_dir
            for k in statuses(o.run_dir, p, "part-kept")]
    log = serial(o.run_dir, 1) if o.run_dir else ""
    bad = [k for k, c in cells.items() if not isinstance(c["ipi-ack"], int)]
    check("matrix-in-parts: with -smp 72 and cpus = all every processor "
          "takes part in the full matrix, past auto's 64",
          o.rc == 0 and len(ids) == cpus and full == ids,
          "rc %s: %d processors, %d in the full matrix"
          % (o.rc, len(ids), len(full)))
    check("matrix-in-parts: with handoff_kib = 16 the matrix fills part "
          "1's handoff and at least one part after it, each naming its "
          "next sender (part-kept's next_sender), and the joined run has "
          "each of the 5,112 ordered pairs exactly once, each with its "
          "ipi-ack median, none dropped and the matrix finished",
          o.rc == 0 and parts >= 3 and len(kept) >= 2
          and all(k.get("next_sender", "0") != "0" for k in kept)
          and "the matrix fills the handoff; its senders from" in log
          and len(want) == cpus * (cpus - 1)
          and set(cells) == want and count == len(want) and not bad
          and m.get("cells_dropped") == 0
          and "unfinished_from_sender" in m
          and m["unfinished_from_sender"] is None,
          "rc %s parts %s kept %s: %d cells (%d distinct), %s bad, "
          "dropped %s, unfinished from %s" % (
              o.rc, parts, kept, count, len(cells), bad[:4],
              m.get("cells_dropped"), m.get("unfinished_from_sender")))


def relation_from_ids(thread_bits, core_bits):
    """Two processors' relation from their APIC IDs alone, as QEMU packs
    an ID (thread in its low `thread_bits`, core above in `core_bits`,
    socket above that; one last-level cache a socket): a check of
    irqlab's decoding of the topology that does not use it."""
    def relation(a, b):
        if a >> (thread_bits + core_bits) != b >> (thread_bits + core_bits):
            return "other-package"
        if a >> thread_bits == b >> thread_bits:
            return "smt-sibling"
        return "same-llc"
    return relation


def matrix_past_64(o):
    """-smp 128,sockets=2,cores=32,threads=2: 64 processors spread over
    the topology order (every second: one thread of each core) make the
    full matrix, each of their 4,032 pairs ok; each of the other 64 is
    measured, both ways, against the boot CPU and a processor of each
    relation it has on this machine (its sibling, its cache, the other
    package); in parts where the handoff needs them (matrix_in_parts)."""
    doc = o.doc or {}
    x = doc.get("cross_cpu", {})
    m = x.get("matrix", {})
    cpus = m.get("cpus", [])
    cells = matrix_cells(x)
    full = [c["apic_id"] for c in cpus if c.get("full")]
    past = [c for c in cpus if not c.get("full")]
    where = {c["apic_id"]: c for c in cpus}
    # -smp 128,sockets=2,cores=32,threads=2: thread bit 0, core bits 1-5.
    relation = relation_from_ids(1, 5)

    want_full = {(a, b) for a in full for b in full if a != b}
    bad_full = [k for k in want_full
                if not isinstance(cells.get(k, {}).get("ipi-ack"), int)]
    check("matrix-past-64: with -smp 128 the full matrix takes 64 "
          "processors, every second in topology order from the boot "
          "CPU's, and each of their 4,032 ordered pairs has its ipi-ack "
          "median",
          o.rc == 0 and len(cpus) == 128 and full == list(range(0, 128, 2))
          and not bad_full,
          "rc %s, %d processors, full %s, %d bad: %s" % (
              o.rc, len(cpus), full[:8], len(bad_full), bad_full[:4]))
    bad = []
    for p in past:
        a = p["apic_id"]
        mine = {k: c for k, c in cells.items() if a in k}
        has = {c["relation"] for c in mine.values()}
        want = {relation(a, q) for q in where if q != a}
        if (has != want or (a, 0) not in mine or (0, a) not in mine
                or any(c["relation"] != relation(*k)
                       for k, c in mine.items())
                or any((k[1], k[0]) not in mine for k in mine)
                or any(not isinstance(c["ipi-ack"], int)
                       for c in mine.values())):
            bad.append((a, sorted(has), sorted(want), len(mine)))
    parts = doc.get("handoff", {}).get("parts")
    check("matrix-past-64: each of the 64 processors past the full matrix "
          "has its pairs, both ways and each ipi-ack ok, with the boot CPU "
          "and with a processor of each relation it has here (sibling, "
          "cache, other package), none dropped",
          o.rc == 0 and len(past) == 64 and not bad
          and m.get("cells_dropped") == 0,
          "%d bad: %s; parts %s, dropped %s" % (
              len(bad), bad[:3], parts, m.get("cells_dropped")))


def cross_cpu_sixteen(o):
    """-smp 16,sockets=2,cores=8: two packages of 8 (cross_cpu_many)."""
    cross_cpu_many(o, "cross-cpu-16", 16, 8)


def cross_cpu_sixty_four(o):
    """-smp 64,sockets=2,cores=32: two packages of 32, 4,032 pairs, each
    taking 34 samples (cross_cpu_many)."""
    cross_cpu_many(o, "cross-cpu-64", 64, 32)
