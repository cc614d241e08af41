"""The boot tests' lanes: every boot the suite makes is one entry of
FIRST_LANE, SECOND_LANE or ALONE below: its name, its emulator and
machine, its config and store set-up, what it needs, and the checks that
apply to what it left. One runner walks the table (harness.walk); two
lanes run at once, one a core, since their runs share no files; ALONE's
entries, which need the whole host, after both."""

import os

from apic_ids import (APIC_ID_256_CONFIG, APIC_ID_256_ENV,
                      APIC_IDS_288_CONFIG, APIC_IDS_288_ENV,
                      APIC_IDS_SPARSE_ENV, apic_id_256, apic_ids_288,
                      apic_ids_sparse)
from between_cpus import (CROSS_CPU_SOURCES, MATRIX_CPU_SOURCES, cross_cpu,
                          cross_cpu_alone, cross_cpu_fault, cross_cpu_icount,
                          cross_cpu_section, cross_cpu_sixteen,
                          cross_cpu_sixty_four, matrix_in_parts,
                          matrix_past_64,
                          matrix_all_rows, matrix_on_cpu1_icount,
                          other_cpus)
from bochs import (bochs_cet, bochs_runs, bochs_shipped_config,
                   bochs_smp_runs, bochs_smp_four)
from bochs_counted import bochs_counted_pass
from configs import (bad_config, plant_stale_boot_log, quick, runs_3,
                     selection, shipped_with_quick)
from emulators import bochs_exact_run, cross_check
from every_step import (EVERY_STEP_CONFIG, bochs_every_step,
                        linux_every_step_icount)
from harness import (Boot, CONFIG, HERE, ICOUNT, ICOUNT_CROSS_SAMPLES,
                     ICOUNT_CROSS_WARMUP, MEASURED_ONCE, ONE_HANDOFF, ROOT,
                     SMALL, TINY, TPM_OFF, U_BOOT_ROM)
from icount import icount_checks, icount_pair
from lab_hostile import lab_hostile
from lab_ipv6 import lab_ipv6
from lab_refusals import lab_http_refusals, lab_server_refusals
from network import (lab_cut_off_upload, lab_http_boot, lab_of_machines,
                     lab_user_networking, pxe_boot_phase_a)
from machines import (CALL16_SELECTION, HPET_NOWHERE, call16_first,
                      hpet_missing, hpet_table_to_nowhere, nmi_in_switch,
                      noise, one_reset, other_cpu, other_machine,
                      platform_simulated, SHIPPED, U_BOOT_CONFIG, u_boot_sse)
from row_checks import qemu_has_tcg_x2apic
from row_counts import counts_agree
from stick import (collect_sources, full_esp, no_display, one_time_boot,
                   progress_screen, rescue, reset_returns, secure_boot,
                   usb_writer)
from your_entry import (FAULTS_CONFIG, YOURS_CONFIG, entry_image,
                        prepare_bad, prepare_good, your_entry_faults,
                        your_entry_figures, your_entry_overs,
                        your_entry_refusals,
                        your_entry_reports, your_entry_results)
from store import (FOREIGN, OVMF_2M, STORE_MATRIX, STORE_SOAK_CYCLES,
                   UNDELETABLE, corrupt,
                   foreign_variable, kill_mid_deletion, plant_foreign,
                   plant_undeletable, runtime_fault, serial_handoff,
                   setvariable_error, store_cycles, store_fills,
                   store_full_refused, store_nearly_full,
                   store_room_reclaimed, store_unreadable, undeletable_record)


