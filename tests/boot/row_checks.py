"""Result checks common to many entries: the rows of each kind in a
results.json, the schemes, the self-IPIs, the mitigations, the
primitives, the i386 rows, the gate and the entry variants, with the
instruction counts they are held to under icount."""

import re
import subprocess

from harness import (COLD_SAMPLES, PASSES, PRIMITIVE_BLOCKS, SAMPLES,
                     THRASH_SAMPLES, WARMUP, check, experiment, omitted_rows)


SCHEMES_RUN = ("direct", "push-jmp", "push-jmp-ibt", "compact", "call",
               "cs-selector", "pf-cr2", "int3-byte")
# Long mode's INT n under icount, net of the floor (build/irqlab-entry.lst,
# docs/instruction-counts.md): direct enters in the INT, its register
# saves and the call up to the entry timestamp, 18, and leaves in the
# restores and iretq after the exit timestamp, 17.
LONG_DIRECT = (18, 17)
# What each scheme's entry adds to direct's, counted in the listing (exits
# are the same): its stub and its decoding of the vector, from an
# immediate, a return address, %cs, CR2 or RIP; pf-cr2 and int3-byte
# also take a second event delivery, which counts 0.
# The gate's floor (arch/dispatch/gate.S): INT n's bare round trip is
# the INT, the handler's count and flag, its jump to gate_ack, the
# compare and branch that find no acknowledgement, and iretq; its timed
# handlers push and pop RAX and RDX around their timestamps.
GATE_INT_ROUND_TRIP = 7
GATE_TIMED_SAVES = 4
LONG_ENTRY_OVER = {"push-jmp": 3, "push-jmp-ibt": 5, "compact": 7,
                   "call": 6, "cs-selector": 3, "pf-cr2": 13,
                   "int3-byte": 19}
# Each scheme's stub and the descriptors it adds, in bytes
# (arch/dispatch/schemes.h and schemes.c).
SCHEME_FOOTPRINTS = {
    "direct": (128, 0), "push-jmp": (8, 0), "push-jmp-ibt": (16, 0),
    "compact": (4, 0), "call": (8, 0), "cs-selector": (0, 224 * 8),
    "pf-cr2": (0, 0), "int3-byte": (2, 0), "gate": (128, 0),
}
# The CPUs QEMU's TCG models never have FRED; call16 cannot exist in long
# mode on any CPU.
SCHEMES_SKIPPED = {
    "fred": "CPUID.(7,1):EAX[17] (FRED) is 0 on this CPU",
    "fred-linux": "CPUID.(7,1):EAX[17] (FRED) is 0 on this CPU",
    "call16": "not applicable in long mode: Intel ignores 66h on CALL",
}


def qemu_has_tcg_x2apic():
    """QEMU offers x2APIC under TCG from 8.1 on (docs/toolchain.md)."""
    out = subprocess.run(["qemu-system-x86_64", "--version"],
                         capture_output=True, text=True).stdout
    major, minor = out.split("version ")[1].split(".")[:2]
    return (int(major), int(minor)) >= (8, 1)


IPI_SOURCES = {"ipi-self-xapic": "xapic",
               "ipi-self-x2apic-selfipi": "x2apic"}


