"""The exact-count Bochs run and its comparison with QEMU's icount run:
where the two emulators' path lengths may differ, and why."""

import os
import re

from bochs import (EXACT_SAMPLES, check_first_part_alone,
                   check_mitigations_under_bochs)
from harness import (BUILD, bochs_exact_binary, check, check_every_plan_row,
                     experiment, run_bochs)


# The exact-count Bochs run (BOCHS_EXACT), filled in beside the main
# thread and compared with QEMU's icount run at the end.
bochs_exact = {}


def bochs_exact_run(tiny):
    """wildcat_lake under a Bochs built for exact instruction counts
    (image/build-bochs.sh), for the cross-check with QEMU's icount. Its
    table entry needs BOCHS_EXACT (have). With the counted pass its
    results take more than one handoff: the runner runs every part
    (image/bochs.sh), and every row of the plan must be measured."""
    # Its handoff capped at 8 KiB, the run goes in parts, each a Bochs
    # run of its own: the runner's parts, and its first part alone as a
    # run that ended early (make test-long's bochs-shipped takes the
    # same path with the shipped config's counts).
    doc, run_dir = run_bochs("bochs-exact", bochs_exact_binary(),
                             "wildcat_lake",
                             tiny + "samples = %d\nhandoff_kib = 8\n"
                             % EXACT_SAMPLES)
    if doc is not None:
        parts = doc["handoff"]["parts"]
        check("bochs-exact: its handoff capped at 8 KiB (handoff_kib = 8), "
              "the run takes more than one part, each a Bochs run of its "
              "own, and the folder keeps each part's blob",
              parts >= 2 and all(os.path.exists(os.path.join(
                  run_dir, "results", doc["run_id"], "run-1-part-%d.bin" % p))
                  for p in range(1, parts + 1)), "%d part(s)" % parts)
        check_first_part_alone("bochs-exact", doc, run_dir)
        check_every_plan_row("bochs-exact", doc, run_dir)
        check("bochs-exact: its TSC counts every instruction, and the run "
              "says so: kind emulator, an instruction count",
              doc["clock"]["kind"] == "emulator"
              and "instruction count" in doc["clock"]["unit"],
              str(doc["clock"]))
        bochs_exact["doc"] = doc
        bochs_exact["log"] = os.path.join(run_dir, "serial.log")
        # Path lengths, which only this build's TSC gives: the chained
        # build's entry and exit are not.
        row, direct = experiment(doc, "int-fred"), experiment(doc, "int-direct")
        check("bochs-exact: fred's round trip is 3 instructions longer than "
              "direct's (sub, test, jnz, movzbl, mov against two pushes; add "
              "and ERETS against add and IRETQ)",
              row is not None and direct is not None
              and row["status"] == direct["status"] == "ok"
              and row["round_trip"]["median"]
              - direct["round_trip"]["median"] == 3,
              "%s %s" % (row, direct))
        lkgs = {p["name"]: p for p in doc["primitives"]["rows"]}.get(
            "lkgs", {})
        check("bochs-exact: LKGS is one instruction a repetition: each of "
              "its blocks is exactly 1024 instructions",
              lkgs.get("status") == "ok"
              and lkgs["block"]["min"] == lkgs["block"]["max"] == 1024,
              str(lkgs))
        over = {c["experiment"]: c for c in doc["against_baseline"]}.get(
            "int-direct+gs-lkgs", {})
        check("bochs-exact: the LKGS entry variant's exit is 3 instructions "
              "longer than its baseline's (swapgs, mov, lkgs)",
              over.get("exit_median_over") == 3, str(over))
        check_mitigations_under_bochs(doc)


def ioapic_version(log_path):
    with open(log_path, errors="replace") as f:
        m = re.search(r"IO-APIC(?: \d+)?: version (0x[0-9a-f]+)", f.read())
    return int(m.group(1), 16) if m else None


# Where the two emulators' path lengths may differ, and why. Each rule
# names the rows it covers and the difference, Bochs minus QEMU, in
# (entry, exit, round trip) or the single figure of a gap or primitive.
# What the edge-and-back EOI of a pre-0x20 IO-APIC adds to each access
# strategy's mask-unmask-EOI sequence, in instructions (apic/ioapic.c
# ioapic_level_eoi: two more redirection-entry writes, each as the
# strategy reaches IOREGSEL and IOWIN).
OLD_IOAPIC_EOI_EXTRA = {
    "ioapic-seq-uncached": 48, "ioapic-seq-uncached-nf": 46,
    "ioapic-seq-index-cached": 49, "ioapic-seq-index-cached-nf": 47,
    "ioapic-seq-value-cached": 46, "ioapic-seq-value-cached-nf": 44,
}
# Rows only Bochs can run, for what QEMU's TCG never offers: FRED, LKGS,
# the TSC-deadline timer. Every other row either emulator ran ok, the
# other ran ok too, and the cross-check compares it.
BOCHS_ONLY = re.compile(r"(^|-)fred(-linux)?(\+|$)|gs-lkgs|lapic-tscdeadline"
                        r"|^lkgs$"
                        r"|\+pti-cr3-pcid|\+ibrs|\+ibpb|^mov-cr3-noflush$"
                        r"|^wrmsr-spec-ctrl$|^wrmsr-pred-cmd$")