# The first core: QEMU's configurations, the icount pair first; then the
# network boots, here to even the two lanes' times (CI's `time` lines).
FIRST_LANE = (
    # -icount shift=0: the full matrix, twice, figures compared exactly.
    Boot("icount-a", (icount_checks, cross_cpu_alone, counts_agree),
         icount=ICOUNT, config=CONFIG, env=MEASURED_ONCE),
    Boot("icount-b", (icount_checks,), icount=ICOUNT, config=CONFIG,
         env=MEASURED_ONCE),
    # An xAPIC-only CPU; the i440FX machine, plain TCG (its IDE disk makes
    # phase C slow under icount), with percentiles only (plain TCG's
    # noisy histograms would take it into parts).
    Boot("xapic-only", (other_machine(lambda: False, True),),
         icount=ICOUNT, cpu="max,-x2apic", config=SMALL, env=MEASURED_ONCE),
    Boot("machine-pc", (other_machine(qemu_has_tcg_x2apic, False),),
         machine="pc", config=SMALL + "histograms = 0\n"),
    # Other CPU models, old and new, Intel and AMD: qemu64 has no RDTSCP,
    # as seed 000's Core 2 Xeons had none. Every row must end ok or
    # skipped with a reason.
    Boot("cpu-qemu64", (other_cpu,), icount=ICOUNT, cpu="qemu64",
         config=TINY, env=MEASURED_ONCE),
    Boot("cpu-EPYC", (other_cpu,), icount=ICOUNT, cpu="EPYC", config=TINY,
         env=MEASURED_ONCE),
    Boot("nmi-in-switch", (nmi_in_switch,),
         config=TINY + CALL16_SELECTION.replace(
             "i386-call16, i386-call16-3byte", "i386-direct, i386-call16")
         + "simulate = nmi-in-switch\n", env=TPM_OFF),
    Boot("platform-simulated", (platform_simulated,),
         config=TINY + "schemes = direct\nvariants = none\n"
         "simulate = pit-gated, x2apic-locked\n",
         env={"TPM": "off", "QEMU_EXTRA": "-device intel-iommu"}),
    Boot("bad-config", (bad_config,),
         config="samples = lots\nruns = 2\nshade = 3\n"
         "schemes = direct, fast\nsources = ,\n"),
    Boot("quick", (quick,), icount=ICOUNT, config=shipped_with_quick(),
         deep=True, env=MEASURED_ONCE),
    # Every step of the linux variant TCG can run, patched on.
    Boot("linux-every-step", (linux_every_step_icount,), icount=ICOUNT,
         config=TINY + EVERY_STEP_CONFIG, env=MEASURED_ONCE),
    Boot("selection", (selection,), icount=ICOUNT,
         config=TINY + "schemes = direct, push-jmp\nsources = int\n"
         "variants = none\n", prepare=plant_stale_boot_log,
         env=MEASURED_ONCE),
    # Four CPUs on two sockets: the cross-CPU rows, both APIC modes.
    Boot("cross-cpu", (cross_cpu, cross_cpu_section),
         config=TINY + "schemes = direct\nvariants = none\nsources = "
         + ", ".join(CROSS_CPU_SOURCES) + "\n",
         env={"TPM": "off", "SMP": "4,sockets=2,cores=2"}),
    # Sixteen CPUs on two sockets, plain TCG on a busy host, a second
    # emulator running irqlab beside it: each other processor starts
    # once, all together; every row between CPUs ok, late answers waited
    # for and counted, never failed for slowness. The busy host is the
    # second emulator and the other lane: 18 vCPUs and more on 2 cores.
    # Two busy loops as well took it to 323 s, and starved the other
    # lane's boots all that time (docs/testing.md).
    # A tiny matrix: with the shipped file's quick counts the section's
    # 56 pairs alone took 330 s of the machine here.
    Boot("cross-cpu-16", (cross_cpu_sixteen,),
         config=TINY + "schemes = direct\nvariants = none\nsources = "
         + ", ".join(CROSS_CPU_SOURCES) + "\n",
         env={"TPM": "off", "SMP": "16,sockets=2,cores=8", "MEMORY": "1G",
              "BOOT_TIMEOUT": "600"}, beside=True),
    # Every long-mode row again on CPU 1, the IO-APIC routed to it.
    Boot("matrix-all-rows", (matrix_all_rows,),
         config=TINY + "schemes = direct, push-jmp\nvariants = gs-swapgs, "
         "cold\nsources = int, ipi-self-xapic, lapic-oneshot, "
         "lapic-periodic, ioapic-edge, ioapic-level, "
         "ioapic-level-value-cached, pic8259\nmatrix_cpus = 1\n"
         "matrix_cpus_rows = all\nsimulate = ap-absent\n",
         env={"TPM": "off", "SMP": "2,maxcpus=4"}),
    # Three of the four chosen, and the first other sender faults; the
    # INT n row again on the other socket's CPU 3.
    Boot("cross-cpu-fault", (cross_cpu_fault,),
         config=TINY + "schemes = direct\nvariants = none\nsources = int\n"
         "cpus = 0, 2, 3\nsimulate = ap-fault\nmatrix_cpus = 3\n",
         env={"TPM": "off", "SMP": "4,sockets=2,cores=2"}),
    # A processor with APIC ID 256, which only x2APIC mode names: OVMF
    # hands over in x2APIC mode, and the run stays there.
    Boot("apic-id-256", (apic_id_256,), config=TINY + APIC_ID_256_CONFIG,
         env=APIC_ID_256_ENV),
    # Three processors in a topology of 512, two past APIC ID 254: the
    # path of make test-long's 288, started together in x2APIC mode.
    Boot("apic-ids-sparse", (apic_ids_sparse,),
         config=TINY + APIC_IDS_288_CONFIG, env=APIC_IDS_SPARSE_ENV),
    Boot("foreign-variable", (foreign_variable,), config=SMALL + STORE_MATRIX,
         prepare=plant_foreign, needs="virt-fw-vars",
         before_boot1="virt-fw-vars --set-json %s --inplace" % FOREIGN),
    Boot("secure-boot", (secure_boot,), config=SMALL,
         env={"SECURE_BOOT": "1", "BOOT_TIMEOUT": "120"}),
    # A stranger's platform, made up where no emulator has it: no HPET,
    # or one whose table points at nothing.
    Boot("hpet-off", (hpet_missing("hpet-off"),),
         config=TINY + "schemes = direct\nvariants = none\n",
         machine="q35,hpet=off", env=TPM_OFF),
    Boot("hpet-nowhere", (hpet_missing("hpet-nowhere"),),
         config=TINY + "schemes = direct\nvariants = none\n",
         machine="q35,hpet=off", prepare=hpet_table_to_nowhere,
         env={"TPM": "off", "QEMU_EXTRA": "-acpitable file=" + HPET_NOWHERE}),
    # Every handoff record has a bit flipped between the boots.
    Boot("corrupt", (corrupt,), config=SMALL + STORE_MATRIX,
         after_boot1="%s --corrupt" % os.path.join(HERE, "varstore.py")),
    # Booted from the network (docs/lab.md): OVMF's PXE from QEMU's TFTP.
    Boot("pxe-boot", perform=pxe_boot_phase_a),
    # A lab of machines: three PXE-boot from `make serve` on a network
    # namespace of their own, and what its server refuses.
    Boot("lab", perform=lab_of_machines),
    Boot("lab-refusals", perform=lab_server_refusals),
    Boot("lab-http-refusals", perform=lab_http_refusals),
    # The lab against a hostile network: every finding of its review
    # replayed while two machines boot (docs/lab.md "What the server
    # keeps").
    Boot("lab-hostile", perform=lab_hostile),
    Boot("lab-http-boot", perform=lab_http_boot),
    Boot("lab-user-net", perform=lab_user_networking),
    Boot("lab-cut-off", perform=lab_cut_off_upload),
    # The lab over IPv6: PXE and HTTP boot, at once.
    Boot("lab-ipv6", perform=lab_ipv6),
    # Under -icount, two vCPUs taking turns: here, to even the two lanes'
    # times (docs/testing.md's table).
    # Two CPUs under icount: counts only. (The two listed absent that
    # it once tried, whose 5 s wait icount counts out in ~150 s of the
    # host's, are matrix-all-rows', under plain TCG.)
    Boot("cross-cpu-icount", (cross_cpu_icount,), icount=ICOUNT,
         config=TINY + "samples = %d\nwarmup = %d\n" % (
             ICOUNT_CROSS_SAMPLES, ICOUNT_CROSS_WARMUP)
         + "schemes = direct\nvariants = none\n"
         "sources = ipi-cpu-roundtrip\napic_modes = xapic\n",
         # Under -icount the two vCPUs take turns.
         env={"SMP": "2", "ICOUNT_BOOTS": "1", "BOOT_TIMEOUT": "600"}),
    # A series of three runs, and a boot's first 32-bit trip at a call16
    # row: here to even the lanes (docs/testing.md's table).
    Boot("runs-3", (runs_3,), icount=ICOUNT,
         config=SMALL + ONE_HANDOFF + "runs = 3\n"),
    Boot("call16-first", perform=lambda: call16_first(TINY)),
    # INT n and the self-IPIs under every scheme again on CPU 1, in the
    # boot CPU's place, under icount; and on a CPU the MADT lacks.
    Boot("matrix-on-cpu1-icount", (matrix_on_cpu1_icount,), icount=ICOUNT,
         config=TINY + "variants = none\nsources = "
         + ", ".join(MATRIX_CPU_SOURCES) + "\nmatrix_cpus = 1, 5\n",
         # Two vCPUs under -icount take turns, as cross-cpu-icount's do.
         env={"SMP": "2", "ICOUNT_BOOTS": "1", "BOOT_TIMEOUT": "600"}),
)

