"""Result checks common to many entries: every source in the modes it
must run in, the gap method, the relations between a row's figures, and
every row ending ok or skipped with a reason."""

import re

from figures import PHASE_DEPENDENT_SOURCES
from harness import GAP_SAMPLES, PASSES, check, experiment, load_results
from row_checks import (GATE_TIMED_SAVES, SCHEMES_RUN, SCHEMES_SKIPPED,
                        WINDOW_ENTRY, WINDOW_EXIT, median, seed_rows_off)


# Every source, with the modes it must run in. TSC-deadline is never
# offered under TCG (docs/toolchain.md).
EITHER_MODE_SOURCES = ("lapic-oneshot", "lapic-periodic", "ioapic-edge",
                       "ioapic-level", "pic8259")
XAPIC_ONLY_SOURCES = ("ioapic-level-uncached-nf", "ioapic-level-index-cached",
                      "ioapic-level-index-cached-nf",
                      "ioapic-level-value-cached",
                      "ioapic-level-value-cached-nf")
TSC_DEADLINE_REASON = "CPUID.1:ECX[24] (TSC-deadline) is 0"
# bench/run/sources.c source_check_vectors: both ends, both sides of the
# imm8 sign boundary, and a few between.
SOURCE_CHECK_VECTORS = 7
X2APIC_REASON = "CPUID.1:ECX[21] (x2APIC) is 0"


# The IO-APIC access strategies of the level line (bench/run/sources.c),
# each with its ioapic-seq-* primitive; "uncached" is ioapic-level's own.
LEVEL_STRATEGIES = ("uncached", "uncached-nf", "index-cached",
                    "index-cached-nf", "value-cached", "value-cached-nf")
LEVEL_SKIP_REASON = "no HPET timer routes to an IO-APIC input that no ISA IRQ uses"


def check_sources(name, doc, samples, warmup, x2apic, level=True):
    """Every source is a row with a status, in both APIC modes; exactly
    the requested interrupts arrived on the right vector, EOI'd, with no
    spurious ones (a row is ok only then)."""
    def row_ok(row, mode):
        e = experiment(doc, row)
        # Checked on its own vector alone (pic8259) or on every one of
        # source_check_vectors, in both passes.
        vectors = 1 if row.startswith("pic8259") else SOURCE_CHECK_VECTORS
        return (e is not None and e["status"] == "ok"
                and e["apic_mode"] == mode
                and e["delivered"] == PASSES * (samples + warmup)
                and e["vectors_verified"] == PASSES * vectors), e

    modes = [("xapic", "")] + ([("x2apic", "@x2apic")] if x2apic else [])
    level_rows = [s for s in EITHER_MODE_SOURCES + XAPIC_ONLY_SOURCES
                  if s.startswith("ioapic-level")]
    for mode, suffix in modes:
        bad = [e for s in EITHER_MODE_SOURCES
               if level or s not in level_rows
               for ok, e in [row_ok("%s-direct%s" % (s, suffix), mode)]
               if not ok]
        check("%s: every external and timer source delivers exactly its "
              "samples and warm-up on its vector, after every check vector "
              "arrived as itself, in %s mode" % (name, mode), not bad,
              str(bad))
        e = experiment(doc, "lapic-tscdeadline-direct" + suffix)
        check("%s: TSC-deadline is skipped under TCG with its reason (%s)"
              % (name, mode), e is not None and e["status"] == "skipped"
              and e["reason"] == TSC_DEADLINE_REASON, str(e))
    if level:
        bad = [e for s in XAPIC_ONLY_SOURCES
               for ok, e in [row_ok("%s-direct" % s, "xapic")] if not ok]
        check("%s: the level line runs in every IO-APIC access mode" % name,
              not bad, str(bad))
    else:
        # QEMU's pc HPET routes only to GSI 2, the PIT's line.
        rows = [experiment(doc, "%s-direct" % s) for s in level_rows]
        check("%s: the level rows are skipped with the routing reason" % name,
              all(e is not None and e["status"] == "skipped"
                  and e["reason"].startswith(LEVEL_SKIP_REASON) for e in rows),
              str(rows))
    if not x2apic:
        rows = [experiment(doc, r) for r in
                ("ipi-self-x2apic-selfipi-direct", "ipi-self-x2apic-icr-direct")]
        check("%s: x2APIC sources are skipped with the CPUID reason" % name,
              all(e is not None and e["status"] == "skipped"
                  and e["reason"] == X2APIC_REASON for e in rows), str(rows))
        check("%s: no x2APIC rows of the other sources" % name,
              not [e for e in doc["experiments"]
                   if e["name"].endswith("@x2apic")])
    seed = doc["seeds"]["seed_004"]
    measured = [row["this_machine"] is not None for row in seed["rows"]]
    off = seed_rows_off(doc, "seed_004")
    check("%s: seed 004's table has its four controllers, measured where "
          "they can be, each figure its row's round-trip median" % name,
          len(seed["rows"]) == 4 and measured[0]
          and all(measured[1:]) == level and any(measured[1:]) == level
          and not off, "%s %s" % (off, seed))
    seqs = [p for p in doc["primitives"]["rows"]
            if p["name"].startswith("ioapic-seq-")]
    check("%s: the IO-APIC access sequences are timed in all six modes"
          % name, len(seqs) == 6 and all(p["status"] == "ok" for p in seqs),
          str(seqs))