def check_self_ipis(name, doc):
    """Every scheme takes self-IPIs in both APIC modes, each EOI'd."""
    x2apic = qemu_has_tcg_x2apic()
    for source, mode in IPI_SOURCES.items():
        rows = [experiment(doc, "%s-%s" % (source, s)) for s in SCHEMES_RUN]
        if mode == "x2apic" and not x2apic:
            e = experiment(doc, source + "-direct")
            check("%s: %s is skipped: QEMU before 8.1 has no TCG x2APIC"
                  % (name, source), e is not None
                  and e["status"] == "skipped"
                  and e["reason"] == "CPUID.1:ECX[21] (x2APIC) is 0", str(e))
            continue
        bad = [e for e in rows if e is None or e["status"] != "ok"
               or e["apic_mode"] != mode or e["vectors_verified"] != PASSES * 7
               or e["delivered"] != PASSES * (SAMPLES + WARMUP)]
        check("%s: every scheme takes %s on 7 vectors, EOI'd, ISR clear"
              % (name, source), not bad, str(bad))
        entry = {s: experiment(doc, "%s-%s" % (source, s))["entry"]["median"]
                 for s in SCHEMES_RUN if not bad}
        check("%s: %s keeps the order: direct shortest, pf-cr2 and "
              "int3-byte longest" % (name, source), not bad and all(
                  entry["direct"] < entry[s] for s in SCHEMES_RUN
                  if s != "direct") and all(
                  entry[s] > entry["cs-selector"]
                  for s in ("pf-cr2", "int3-byte")), str(entry))
    icr = experiment(doc, "ipi-self-x2apic-icr-direct")
    check("%s: the x2APIC ICR self-IPI runs where x2APIC does" % name,
          icr is not None and icr["status"] == ("ok" if x2apic else "skipped"),
          str(icr))


def check_schemes(name, doc):
    """Every scheme: correct in long mode, measured, and ordered as the
    design says under icount."""
    for scheme in SCHEMES_RUN:
        e = experiment(doc, "int-" + scheme)
        ok = (e is not None and e["status"] == "ok"
              and e["vectors_verified"] == PASSES * 224
              and e["register_checks"] == PASSES * 512
              and e["delivered"] == PASSES * (SAMPLES + WARMUP)
              + e["discarded"])
        check("%s: %s delivers vectors 32-255 as themselves, keeps every "
              "register and RFLAGS, and is measured" % (name, scheme), ok,
              str(e))
    for scheme, reason in SCHEMES_SKIPPED.items():
        e = experiment(doc, "int-" + scheme)
        check("%s: %s is skipped with its reason" % (name, scheme),
              e is not None and e["status"] == "skipped"
              and e["reason"].startswith(reason), str(e))

    entry = {s: experiment(doc, "int-" + s)["entry"]["median"]
             for s in SCHEMES_RUN
             if experiment(doc, "int-" + s)["status"] == "ok"}
    rt = {s: experiment(doc, "int-" + s)["round_trip"]["median"]
          for s in entry}
    out = {s: experiment(doc, "int-" + s)["exit"]["median"] for s in entry}
    check("%s: INT n's path lengths are the listing's: direct %d in and %d "
          "out, each scheme's entry over direct as counted, every exit "
          "direct's" % ((name,) + LONG_DIRECT),
          (entry.get("direct"), out.get("direct")) == LONG_DIRECT
          and {s: entry[s] - entry["direct"] for s in entry if s != "direct"}
          == LONG_ENTRY_OVER and set(out.values()) == {LONG_DIRECT[1]},
          "entry %s exit %s" % (entry, out))
    print("      %-13s %6s %6s   (instructions, net of the floor)" %
          ("scheme", "entry", "round"))
    for s in SCHEMES_RUN:
        if s in entry:
            print("      %-13s %6d %6d" % (s, entry[s], rt[s]))
    if len(entry) == len(SCHEMES_RUN):
        check("%s: direct has the shortest entry path" % name,
              all(entry["direct"] < entry[s] for s in SCHEMES_RUN
                  if s != "direct"), str(entry))
        check("%s: pf-cr2 and int3-byte pay a second event delivery" % name,
              all(entry[s] > entry[t] for s in ("pf-cr2", "int3-byte")
                  for t in ("push-jmp", "push-jmp-ibt", "compact", "call",
                            "cs-selector")), str(entry))
    comparison = {c["experiment"]: c for c in doc["against_baseline"]}
    check("%s: each scheme's overhead over direct is reported" % name,
          all(comparison.get("int-" + s, {}).get("entry_median_over")
              == entry[s] - entry["direct"] for s in entry if s != "direct")
          and "int-direct" not in comparison, str(comparison))
    footprint = {s["name"]: s for s in doc["schemes"]}
    built = {s: (footprint.get(s, {}).get("stub_bytes"),
                 footprint.get(s, {}).get("data_bytes"))
             for s in SCHEME_FOOTPRINTS}
    check("%s: footprint from the binary for every scheme: each stub and "
          "descriptor size as built, its code at least its 224 stubs, "
          "direct's and the gate's exactly 224 handlers of 128 bytes" % name,
          built == SCHEME_FOOTPRINTS
          and footprint["direct"]["code_bytes"] == 224 * 128
          and footprint["gate"]["code_bytes"] == 224 * 128
          and all(footprint[s]["code_bytes"] > 0
                  and footprint[s]["code_bytes"] >= 224 * built[s][0]
                  for s in SCHEME_FOOTPRINTS), str(footprint))