# The second core: the variable store and the ESP as a stranger's machine
# has them (plain TCG, tiny matrices, the 2 MB and 4 MB stores, no TPM),
# and Bochs.
SECOND_LANE = (
    Boot("progress-screen", perform=progress_screen),
    # Your own entry code (docs/your-entry.md): the worked example and two
    # files of known length, under -icount, on the boot CPU and CPU 1;
    # three files that must fail by name; what the build refuses.
    Boot("your-entry", (your_entry_figures, your_entry_results,
                        your_entry_overs, your_entry_reports),
         icount=ICOUNT,
         config=TINY + YOURS_CONFIG, prepare=prepare_good,
         image=entry_image("your-entry"),
         env={"SMP": "2", "ICOUNT_BOOTS": "1", "BOOT_TIMEOUT": "600"}),
    Boot("your-entry-faults", (your_entry_faults,), icount=ICOUNT,
         config=TINY + FAULTS_CONFIG, prepare=prepare_bad,
         image=entry_image("your-entry-faults"), env=MEASURED_ONCE),
    Boot("your-entry-refused", perform=your_entry_refusals),
    Boot("no-display", (no_display, reset_returns),
         config=TINY + "simulate = reset-returns\n",
         env={"TPM": "off", "VGA": "none"}),
    Boot("one-time-boot",
         (lambda o: collect_sources(o.run_dir),
          lambda o: rescue(o.run_dir, o.results), one_time_boot),
         config=TINY + ONE_HANDOFF, needs="virt-fw-vars",
         env={"TPM": "off", "ONE_TIME_BOOT": "1",
              "OTHER_DISK": os.path.join(ROOT, "build", "other-disk.img")}),
    Boot("usb", perform=usb_writer),
    Boot("store-2m", perform=lambda: store_cycles(TINY + STORE_MATRIX)),
    Boot("bochs", perform=lambda: bochs_runs(TINY), needs="bochs"),
    Boot("bochs-counted", perform=lambda: bochs_counted_pass(TINY),
         needs="bochs-exact"),
    Boot("bochs-cet", perform=lambda: bochs_cet(TINY), needs="bochs"),
    Boot("bochs-every-step", perform=lambda: bochs_every_step(TINY),
         needs="bochs"),
    Boot("bochs-smp", perform=lambda: bochs_smp_runs(TINY),
         needs="bochs-smp"),
    Boot("bochs-smp-4", perform=lambda: bochs_smp_four(TINY),
         needs="bochs-exact"),
    Boot("bochs-exact", perform=lambda: bochs_exact_run(TINY),
         needs="bochs-exact"),
    # A whole matrix: its handoff must span more records than the five
    # the kill leaves deleted, where the store's other runs take one row.
    Boot("kill-mid-deletion", perform=lambda: kill_mid_deletion(TINY)),
    Boot("runtime-fault", perform=lambda: runtime_fault(TINY)),
    Boot("store-fills", perform=lambda: store_fills(TINY)),
    # U-Boot's EFI, which leaves SSE off: handoff = serial.
    Boot("u-boot", (u_boot_sse,), config=TINY + U_BOOT_CONFIG,
         env={"TPM": "off", "BIOS": U_BOOT_ROM}, needs="u-boot"),
    Boot("setvariable-error", (setvariable_error,), env=TPM_OFF,
         config=TINY + "schemes = direct\nvariants = none\n"
         "simulate = setvariable-error\n"),
    # Firmware that offers no SetVariable at runtime: refused by
    # default; handoff = serial measures, its results on COM1 alone.
    Boot("serial-handoff", perform=lambda: serial_handoff(TINY)),
    Boot("other-cpus", perform=lambda: other_cpus(TINY)),
    Boot("undeletable-record", (undeletable_record,),
         config=TINY + STORE_MATRIX,
         env=TPM_OFF, prepare=plant_undeletable, needs="virt-fw-vars",
         before_boot1="virt-fw-vars --set-json %s --inplace" % UNDELETABLE),
    Boot("esp-full", (full_esp,), config=TINY + ONE_HANDOFF, env=TPM_OFF,
         after_boot1=os.path.join(HERE, "esp_fill.py")),
    # A 4 MB store whose end other software's deleted variables filled to
    # 3000 bytes: once phase A warned of it and phase B handed over fine.
    # Now the one rule sees the end as phase B will, after any reclaim.
    Boot("store-4m-deleted", (store_room_reclaimed,),
         config=TINY + STORE_MATRIX,
         env=TPM_OFF, before_boot1="%s --fill 3000 deleted"
         % os.path.join(HERE, "varstore.py")),
    # A store nearly full of other software's live variables: the
    # handoff shrinks to its least, 8 records, and the run is kept ...
    Boot("store-nearly-full", (store_nearly_full,), config=TINY,
         env=TPM_OFF, before_boot1="%s --fill 30000 live"
         % os.path.join(HERE, "varstore.py")),
    # ... and one without room even for those: phase A refuses, visibly,
    # before measuring anything.
    Boot("store-full", (store_full_refused,), config=TINY, env=TPM_OFF,
         before_boot1="%s --fill 20000 live" % os.path.join(HERE,
                                                         "varstore.py")),
    # From the first lane, once the Bochs runs here took a third of
    # their time (their results no longer cross Bochs' slow COM1): the
    # two lanes even (docs/testing.md's table).
    # Plain TCG on a busy host, as noisy as a real machine: waits are
    # bounded by time, not polls, and no row may fail or time out.
    Boot("noise", (noise,), config=SMALL + "handoff_kib = 8\n",
         busy_host=True),
    # The shipped matrix under plain TCG, as a real PC's figures scatter:
    # one reset on OVMF's 4 MB store.
    Boot("one-reset", (one_reset("4m", 1),), config=SHIPPED),
    # A stranger's platform: a store of unknown layout.
    Boot("store-unreadable", perform=lambda: store_unreadable(TINY)),
)

