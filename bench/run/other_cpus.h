/* The processors other than the one measured, "other CPUs" throughout
 * the runner (docs/controllers.md "The other CPUs"): started once in
 * phase B and parked before any row, so that no firmware loop runs
 * beside the measured CPU, on its SMT sibling or on the memory bus;
 * started again for the rows that use them. Their command channel, once
 * they run, is bench/run/other_cpus_command.h. */
#ifndef IRQLAB_BENCH_RUN_OTHER_CPUS_H
#define IRQLAB_BENCH_RUN_OTHER_CPUS_H

#include "firmware/acpi.h"
#include "bench/run/other_cpus_command.h"

struct run_result;

/* What phase A set aside for starting the other processors: the page
 * below 1 MiB the trampoline is copied to (NULL: none), and a stack of
 * AP_STACK_BYTES for each of stack_count processors. */
struct other_cpus_area {
	void *page;
	uint8_t *stacks;
	uint32_t stack_count;
};

/* Reads the boot CPU's topology (arch/cpu_topology.h, decoded by
 * bench/model/topology.h) into r; starts every other processor the MADT
 * lists as enabled with INIT-SIPI-SIPI into long mode (arch/ap.h), where
 * the area allows, then sends each an INIT, which parks it in
 * wait-for-SIPI (SDM vol. 3A §9.4) for the rows; records what was done
 * in r's probes and a status line. */
void other_cpus_start_and_park(const struct madt_info *m,
			       enum acpi_status madt_status,
			       const struct other_cpus_area *area,
			       struct run_result *r);

/* The cross-CPU rows (docs/controllers.md "The cross-CPU rows"): why
 * they cannot run, or NULL where a processor started in phase B; their
 * target, the closest of those. */
const char *other_cpus_unavailable(void);
uint32_t other_cpus_target_apic_id(void);
/* Starts the processors again, their local APICs in the boot CPU's
 * mode, and has each wait as `command` says (AP_SPIN, AP_HALT,
 * AP_MWAIT: arch/ap.h); NULL, or why not. */
const char *other_cpus_wake(uint32_t command);
/* Puts them back into wait-for-SIPI with INIT, once they stopped
 * waiting, and writes what the target was told and what it did to a
 * status line for `source`. */
void other_cpus_sleep(const char *source);
/* The target's wake-ups from HLT or MWAIT that brought neither an
 * interrupt nor a new command, between the last wake and sleep, and in
 * `target_took` the interrupts its handler took then. */
uint32_t other_cpus_target_wakeups(uint32_t *target_took);

/* The cross-CPU section's (bench/run/cross_cpu.h): how many processors
 * started in phase B; each one's APIC id and MADT index by slot; the
 * boot CPU's APIC id. */
uint32_t other_cpus_started(void);
uint32_t other_cpus_apic_id(uint32_t slot);
uint32_t other_cpus_index(uint32_t slot);
uint32_t other_cpus_own_apic_id(void);

/* The rows on another CPU in the boot CPU's place
 * (bench/run/other_cpu_matrix.h): how many processors the MADT lists, and
 * the boot CPU's index among them; the slot of the one at MADT index
 * `index`, -1 where it did not start in phase B; that one started again
 * from wait-for-SIPI, alone (0, or -1 where it did not reach long
 * mode); parked again with INIT. */
uint32_t other_cpus_listed(uint32_t *own_index);
int other_cpus_slot_of(uint32_t index);
int other_cpus_start_one(uint32_t slot);
void other_cpus_park_one(uint32_t slot);

#endif