# Under icount a block of 1024 repetitions costs exactly 1024 times the
# sequence's instruction count.
PRIMITIVE_INSTRUCTIONS = {"push-imm": 1, "cs-push": 2, "cs-vector": 8,
                          "ds-mov32": 2, "ds-mov16": 2, "ds-conditional": 3,
                          "swapgs": 1, "wrmsr-gsbase": 4, "iretq-self": 8,
                          # i386, in compatibility mode (arch/compat.S):
                          # seed 000's program as the thread wrote it
                          "push-imm-i386": 1, "push-cs": 1,
                          "cs-vector-i386": 8, "ds-mov32-i386": 2,
                          "ds-mov16-i386": 2, "gs-selector-i386": 2}


# The mitigations' sequences (arch/mitigations.h, .S), counted from the
# listing. The branch-history loop, called: the call, its push, two
# moves and call into the rounds; per round a call, the inner count,
# inner x (jmp, sub, jnz), and the outer sub and jnz; a return per call
# made; then jmp, lfence, pop and ret.
def bhb_clear(outer, inner):
    return 1 + 4 + outer * (1 + 1 + 3 * inner + 2) + (outer + 1) + 4


# The return-buffer fill: the count, then per pair of entries two calls,
# an add, a dec and a jnz, then the lfence (32 entries: 16 pairs).
RSB_FILL = 1 + 16 * 5 + 1
# PTI's switch each way: mov from CR3, and (or or), mov to CR3.
PTI_SWITCH = 3
WORKING_SET_PAGES = 32
# (entry, exit) each mitigation variant adds over its baseline under
# QEMU's TCG CPUs, which have no PCID, SPEC_CTRL or PRED_CMD.
MITIGATION_COST = {
    "touch": (0, WORKING_SET_PAGES), "pti-cr3": (PTI_SWITCH, PTI_SWITCH),
    "pti-cr3-touch": (PTI_SWITCH, PTI_SWITCH), "verw": (0, 1),
    "bhb-clear-5x5": (bhb_clear(5, 5), 0),
    "bhb-clear-12x7": (bhb_clear(12, 7), 0),
    "lfence-swapgs": (1, 0), "rsb-fill": (RSB_FILL, 0),
    # Linux's set on a CPU that needs nothing of it: its patched sites
    # each a short jump over its step, five on entry and four on exit.
    "linux": (5, 4),
}
MITIGATION_BASELINE = {"pti-cr3-touch": "touch", "lfence-swapgs": "gs-swapgs",
                       "linux": "gs-swapgs"}
# What TCG lacks, and the CPUID bit each skipped row names.
MITIGATION_SKIPPED = {"pti-cr3-pcid": "CPUID.1:ECX[17] (PCID) is 0",
                      "ibrs": "(IBRS", "ibpb": "(IBPB"}
MITIGATION_PRIMITIVES = {"mov-cr3": 1, "verw": 1,
                         "bhb-clear-5x5": bhb_clear(5, 5),
                         "bhb-clear-12x7": bhb_clear(12, 7),
                         "rsb-fill": RSB_FILL}