def check_gap_method(name, doc):
    """Seed 000's gap method: every scheme interrupts a TSC loop, and the
    lost time keeps the schemes' order."""
    rows = {g["scheme"]: g for g in doc["gap_method"]["rows"]}
    ok = [rows.get(s, {}) for s in SCHEMES_RUN]
    check("%s: the gap method collected its gaps under every scheme" % name,
          all(g.get("status") == "ok" and g["gaps"] == GAP_SAMPLES
              and sum(b["count"] for b in g["histogram"]) == g["gaps"]
              for g in ok), str(ok)[:600])
    check("%s: under icount every gap was one of the timer's interrupts "
          "(one more may land after the last gap), no stall, no noise, "
          "no note" % name,
          all(g.get("stalls") == 0 and g.get("noise_during_loop") is False
              and g.get("note") is None
              and g.get("interrupts") in (g.get("gaps"), g.get("gaps", 0) + 1)
              for g in ok),
          str([(g.get("gaps"), g.get("interrupts"), g.get("stalls"),
                g.get("note")) for g in ok]))
    if all(g.get("status") == "ok" for g in ok):
        median = {s: rows[s]["cost"]["median"] for s in SCHEMES_RUN}
        check("%s: gap costs keep the order: direct least, int3-byte most"
              % name, all(median["direct"] < median[s] for s in SCHEMES_RUN
                          if s != "direct")
              and max(median.values()) == median["int3-byte"], str(median))
    check("%s: FRED and call16 gap rows are skipped, saying why: no FRED "
          "in CPUID, call16 not applicable in long mode" % name,
          rows.get("fred", {}).get("status") == "skipped"
          and rows["fred"].get("reason", "").startswith(SCHEMES_SKIPPED["fred"])
          and rows.get("call16", {}).get("status") == "skipped"
          and rows["call16"].get("reason", "").startswith(
              SCHEMES_SKIPPED["call16"]),
          "%s %s" % (rows.get("fred"), rows.get("call16")))