# Once both lanes are done, alone on the host: 64 vCPUs under plain TCG
# keep both host cores busy, which would starve the other lane's boots
# past their limits.
ALONE = (
    # The matrix of 64 processors, 4,032 pairs (docs/cross-cpu.md "The
    # matrix"): the cross-CPU sources and the section only; alone, for
    # its 64 vCPUs. The one entry of the suite's scale kept in make test.
    Boot("cross-cpu-64", (cross_cpu_sixty_four,),
         config=TINY + "schemes = direct\nvariants = none\nsources = "
         + ", ".join(CROSS_CPU_SOURCES) + "\n",
         env={"TPM": "off", "SMP": "64,sockets=2,cores=32",
              "MEMORY": "2G", "BOOT_TIMEOUT": "600"}),
)

# make test-long: the checks of scale, not of a code path (docs/testing.md
# says why each is here and what make test runs in its place), one by
# one, alone on the host.
LONG = (
    # The full matrix of 72 processors on request (cpus = all), past
    # auto's 64, in parts: 5,112 pairs, several times what a handoff
    # capped at 16 KiB holds; no fewer processors make that many.
    Boot("matrix-in-parts", (matrix_in_parts,),
         config=TINY + "schemes = direct\nvariants = none\nsources = "
         "ipi-cpu-roundtrip\napic_modes = xapic\nhandoff_kib = 16\n"
         "cpus = all\n",
         env={"TPM": "off", "SMP": "72,sockets=2,cores=18,threads=2",
              "MEMORY": "2G", "BOOT_TIMEOUT": "900"}),
    # 128 processors: the full matrix of 64, the rest against a few.
    Boot("matrix-past-64", (matrix_past_64,),
         config=TINY + "schemes = direct\nvariants = none\nsources = "
         "ipi-cpu-roundtrip\napic_modes = xapic\n",
         env={"TPM": "off", "SMP": "128,sockets=2,cores=32,threads=2",
              "MEMORY": "2G", "BOOT_TIMEOUT": "900"}),
    # 288 processors, 33 past APIC ID 254 (apic-ids-sparse: the path).
    Boot("apic-ids-288", (apic_ids_288,), config=TINY + APIC_IDS_288_CONFIG,
         env=APIC_IDS_288_ENV),
    # The shipped matrix under plain TCG on OVMF's 2 MB store, in two
    # parts at most: one-reset's sizing on the smaller store.
    Boot("one-reset-2m", (one_reset("2m", 2),), config=SHIPPED,
         env=OVMF_2M),
    # Bochs with the shipped config, in parts: the shipped counts, 243 s
    # (bochs-exact takes the parts' path in make test).
    Boot("bochs-shipped", perform=bochs_shipped_config, needs="bochs"),
    # Ten runs on one 2 MB store (store-2m: three).
    Boot("store-2m-10", perform=lambda: store_cycles(
        TINY + STORE_MATRIX, STORE_SOAK_CYCLES)),
)

# Checks across runs, once both lanes are done.
AFTER = (icount_pair, cross_check)