def check_mitigations(name, doc):
    """docs/mitigations.md under icount: each sequence adds exactly the
    listing's instructions over its baseline, warm and cold, keeping
    every register; what TCG lacks is skipped with its CPUID bit; the
    reports carry Linux's decisions for this CPU."""
    comparison = {c["experiment"]: c for c in doc["against_baseline"]}
    for variant, (entry, exit_) in MITIGATION_COST.items():
        base = "int-direct+" + MITIGATION_BASELINE.get(variant, "none")
        for cold in ("", "+cold"):
            row = "int-direct+" + variant + cold
            e, c = experiment(doc, row), comparison.get(row, {})
            check("%s: %s adds exactly %d+%d instructions over %s and keeps "
                  "every register" % (name, row, entry, exit_, base + cold),
                  e is not None and e["status"] == "ok"
                  and e["register_checks"] == PASSES * 256
                  and c.get("baseline") == base + cold
                  and c.get("entry_median_over") == entry
                  and c.get("exit_median_over") == exit_, "%s %s" % (e, c))
    for variant, why in MITIGATION_SKIPPED.items():
        rows = [experiment(doc, "int-direct+" + variant + cold)
                for cold in ("", "+cold")]
        check("%s: %s is skipped, warm and cold, naming its CPUID bit"
              % (name, variant),
              all(e is not None and e["status"] == "skipped"
                  and e["reason"].startswith("CPUID")
                  and why in e["reason"] for e in rows), str(rows))
    prims = {p["name"]: p for p in doc["primitives"]["rows"]}
    for prim, per_rep in MITIGATION_PRIMITIVES.items():
        p = prims.get(prim, {})
        check("%s: primitive %s is %d instruction(s) per repetition"
              % (name, prim, per_rep),
              p.get("status") == "ok"
              and p["block"]["min"] == p["block"]["max"] == 1024 * per_rep,
              str(p))
    skipped = [prims.get(p, {}) for p in ("mov-cr3-noflush",
                                          "wrmsr-spec-ctrl", "wrmsr-pred-cmd")]
    check("%s: the PCID, SPEC_CTRL and PRED_CMD primitives are skipped, "
          "naming their CPUID bits" % name,
          all(p.get("status") == "skipped"
              and p.get("reason", "").startswith("CPUID") for p in skipped),
          str(skipped))
    m = doc["mitigations"]
    rows = {r["variant"]: r for r in m["rows"]}
    check("%s: the mitigation table has each sequence once, with its "
          "decision, its figures over its baseline and its cold twin's"
          % name,
          sorted(rows) == sorted((set(MITIGATION_COST)
                                  | set(MITIGATION_SKIPPED))
                                 - {"touch", "linux"})
          and all(r["why"] and r["decision"] for r in rows.values())
          and rows["verw"]["exit_median_over"] == 1
          and rows["verw"]["cold"]["exit_median_over"] == 1
          and rows["ibrs"]["status"] == "skipped", str(rows)[:800])
    decisions = {d["name"]: d for d in m["decisions"]}
    why = {n: d["why"] for n, d in decisions.items()}
    check("%s: Linux's decisions for -cpu max (AMD, FSGSBASE, none of the "
          "speculation bits): nothing on the interrupt path; the swapgs "
          "fence on kernel entries only, the return buffer filled on "
          "context switch under retpolines, the rest off; the set labelled "
          "as the defaults of %s" % (name, m["rule"]),
          len(decisions) == 7 and not any(d["per_interrupt"]
                                          for d in decisions.values())
          and all(why[n].startswith("off") for n in
                  ("PTI", "IBRS", "VERW", "BHB clear", "IBPB"))
          and why["LFENCE after swapgs"] == (
              "kernel entries only (FENCE_SWAPGS_KERNEL: FSGSBASE present; "
              "not X86_BUG_SWAPGS: not Intel)")
          and why["RSB fill"] == (
              "context switch and VM exit only, not interrupts "
              "(\"Mitigation: Retpolines; ... RSB filling\")")
          and m["linux"]["steps"] == "none" and m["rule"] == "Linux 6.12"
          and m["linux"]["simulated"] is False
          and m["linux"]["skipped_steps"] == []
          and "not what a given kernel does" in m["linux"]["label"]
          and m["linux"]["round_trip_median_over"] == 9, str(m)[:800])
    both = m["idt_against_fred"]
    check("%s: IDT against FRED is not compared where FRED cannot run, and "
          "says why" % name,
          both["idt_row"]["status"] == "ok" and both["fred_less_idt"] is None
          and both["fred_row"]["status"] == "skipped"
          and both["fred_row"]["reason"].startswith(SCHEMES_SKIPPED["fred"]),
          str(both))