def check_figure_relations(name, doc):
    """What README "Reading the figures" says each figure spans, checked
    exactly under icount."""
    instrument = doc["method"]["instrument_in_handler"]
    check("%s: the instrument inside a handler is measured, constant, and "
          "is its two timestamps" % name,
          instrument["min"] == instrument["max"] > 0, str(instrument))
    ok = [e for e in doc["experiments"] if e["status"] == "ok"
          and not e["source"].startswith(PHASE_DEPENDENT_SOURCES)]
    # The gate's floor saves nothing but what its timestamps clobber:
    # its timed handlers alone push and pop RAX and RDX around them
    # (arch/dispatch/gate.S).
    rows = [e for e in ok if e["scheme"] != "gate"]
    gates = [e for e in ok if e["scheme"] == "gate"]
    bad = [(e["name"], e["round_trip_timed"]["median"],
            e["round_trip"]["median"]) for e in rows
           if e["round_trip_timed"]["median"] - e["round_trip"]["median"]
           != instrument["median"]
           or e["round_trip_timed"]["min"] - e["round_trip"]["min"]
           != instrument["median"]]
    check("%s: every row's timed round trip exceeds its bare one by exactly "
          "the instrument" % name,
          rows and not bad, "%d rows: %s" % (len(rows), bad))
    bad = [(e["name"], e["round_trip_timed"]["median"],
            e["round_trip"]["median"]) for e in gates
           if e["round_trip_timed"]["median"] - e["round_trip"]["median"]
           != instrument["median"] + GATE_TIMED_SAVES]
    check("%s: every gate row's timed round trip exceeds its bare one by "
          "the instrument and its %d saves and restores"
          % (name, GATE_TIMED_SAVES), gates and not bad,
          "%d rows: %s" % (len(gates), bad))
    bad = [e["name"] for e in rows
           if not e["entry"]["median"] + e["exit"]["median"]
           < e["round_trip"]["median"]]
    check("%s: entry and exit fit inside the bare round trip" % name,
          not bad, str(bad))

    # The six IO-APIC access strategies differ only in the sequence that
    # ends the level row's interrupt, timed alone as an ioapic-seq-*
    # primitive: a block of reps_per_block sequences and a fixed rest.
    # A level row's figures sit where the HPET's 10 ns ticks fall, so a
    # build may move them by up to a tick, more than the strategies
    # differ; but within one run, the round trip less its sequence's
    # instructions is one constant for every strategy, and a row run
    # with another's strategy breaks it.
    reps = doc["primitives"]["reps_per_block"]
    seqs = {p["name"]: p for p in doc["primitives"]["rows"]}
    net = {}
    for strategy in LEVEL_STRATEGIES:
        row = experiment(doc, "ioapic-level%s-direct" % (
            "" if strategy == "uncached" else "-" + strategy))
        block = seqs.get("ioapic-seq-" + strategy, {}).get("block")
        if row and row["status"] == "ok" and block:
            net[strategy] = (row["round_trip"]["min"],
                             row["round_trip"]["max"],
                             row["round_trip"]["median"] - block["median"]
                             // reps, block["median"] % reps)
    check("%s: each of the %d IO-APIC level rows' bare round trip, with no "
          "spread, less its access sequence's instructions (its primitive's "
          "block // reps_per_block, the rest alike) is one constant"
          % (name, len(LEVEL_STRATEGIES)),
          len(net) == len(LEVEL_STRATEGIES)
          and all(lo == hi for lo, hi, _, _ in net.values())
          and len({(c, rest) for _, _, c, rest in net.values()}) == 1,
          str(net))

    # Where the timestamps sit, source by source: INT n has no harness;
    # a self-IPI adds the wait window (its ICR write is one instruction,
    # as INT n is); an x2APIC write first loads EDX:EAX (two moves).
    pairs = (("ipi-self-xapic-direct", WINDOW_ENTRY, WINDOW_EXIT),
             ("ipi-self-x2apic-selfipi-direct", WINDOW_ENTRY + 2, WINDOW_EXIT))
    for row, more_entry, more_exit in pairs:
        e = experiment(doc, row)
        if e is None or e["status"] != "ok":
            continue
        got = (median(doc, row, "entry") - median(doc, "int-direct", "entry"),
               median(doc, row, "exit") - median(doc, "int-direct", "exit"))
        check("%s: %s's entry and exit carry exactly the harness README "
              "names (+%d, +%d over INT n)" % (name, row, more_entry,
                                                more_exit),
              got == (more_entry, more_exit), str(got))

    # The gap method measures the bare handler as the interrupted loop
    # sees it: INT n's bare round trip without the INT instruction, plus
    # the xAPIC EOI path, which the self-IPI row carries beyond INT n's
    # (less its wait window).
    gaps = {g["scheme"]: g for g in doc["gap_method"]["rows"]}
    g = gaps.get("direct", {})
    if g.get("status") == "ok":
        rt_int = median(doc, "int-direct", "round_trip")
        eoi = (median(doc, "ipi-self-xapic-direct", "round_trip") - rt_int
               - WINDOW_ENTRY - WINDOW_EXIT)
        check("%s: gap(direct) = INT n's bare round trip - the INT + the "
              "EOI path" % name,
              g["cost"]["min"] == g["cost"]["max"] == rt_int - 1 + eoi,
              "%d - 1 + %d, gap %s" % (rt_int, eoi, g["cost"]))
        check("%s: the periodic timer's bare round trip is the gap plus "
              "its wait window" % name,
              median(doc, "lapic-periodic-direct", "round_trip")
              == g["cost"]["median"] + WINDOW_ENTRY + WINDOW_EXIT,
              str(experiment(doc, "lapic-periodic-direct")["round_trip"]))


def check_every_row_ends_well(label, rc, run_dir, results):
    """Both boots completed, and every row, gap row and primitive ended ok
    or skipped with a reason: none failed or timed out."""
    if not check("%s: both boots completed" % label, rc == 0,
                 "run.sh exit %d, see %s" % (rc, run_dir)):
        return None
    doc, folders = load_results(results)
    if not check("%s: one results folder" % label, doc is not None,
                 str(folders)):
        return None
    rows = (doc["experiments"] + doc["gap_method"]["rows"]
            + doc["primitives"]["rows"])
    bad = [(r.get("name", r.get("scheme")), r["status"], r.get("reason"))
           for r in rows if r["status"] not in ("ok", "skipped")
           or (r["status"] == "skipped" and not r.get("reason"))]
    check("%s: every row ok or skipped with a reason" % label, not bad,
          "%d rows: %s" % (len(rows), bad))
    return doc


def literally(reason):
    """A skip reason matched whole, as written."""
    return re.escape(reason)


def check_skips(label, doc, expected):
    """Exactly the rows `expected` names are skipped, each for the reason
    it gives there: (row pattern, reason pattern) pairs, each matched
    whole, a row named "experiment <name>", "gap <scheme>" or "primitive
    <name>". A skip for any other reason, a row skipped that should have
    run, or one that ran where this CPU lacks its feature, fails; so does
    a pattern that names no row (a list gone stale)."""
    rows = ([("experiment " + e["name"], e) for e in doc["experiments"]]
            + [("gap " + g["scheme"], g) for g in doc["gap_method"]["rows"]]
            + [("primitive " + p["name"], p)
               for p in doc["primitives"]["rows"]])
    wrong = []
    for name, row in rows:
        why = [w for pattern, w in expected if re.fullmatch(pattern, name)]
        if row["status"] == "skipped" and not (
                why and re.fullmatch(why[0], row.get("reason") or "")):
            wrong.append("%s skipped: %s" % (name, row.get("reason")))
        elif row["status"] != "skipped" and why:
            wrong.append("%s %s, not skipped" % (name, row["status"]))
    stale = [pattern for pattern, _ in expected
             if not any(re.fullmatch(pattern, name) for name, _ in rows)]
    check("%s: the rows skipped are exactly those its list names, each for "
          "the reason the list gives" % label,
          not wrong and not stale,
          "%d skipped; " % sum(r["status"] == "skipped" for _, r in rows)
          + "; ".join(wrong[:8] + ["no row is %s" % p for p in stale]))

# Skips, each a (row pattern, reason pattern) pair for check_skips; the
# reasons are bench/run's, each naming the CPUID bit it read.
SKIP_CALL16 = ((r"experiment int-call16|gap call16",
                literally("not applicable in long mode: Intel ignores 66h "
                          "on CALL (a 6-byte call rel32); AMD truncates RIP "
                          "to 16 bits")),)
SKIP_ONE_CPU = ((r"experiment ipi-cpu-(roundtrip(-halted|-mwait)?|nmi)-direct"
                 r"(@x2apic)?",
                 literally("no other processor to send to: the MADT lists "
                           "this processor alone")),)
# The gate's gap row where the clock counts instructions, or nearly:
# its interrupts cost the loop too little to see (docs/long-mode.md).
SKIP_GATE_GAP = ((r"gap gate",
                  r"the timer's \d+ interrupts arrived, but 0 cost the loop "
                  r"more than the threshold \(\d+\): too cheap for the gap "
                  r"method to see"),)
SKIP_FRED = ((r"experiment int-fred(-linux)?|gap fred(-linux)?",
              literally("CPUID.(7,1):EAX[17] (FRED) is 0 on this CPU")),)
SKIP_TSC_DEADLINE = ((r"experiment lapic-tscdeadline-direct",
                      literally("CPUID.1:ECX[24] (TSC-deadline) is 0")),)
SKIP_LKGS = ((r"experiment int-direct\+gs-lkgs|primitive lkgs",
              literally("CPUID.(7,1):EAX[18] (LKGS) is 0 on this CPU")),)
# The mitigations' bits (row_checks MITIGATION_SKIPPED); IBRS and IBPB
# as the bits of CPUID 80000008H name them.
SKIP_PCID = (
    (r"experiment int-direct\+pti-cr3-pcid(\+cold)?|primitive mov-cr3-noflush",
     literally("CPUID.1:ECX[17] (PCID) is 0 on this CPU")),)
SKIP_IBRS_IBPB = (
    (r"experiment int-direct\+ibrs(\+cold)?|primitive wrmsr-spec-ctrl",
     literally("CPUID.80000008H:EBX[14] (IBRS) is 0 on this CPU")),
    (r"experiment int-direct\+ibpb(\+cold)?|primitive wrmsr-pred-cmd",
     literally("CPUID.80000008H:EBX[12] (IBPB) is 0 on this CPU")),
)
SKIP_X2APIC = ((r"experiment ipi-self-x2apic-(selfipi|icr)-direct",
                literally("CPUID.1:ECX[21] (x2APIC) is 0")),)
SKIP_FSGSBASE = ((r"experiment int-direct\+gs-wrgsbase|primitive wrgsbase",
                  literally("CPUID.(7,0):EBX[0] (FSGSBASE) is 0: wrgsbase "
                            "would be #UD")),)
# What no QEMU TCG model offers on one processor under icount: FRED, the
# TSC-deadline timer, LKGS, PCID, IBRS and IBPB, a second processor;
# with call16, which long mode cannot run, and the gate's gap row.
TCG_SKIPS = (SKIP_CALL16 + SKIP_ONE_CPU + SKIP_GATE_GAP + SKIP_FRED
             + SKIP_TSC_DEADLINE + SKIP_LKGS + SKIP_PCID + SKIP_IBRS_IBPB)
