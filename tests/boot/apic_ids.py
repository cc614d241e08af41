"""Processors beyond APIC ID 254 (docs/controllers.md "Processors beyond
APIC ID 254"): a q35 machine whose second processor has APIC ID 256,
which only x2APIC mode can name. QEMU takes more than 255 IDs only with
an IOMMU that remaps interrupts in x2APIC mode (eim); OVMF then hands
over in x2APIC mode, and irqlab stays there."""

from harness import (TINY_SAMPLES, TINY_WARMUP, check, matrix_cells, serial,
                     statuses)

# -smp 1 on two sockets of 256 cores, and one processor more on socket
# 1: its APIC ID is socket 1's first, 256 (QEMU packs the ID's fields,
# core in bits 7:0, socket above), listed in a type 9 MADT entry. Two
# vCPUs boot as fast as -smp 2; the 510 possible others are listed
# absent.
APIC_ID_256_ENV = {
    "TPM": "off",
    "SMP": "1,sockets=2,cores=256,threads=1,maxcpus=512",
    "QEMU_EXTRA": "-device intel-iommu,intremap=on,eim=on "
                  "-device max-x86_64-cpu,socket-id=1,core-id=0,thread-id=0",
}
APIC_ID_256_SOURCES = ("int", "ipi-self-xapic", "ipi-self-x2apic-selfipi",
                       "ioapic-edge", "ioapic-level", "ipi-cpu-roundtrip")
APIC_ID_256_CONFIG = ("schemes = direct\nvariants = none\nsources = %s\n"
                      "cpus = all\nmatrix_cpus = 1\nmatrix_cpus_rows = all\n"
                      % ", ".join(APIC_ID_256_SOURCES))
KEPT = ("the firmware left x2APIC on, and 1 processor has an APIC id past "
        "xAPIC's 254 (256): x2APIC kept")