def check_primitives(name, doc):
    rows = {p["name"]: p for p in doc["primitives"]["rows"]}
    for prim, per_rep in PRIMITIVE_INSTRUCTIONS.items():
        p = rows.get(prim, {})
        check("%s: primitive %s is %d instruction(s) per repetition"
              % (name, prim, per_rep),
              p.get("status") == "ok" and p["blocks"] == PRIMITIVE_BLOCKS
              and p["block"]["min"] == p["block"]["max"] == 1024 * per_rep,
              str(p))
    seed = {r["from"]: r for r in doc["seeds"]["seed_000"]["rows"]}
    check("%s: seed 000's TEST2 is push %%cs as the thread ran it (i386), "
          "its long-mode stand-in labelled beside it" % name,
          seed.get("push-cs", {}).get("this_machine") == 1024
          and "(i386)" in seed.get("push-cs", {}).get("label", "")
          and "long mode" in seed.get("cs-push", {}).get("label", ""),
          str(seed))
    lkgs = rows.get("lkgs", {})
    check("%s: LKGS is skipped with its CPUID bit where the CPU lacks it"
          % name, lkgs.get("status") == "skipped"
          and "CPUID.(7,1):EAX[18] (LKGS) is 0" in lkgs.get("reason", ""),
          str(lkgs))


# The i386 rows (docs/protected-mode.md), counted by hand from
# arch/dispatch/i386_*.S. i386-direct's entry is the trigger side's three
# instructions after its read and the INT, then pushl, seven pushes, the
# movl of the vector into ECX and the LFENCE before the handler's read:
# 14 between the reads, 10 net of the 5-instruction floor. Its exit is
# the handler's three after its read, seven pops, addl, iretl and the
# LFENCE before the resume read: 13, so 9 net.
I386_DIRECT = (10, 9)
# What each scheme's entry adds to i386-direct's (exits are the same):
# push-jmp a jmp and a notl; cs-selector TEST3's eight instructions and a
# notl in place of the pushl; push %cs a movzwl, shrl and movl; call16 a
# subl, movzwl, shrl, addl, movl; the 3-byte form a subl and an imull more.
I386_ENTRY_OVER = {"i386-push-jmp": 2, "i386-cs-selector": 8,
                   "i386-cs-selector-push-cs": 3, "i386-call16": 5,
                   "i386-call16-3byte": 7}
# i386-direct's entry variants: (entry, exit) instructions added.
I386_VARIANT_COST = {"ds-es": (5, 2), "pda-gs": (3, 1)}
I386_SCHEMES = ["i386-direct"] + sorted(I386_ENTRY_OVER)
# The sources the 32-bit phase raises, and the vectors each sweeps.
I386_SOURCES = (("int", 224), ("ipi-self-xapic", 223), ("lapic-oneshot", 223))