def explained_difference(kind, name, qemu_ioapic, bochs_ioapic):
    if "pf-cr2" in name:
        # The gate's fetch faults. Bochs' exception path counts the
        # instruction that faulted as one more (cpu.cc: the longjmp back
        # into the CPU loop ticks once); QEMU's icount counts only
        # instructions that completed.
        return ((1, 0, 1) if kind == "experiment" else 1,
                "Bochs counts the faulting gate fetch as an instruction")
    if "+linux" in name:
        # Linux's set is the CPU's own (docs/mitigations.md): on
        # wildcat_lake it takes the swapgs fence, one instruction on the
        # way in (FSGSBASE, no PTI), and VERW, one on the way out, where
        # QEMU's -cpu max needs neither.
        return ((1, 1, 2), "Linux's set differs: wildcat_lake's takes the "
                "swapgs fence and VERW")
    if kind == "primitive" and name in OLD_IOAPIC_EOI_EXTRA \
            and qemu_ioapic >= 0x20 > bochs_ioapic:
        # Version 0x20 has an EOI register; older IO-APICs (Bochs models
        # the 82093AA, 0x11) are cleared by switching the entry to edge
        # and back: another path through ioapic_level_eoi, its length
        # per sequence as each access strategy reaches the entry.
        return (1024 * OLD_IOAPIC_EOI_EXTRA[name],
                "IO-APIC version 0x%x on QEMU, 0x%x on Bochs: "
                "ioapic_level_eoi's edge-and-back EOI, %d instructions more "
                "a sequence" % (qemu_ioapic, bochs_ioapic,
                                OLD_IOAPIC_EOI_EXTRA[name]))
    return (0, None) if kind != "experiment" else ((0, 0, 0), None)


def cross_check_emulators(qemu_doc, qemu_log):
    """Every row both emulators run, figure by figure: QEMU -icount
    shift=0 against Bochs built for exact counts. Equal, or the
    difference is one explained_difference names exactly. The table goes
    to build/boot-test/emulators-cross-check.md."""
    if "doc" not in bochs_exact:
        check.skip("cross-check", "no exact-count Bochs (set BOCHS_EXACT; "
                   "make bochs-exact builds one)")
        return
    bochs_doc = bochs_exact["doc"]
    q_io, b_io = ioapic_version(qemu_log), ioapic_version(bochs_exact["log"])
    lines = ["| row | QEMU icount | Bochs | Bochs - QEMU | why |",
             "|---|---|---|---|---|"]
    unexplained, compared = [], 0

    def med(row, key):
        return (row.get(key) or {}).get("median")

    def compare(kind, name, q, b):
        nonlocal compared
        want, why = explained_difference(kind, name, q_io, b_io)
        got = tuple(y - x for x, y in zip(q, b)) if kind == "experiment" \
            else b[0] - q[0]
        compared += 1
        lines.append("| %s %s | %s | %s | %s | %s |" % (
            kind, name, q, b, got, why or ""))
        if want is not None and got != want:
            unexplained.append("%s %s: QEMU %s, Bochs %s" % (kind, name, q, b))

    uncompared = []

    def each(kind, key, section, figure):
        q_ok = {r[key]: r for r in section(qemu_doc) if r["status"] == "ok"}
        b_ok = {r[key]: r for r in section(bochs_doc) if r["status"] == "ok"}
        for name in sorted(set(q_ok) | set(b_ok)):
            if name in q_ok and name in b_ok:
                compare(kind, name, tuple(med(q_ok[name], k) for k in figure),
                        tuple(med(b_ok[name], k) for k in figure))
            elif not (name in b_ok and BOCHS_ONLY.search(name)):
                uncompared.append("%s %s ok under %s only" % (
                    kind, name, "QEMU" if name in q_ok else "Bochs"))

    each("experiment", "name", lambda d: d["experiments"],
         ("entry", "exit", "round_trip"))
    each("gap", "scheme", lambda d: d["gap_method"]["rows"], ("cost",))
    each("primitive", "name", lambda d: d["primitives"]["rows"], ("block",))
    with open(os.path.join(BUILD, "emulators-cross-check.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    check("cross-check: every row both emulators ran ok has the same "
          "path length under QEMU icount and exact-count Bochs, or the "
          "difference explained_difference states; every other row is one "
          "only Bochs can run",
          compared > 0 and not unexplained and not uncompared,
          "%d compared; %s" % (compared, "; ".join(
              (unexplained + uncompared)[:8])))


def cross_check(outcomes):
    """After both lanes: the exact-count Bochs run is on the second."""
    icount_a = outcomes.get("icount-a")
    if icount_a and icount_a.icount_doc:
        cross_check_emulators(icount_a.icount_doc,
                              os.path.join(BUILD, "icount-a", "boot1.log"))