def apic_id_256(o):
    """Phase B starts APIC ID 256 in x2APIC mode, the firmware's; the run
    stays there: every xAPIC row, on the boot CPU and on CPU 1, is
    skipped with the reason; in x2APIC mode APIC ID 256 answers the
    cross-CPU row, takes part in the section and runs rows in the boot
    CPU's place; its IO-APIC rows are skipped, the redirection entry's
    destination being 8 bits."""
    doc = o.doc or {}
    rows = {e["name"]: e for e in doc.get("experiments", [])}
    log = serial(o.run_dir, 1) if o.run_dir else ""
    parked = statuses(o.run_dir, 1, "other-cpus") if o.run_dir else []
    line = parked[0] if len(parked) == 1 else {}
    check("apic-id-256: phase B, in x2APIC mode as OVMF left it, starts "
          "the processor with APIC ID 256 (MADT type 9, other package) and "
          "says 1 of the 2 listed is past xAPIC's 254",
          o.rc == 0 and line.get("listed") == "2"
          and line.get("started") == "1" and line.get("mode") == "x2apic"
          and line.get("beyond_xapic") == "1"
          and line.get("relations") == "other-package:1"
          and "1 of the 2 the MADT lists have APIC ids past xAPIC's 254 "
          "(the first 256); in x2APIC mode, the firmware's, each is "
          "reached" in log,
          "rc %s, %s" % (o.rc, parked))
    xapic = [n for n in rows if rows[n]["cpu_mode"] == "long"
             and rows[n]["source"] != "int" and "@x2apic" not in n
             and rows[n]["apic_mode"] != "x2apic"]
    want = {"%s-direct%s" % (s, cpu) for s in APIC_ID_256_SOURCES
            if s not in ("int", "ipi-self-x2apic-selfipi")
            for cpu in ("", "@cpu1") if not (s.startswith("ipi-cpu") and cpu)}
    platform = doc.get("platform", {}).get("x2apic-lock", {})
    check("apic-id-256: the run stays in x2APIC mode: each of the %d xAPIC "
          "rows (the boot CPU's and CPU 1's) is skipped saying the firmware "
          "left x2APIC on with APIC ID 256 past xAPIC's 254, the probe says "
          "so, and the local APIC never leaves x2APIC" % len(want),
          set(xapic) == want
          and all(rows[n]["status"] == "skipped"
                  and rows[n]["reason"] == KEPT for n in xapic)
          and platform.get("state") == "quirk"
          and platform.get("detail") == KEPT
          and "local APIC: xapic enabled" not in log
          and "local APIC: %s; the xAPIC pass is not run" % KEPT in log,
          "%s; %s; %s" % (sorted(xapic), [(n, rows[n]["status"],
                                           rows[n].get("reason"))
                                          for n in xapic][:3], platform))
    per_row = (TINY_SAMPLES + TINY_WARMUP) * 2
    row = rows.get("ipi-cpu-roundtrip-direct@x2apic", {})
    last = [l for l in statuses(o.run_dir, 1, "cross-cpu")
            if l.get("source") == "ipi-cpu-roundtrip"][-1:] \
        if o.run_dir else []
    check("apic-id-256: in x2APIC mode the cross-CPU row sends to APIC ID "
          "256 in the other package: ok, its %d IPIs all answered, the "
          "target's handler took as many" % per_row,
          row.get("status") == "ok" and row.get("delivered") == per_row
          and last and last[0].get("target") == "256"
          and last[0].get("relation") == "other-package"
          and last[0].get("mode") == "x2apic"
          and last[0].get("target_took") == str(per_row)
          and last[0].get("faults") == "0",
          "%s %s" % ((row.get("status"), row.get("reason"),
                      row.get("delivered")), last))
    section = doc.get("cross_cpu", {}).get("rows", [])
    pairs = matrix_cells(doc.get("cross_cpu", {}))
    kept = [r for r in section if r["kind"] == "ipi-ack"
            and r["target"] != "all"]
    broadcasts = [r for r in section if r["target"] == "all"]
    check("apic-id-256: the section between CPUs runs in x2APIC mode: both "
          "ordered pairs of APIC IDs 0 and 256 have their ipi-ack median, "
          "other-package, the pair kept in full says x2apic, and the "
          "broadcast and per-target loop each waited for 256's ack",
          set(pairs) == {(0, 256), (256, 0)}
          and all(isinstance(r["ipi-ack"], int)
                  and r["relation"] == "other-package"
                  for r in pairs.values())
          and len(kept) == 1 and kept[0]["apic_mode"] == "x2apic"
          and len(broadcasts) == 2
          and all(r["status"] == "ok" and r["targets"] == 1
                  and r["apic_mode"] == "x2apic" for r in broadcasts),
          str([(r["kind"], r["sender"], r["target"], r["status"],
                r["apic_mode"], r.get("reason")) for r in section]))
    there = {n: rows[n] for n in ("int-direct@cpu1",
                                  "ipi-self-x2apic-selfipi-direct@cpu1")
             if n in rows}
    ioapic = {n: e for n, e in rows.items()
              if n.startswith("ioapic-") and "@x2apic" in n}
    check("apic-id-256: CPU 1, APIC ID 256, takes the boot CPU's place in "
          "x2APIC mode: INT n and the x2APIC self-IPI ok there with as many "
          "interrupts as on the boot CPU; its IO-APIC rows are skipped, the "
          "redirection entry's destination being 8 bits, while the boot "
          "CPU's, routed to APIC ID 0, are ok",
          len(there) == 2
          and all(e["status"] == "ok" and e["on_cpu"] == 1
                  and e["delivered"] == per_row for e in there.values())
          and "CPU 1, APIC id 256, takes the boot CPU's place (x2apic)" in log
          and set(ioapic) == {"ioapic-edge-direct@x2apic",
                              "ioapic-level-direct@x2apic",
                              "ioapic-edge-direct@x2apic@cpu1",
                              "ioapic-level-direct@x2apic@cpu1"}
          and all(e["status"] == "ok" if e["on_cpu"] is None else
                  e["status"] == "skipped" and e["reason"].startswith(
                      "APIC id 256 is past the IO-APIC's 8-bit "
                      "destinations (0-254)")
                  for e in ioapic.values()),
          "%s; %s" % ([(n, e["status"], e.get("reason"), e["delivered"])
                       for n, e in there.items()],
                      [(n, e["status"], e.get("reason"))
                       for n, e in ioapic.items()]))


# 288 processors, as many as OVMF and QEMU's TCG start here in seconds:
# IDs 0-287, the 33 from 255 on in type 9 entries. The section takes
# CPUs 0 and 1 (its pairs); its broadcasts reach all 287 others. Its
# scale is the point, not its path (apic-ids-sparse takes the same one
# with 3): it runs in make test-long (docs/testing.md). Its run takes
# about 545 s on a 2-core host: a limit of 1200 keeps it under half.
APIC_IDS_288_ENV = {
    "TPM": "off", "SMP": "288", "MEMORY": "2G", "BOOT_TIMEOUT": "1200",
    "QEMU_EXTRA": "-device intel-iommu,intremap=on,eim=on",
}
APIC_IDS_288_CONFIG = ("samples = 80\nschemes = direct\nvariants = none\n"
                       "sources = int, ipi-self-xapic, "
                       "ipi-self-x2apic-selfipi\ncpus = 0, 1\n"
                       "matrix_cpus = none\n")
# Samples a pair or broadcast takes: a quarter of 80, at least 20
# (bench/run/cross_cpu.c), after 10 warm-up ones.
APIC_IDS_288_IPIS = 20 + 10