def check_i386(name, doc, exact):
    """Every i386 row ran in 32-bit protected mode and came back: each
    vector swept as itself through both kinds of handler, registers,
    flags and segment registers intact; the fault self-test failed only
    itself. With `exact` (an instruction-counting clock) every figure is
    the count above."""
    # INT n sweeps 32-255; the local APIC's sources stop below its
    # spurious vector (bench/run/i386_rows.c).
    for source, vectors in I386_SOURCES:
        rows = [experiment(doc, "%s-%s" % (source, s)) for s in I386_SCHEMES]
        check("%s: every i386 scheme under %s ran in 32-bit protected mode, "
              "all %d vectors arriving as themselves in both kinds of "
              "handler, registers intact" % (name, source, vectors),
              all(e is not None and e["status"] == "ok"
                  and e["cpu_mode"] == "protected-32"
                  and e["vectors_verified"] == PASSES * vectors
                  and e["register_checks"] == PASSES * 2 * 256
                  for e in rows),
              str([(e or {}).get("name") and (e["name"], e["status"],
                   e["reason"]) for e in rows]))
    for variant in I386_VARIANT_COST:
        e = experiment(doc, "int-i386-direct+" + variant)
        check("%s: i386-direct+%s keeps every register and segment register"
              % (name, variant), e is not None and e["status"] == "ok"
              and e["register_checks"] == PASSES * 256, str(e))
    fault = experiment(doc, "selftest-fault-i386")
    if fault is not None:
        check("%s: a #UD in a 32-bit handler fails only its row, and the "
              "run comes back to long mode" % name,
              fault["status"] == "failed"
              and fault["reason"].startswith("#UD vector 6,")
              and "in 32-bit protected mode" in fault["reason"], str(fault))
    if not exact:
        return
    direct = experiment(doc, "int-i386-direct")
    if direct is None or direct["status"] != "ok":
        return
    check("%s: i386-direct's entry and exit are %d and %d instructions"
          % (name, I386_DIRECT[0], I386_DIRECT[1]),
          (direct["entry"]["min"], direct["entry"]["max"],
           direct["exit"]["min"], direct["exit"]["max"])
          == (I386_DIRECT[0],) * 2 + (I386_DIRECT[1],) * 2,
          str((direct["entry"], direct["exit"])))
    comparison = {c["experiment"]: c for c in doc["against_baseline"]}
    # Over INT n, as in long mode: the self-IPI's wait window (STI, NOP;
    # CLI); the timer's window less the INT it does without.
    for source, more_entry, more_exit in (
            ("int", 0, 0), ("ipi-self-xapic", WINDOW_ENTRY, WINDOW_EXIT),
            ("lapic-oneshot", WINDOW_ENTRY - 1, WINDOW_EXIT)):
        for scheme in I386_SCHEMES:
            row = "%s-%s" % (source, scheme)
            e = experiment(doc, row)
            want = (I386_DIRECT[0] + I386_ENTRY_OVER.get(scheme, 0)
                    + more_entry, I386_DIRECT[1] + more_exit)
            got = e and e["status"] == "ok" and (
                e["entry"]["median"], e["exit"]["median"])
            check("%s: %s enters in %d and leaves in %d instructions, "
                  "against i386-direct" % (name, row, want[0], want[1]),
                  got == want and e["baseline"] == "%s-i386-direct" % source
                  and (scheme == "i386-direct" or row in comparison),
                  str(got))
    for variant, (entry, exit_) in I386_VARIANT_COST.items():
        c = comparison.get("int-i386-direct+" + variant, {})
        check("%s: i386 %s adds exactly %d+%d instructions" % (name, variant,
                                                             entry, exit_),
              c.get("entry_median_over") == entry
              and c.get("exit_median_over") == exit_, str(c))
    seed = doc["seeds"]["seed_001"]["rows"]
    off = seed_rows_off(doc, "seed_001")
    check("%s: seed 001 shows call16 beside push-jmp and cs-selector, the "
          "i386 rows first and the long-mode stand-ins labelled, its first "
          "five measured and every figure its row's" % name,
          [r["from"] for r in seed[:3]] == ["int-i386-push-jmp",
                                            "int-i386-cs-selector",
                                            "int-i386-call16"]
          and all(r["this_machine"] is not None for r in seed[:5])
          and not off
          and any("long mode" in r["label"] for r in seed),
          "%s %s" % (off, str(seed)[:500]))


