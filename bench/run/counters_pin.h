/* The core clock pinned for the run (docs/timing.md "Pinning the
 * frequency"): on the boot CPU, then on each other processor that runs
 * rows or sends IPIs. What it changes is logged with the counters'
 * changes (bench/run/counters.h) and put back by counters_unpin. */
#ifndef IRQLAB_BENCH_RUN_COUNTERS_PIN_H
#define IRQLAB_BENCH_RUN_COUNTERS_PIN_H

#include <stdint.h>

#include "bench/run/other_cpus_command.h"

struct run_result;

/* With pin_frequency = 1, fixes the core clock for the run where the
 * CPU lets software and records what was set and the ratio that
 * resulted; says why not elsewhere. After counters_probe. */
void counters_pin(struct run_result *r);

/* Each other processor that runs rows or sends IPIs: run on it (AP_RUN,
 * arch/ap.h) once it started, with its slot in ap_cpus as the argument,
 * counters_pin_here pins it as counters_pin pinned the boot CPU, sets
 * its LFENCE as fences_prepare did, and measures its APERF/MPERF ratio;
 * before each INIT and the park for good, counters_unpin_here puts
 * back what it changed (INIT leaves MSRs as they are, SDM vol. 3A
 * §10.1.1, Table 10-1).
 * Neither is guarded: only MSRs the boot CPU used without an
 * exception. */
void counters_pin_here(void *slot);
void counters_unpin_here(void *slot);
/* Before the first: the package of the processor in `slot`, by its
 * APIC ID (topology_place_of; 0 for all where the topology is not
 * known, as one package), whose IA32_MISC_ENABLE[38] it shares. */
void counters_pin_place(uint32_t slot, uint32_t package);
/* On the boot CPU after each: records what the processor in `slot`,
 * struct cpu_clock's `cpu`, found, given how its run ended, and whether
 * its changes were put back, in the results counters_pin had. */
void counters_note_started(uint32_t slot, uint16_t cpu,
			   enum work_outcome outcome);
void counters_note_parked(uint32_t slot, uint16_t cpu, int restored);

#endif