# The same code path on the smallest machine that takes it: a topology
# of 512 (4 sockets of 128 cores, the ID's core in bits 6:0, socket
# above) with three processors, at APIC IDs 0, 2*128+5 = 261 and
# 3*128+127 = 511: both others past xAPIC's 254, started in x2APIC
# mode, the 509 left listed absent; 12 s a run where 288 took ~545.
APIC_IDS_SPARSE_ENV = {
    "SMP": "1,maxcpus=512,sockets=4,cores=128,threads=1", "MEMORY": "1G",
    "QEMU_EXTRA": "-device intel-iommu,intremap=on,eim=on "
                  "-device max-x86_64-cpu,socket-id=2,core-id=5,thread-id=0 "
                  "-device max-x86_64-cpu,socket-id=3,core-id=127,"
                  "thread-id=0",
}


def kept_x2apic(beyond, first):
    """What phase B says when the firmware's x2APIC mode is kept."""
    return ("the firmware left x2APIC on, and %d processors have APIC ids "
            "past xAPIC's 254 (the first %d): x2APIC kept" % (beyond, first))


def apic_ids_many(o, label, started, beyond, first, absent=0):
    """Phase B starts the `started` others at once in x2APIC mode, the
    `beyond` past APIC ID 254 among them (the first with ID `first`),
    and the `absent` the MADT lists absent not at all; the run stays in
    x2APIC mode, its xAPIC rows skipped with the reason; the section's
    broadcast and per-target loop wait for all the others in every
    sample, and every processor's handler took exactly the IPIs sent to
    it."""
    doc = o.doc or {}
    rows = {e["name"]: e for e in doc.get("experiments", [])}
    parked = statuses(o.run_dir, 1, "other-cpus") if o.run_dir else []
    line = parked[0] if len(parked) == 1 else {}
    check("%s: phase B, in x2APIC mode as OVMF left it, starts the %d other "
          "processors, the %d with APIC IDs past 254 among them%s"
          % (label, started, beyond, ", and none of the %d listed absent"
             % absent if absent else ""),
          o.rc == 0 and line.get("listed") == str(started + 1)
          and line.get("started") == str(started)
          and line.get("mode") == "x2apic"
          and line.get("beyond_xapic") == str(beyond)
          and (absent == 0 or line.get("absent") == str(absent)),
          "rc %s, %s" % (o.rc, parked))
    xapic = rows.get("ipi-self-xapic-direct", {})
    x2apic = rows.get("ipi-self-x2apic-selfipi-direct", {})
    check("%s: the run stays in x2APIC mode: the xAPIC self-IPI row is "
          "skipped saying %d processors are past xAPIC's 254, the x2APIC "
          "one is ok" % (label, beyond),
          xapic.get("status") == "skipped"
          and xapic.get("reason") == kept_x2apic(beyond, first)
          and x2apic.get("status") == "ok",
          "%s %s" % ((xapic.get("status"), xapic.get("reason")),
                     x2apic.get("status")))
    section = doc.get("cross_cpu", {}).get("rows", [])
    broadcasts = [r for r in section if r["target"] == "all"]
    took = [l for l in statuses(o.run_dir, 1, "cross-cpu")
            if l.get("source") == "cross-cpu"] if o.run_dir else []
    # Each other takes both broadcast rows' IPIs; CPU 1 its pair's.
    want = started * 2 * APIC_IDS_288_IPIS + APIC_IDS_288_IPIS
    check("%s: in x2APIC mode the broadcast and the per-target loop each "
          "waited for all %d acks in every sample, and the other "
          "processors' handlers took exactly the %d IPIs the section sent "
          "them, none faulted" % (label, started, want),
          len(broadcasts) == 2
          and all(r["status"] == "ok" and r["targets"] == started
                  and r["apic_mode"] == "x2apic" for r in broadcasts)
          and len(took) == 1 and took[0].get("took") == str(want)
          and took[0].get("faults") == "0",
          "%s %s" % ([(r["kind"], r["status"], r["targets"], r.get("reason"))
                      for r in broadcasts], took))
    return section


def apic_ids_288(o):
    """-smp 288: IDs 0-287, the 33 from 255 on past xAPIC's reach."""
    apic_ids_many(o, "apic-ids-288", 287, 33, 255)


def apic_ids_sparse(o):
    """Three processors at APIC IDs 0, 261 and 511 of a topology of 512:
    the path of apic-ids-288 on the smallest machine that takes it, and
    the pair from CPU 0 to the first past 254, in the other package."""
    section = apic_ids_many(o, "apic-ids-sparse", 2, 2, 261, absent=509)
    pair = [r for r in section if r["kind"] == "ipi-ack"]
    check("apic-ids-sparse: the section's pair runs from CPU 0 to APIC ID "
          "261 in the other package, in x2APIC mode, every IPI answered",
          len(pair) == 1 and pair[0]["sender"] == 0
          and pair[0]["target"] == 261 and pair[0]["status"] == "ok"
          and pair[0]["relation"] == "other-package"
          and pair[0]["apic_mode"] == "x2apic",
          str([(r["kind"], r["sender"], r["target"], r["status"],
                r.get("relation"), r.get("reason")) for r in pair]))