def check_gate(name, doc):
    """The gate's own floor (docs/long-mode.md "The gate's floor"): it
    passes the vector sweep and keeps every register, costs INT n only
    the listing's instructions, takes self-IPIs EOI'd, and every scheme
    stands above it by exactly its round trip less the gate's."""
    gate = experiment(doc, "int-gate")
    check("%s: the gate's floor delivers vectors 32-255 as themselves, "
          "keeps every register and RFLAGS, and is measured" % name,
          gate is not None and gate["status"] == "ok"
          and gate["vectors_verified"] == PASSES * 224
          and gate["register_checks"] == PASSES * 512
          and gate["delivered"] == PASSES * (SAMPLES + WARMUP)
          + gate["discarded"], str(gate))
    if gate is None or gate["status"] != "ok":
        return
    check("%s: the gate's INT n round trip is the listing's %d instructions"
          % (name, GATE_INT_ROUND_TRIP),
          gate["round_trip"]["median"] == GATE_INT_ROUND_TRIP,
          str(gate["round_trip"]))
    ipi = experiment(doc, "ipi-self-xapic-gate")
    check("%s: the gate's floor takes xAPIC self-IPIs on 7 vectors, EOI'd"
          % name, ipi is not None and ipi["status"] == "ok"
          and ipi["vectors_verified"] == PASSES * 7
          and ipi["delivered"] == PASSES * (SAMPLES + WARMUP), str(ipi))
    above = {a["experiment"]: a for a in doc["above_gate"]}
    want = {"int-" + s: median(doc, "int-" + s, "round_trip")
            - GATE_INT_ROUND_TRIP for s in SCHEMES_RUN}
    got = {row: above.get(row, {}).get("round_trip_median_over")
           for row in want}
    check("%s: every scheme's INT n stands above the gate's floor by its "
          "round trip less the gate's, all of them above it" % name,
          got == want and all(v > 0 for v in want.values()), str(got))
    gap = {g["scheme"]: g for g in doc["gap_method"]["rows"]}.get("gate", {})
    check("%s: the gap method cannot see the gate's interrupts under "
          "icount, and its row is skipped saying so: they arrived, none "
          "beyond the threshold" % name, gap.get("status") == "skipped"
          and "too cheap for the gap method to see" in gap.get("reason", ""),
          str(gap))


# Instructions each entry variant adds on entry and on exit (variants.S).
ENTRY_VARIANT_COST = {
    "seg-mov32": (3, 0), "seg-mov16": (3, 0), "seg-conditional": (3, 0),
    "gs-swapgs": (1, 1), "gs-wrgsbase": (4, 2), "gs-selector": (4, 2),
    "gs-selector-packed-cold": (4, 2), "gs-selector-spread-cold": (4, 2),
}
CACHE_STATES = {"cold": COLD_SAMPLES, "cold-control": COLD_SAMPLES,
                "thrash": THRASH_SAMPLES}


def check_variants(name, doc):
    comparison = {c["experiment"]: c for c in doc["against_baseline"]}
    none = experiment(doc, "int-direct+none")
    check("%s: the entry-variant baseline ran and kept every register"
          % name, none is not None and none["status"] == "ok"
          and none["register_checks"] == PASSES * 256, str(none))
    for variant, (entry, exit_) in ENTRY_VARIANT_COST.items():
        row = "int-direct+" + variant
        e = experiment(doc, row)
        c = comparison.get(row, {})
        check("%s: %s adds exactly %d+%d instructions and keeps every "
              "register" % (name, variant, entry, exit_),
              e is not None and e["status"] == "ok"
              and e["register_checks"] == PASSES * 256
              and c.get("entry_median_over") == entry
              and c.get("exit_median_over") == exit_, "%s %s" % (e, c))
    lkgs = experiment(doc, "int-direct+gs-lkgs")
    check("%s: the LKGS entry variant is skipped with its CPUID bit" % name,
          lkgs is not None and lkgs["status"] == "skipped"
          and "CPUID.(7,1):EAX[18] (LKGS) is 0" in (lkgs["reason"] or ""),
          str(lkgs))
    for state, samples in CACHE_STATES.items():
        rows = [experiment(doc, "int-%s+%s" % (s, state)) for s in SCHEMES_RUN]
        check("%s: every scheme ran %s with its sample count" % (name, state),
              all(e is not None and e["status"] == "ok"
                  and e["samples"] == samples for e in rows), str(rows))
        # QEMU has no cache model: under icount the path is the same.
        check("%s: %s rows match their warm baselines under icount"
              % (name, state),
              all(comparison.get("int-%s+%s" % (s, state), {}).get(
                  "round_trip_median_over") == 0 for s in SCHEMES_RUN))


# The wait for an interrupt opens one instruction boundary (arch/timing.S
# WAIT_WINDOW): entry carries STI and NOP after the trigger, exit the CLI
# before the resume read. Under icount each is one instruction.
WINDOW_ENTRY = 2
WINDOW_EXIT = 1


def median(doc, row, metric):
    return experiment(doc, row)[metric]["median"]


def seed_rows_off(doc, section):
    """A seed section's rows whose this_machine is not the figure of the
    row it names (bench/report/seeds.c): a primitive's block median, an
    experiment's round-trip median, or its entry median over its
    baseline; null exactly where that row did not run ok. Emulators' cycle
    counters never lead (docs/emulators.md), so these are the figures
    results.json gives the rows. As (label, this_machine, expected)."""
    prims = {p["name"]: p for p in doc["primitives"]["rows"]}
    over = {c["experiment"]: c for c in doc["against_baseline"]}
    off = []
    for r in doc["seeds"][section]["rows"]:
        e = experiment(doc, r["from"]) or {}
        if r["figure"] == "median per 1024 repetitions":
            p = prims.get(r["from"], {})
            want = p["block"]["median"] if p.get("status") == "ok" else None
        elif r["figure"] == "round trip median":
            want = e["round_trip"]["median"] if e.get("status") == "ok" \
                else None
        elif r["figure"] == "entry median over its baseline":
            want = over.get(r["from"], {}).get("entry_median_over") \
                if e.get("status") == "ok" else None
        else:
            want = "a figure of an unknown kind: %s" % r["figure"]
        if r["this_machine"] != want:
            off.append((r["label"], r["this_machine"], want))
    return off


def check_run_whole(label, doc, logs):
    """A run, in parts or not, came back whole (docs/uefi-variables.md
    "Parts"): row_counts starts at the plan's row 0 with nothing missing
    or unmeasured, its experiment and gap rows with those the serial log
    says were omitted for want of their APIC mode are the plan's row
    count as the log's first plan line gives it, and phase C said it
    joined its parts where there were more than one. `logs`: the serial
    text of every boot of the run, in order. Phase C falls back to the
    last part alone where it cannot read an earlier one back, and its
    results still say they are whole: this is what tells."""
    c = (doc or {}).get("row_counts", {})
    plan = re.search(r"^plan: (\d+) rows", logs, re.M)
    omitted = omitted_rows(logs)
    joined = re.findall(r"^phase C: (\d+) parts joined into one run", logs,
                        re.M)
    parts = c.get("parts")
    rows = (c["experiments"]["total"] + c["gap_rows"]["total"]) if c \
        else None
    check("%s: the run came back whole: row_counts from the plan's row 0, "
          "nothing missing or unmeasured, its experiment and gap rows with "
          "the log's omitted ones the serial log's plan, and phase C said "
          "it joined its parts where there was more than one" % label,
          doc is not None and c.get("first_row") == 0
          and c.get("unmeasured_from_row") is None and not c.get("missing")
          and plan is not None and rows + omitted == int(plan.group(1))
          and joined == ([str(parts)] if parts and parts > 1 else []),
          "parts %s, joined %s, %s rows + %d omitted, plan %s, first %s, "
          "unmeasured %s, missing %s" % (
              parts, joined, rows, omitted, plan and plan.group(1),
              c.get("first_row"), c.get("unmeasured_from_row"),
              c.get("missing")))
