/* The processors other than the one measured, "other CPUs" throughout
 * the runner (docs/controllers.md "The other CPUs"): started once in
 * phase B, all together, and parked halted in irqlab's loop (arch/ap.c)
 * before any row, so that no firmware loop runs beside the measured
 * CPU, on its SMT sibling or on the memory bus; woken by command for the
 * rows that use them, and parked for good, halted with interrupts off,
 * at the end of the boot: never left in wait-for-SIPI while the
 * firmware runs (docs/cross-cpu.md "Parked for good").
 * Their command channel is bench/run/other_cpus_command.h. */
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
 * lists as enabled into long mode (arch/ap.h), all at once, where the
 * area allows, and parks each, halted, in irqlab's loop; records what
 * was done in r's probes and a status line. */
void other_cpus_start_and_park(const struct madt_info *m,
			       enum acpi_status madt_status,
			       const struct other_cpus_area *area,
			       struct run_result *r);

/* The cross-CPU rows (docs/controllers.md "The cross-CPU rows"): why
 * they cannot run, or NULL where a processor started in phase B; their
 * target, the closest of those. */
const char *other_cpus_unavailable(void);
uint32_t other_cpus_target_apic_id(void);
/* Has the target wait as `command` says (AP_SPIN, AP_HALT, AP_MWAIT:
 * arch/ap.h), the others parked; starts again together any that INIT
 * parked since; NULL, or why not. */
const char *other_cpus_wake(uint32_t command);
/* The same with every one parked, for the section to set going as it
 * needs (other_cpus_hold); NULL, or why not every one came. */
const char *other_cpus_wake_parked(void);
/* The processor in `slot` told `command`, pinned first where this is
 * its first work since it started; 0, or -1 where it is not running or
 * did not take it. */
int other_cpus_hold(uint32_t slot, uint32_t command);
/* Parks the target (and any other a row set going) halted again, once
 * it took that, and writes what the target was told and what it did
 * since the wake to a status line for `source`. */
void other_cpus_sleep(const char *source);
/* The target's wake-ups from HLT or MWAIT that brought neither an
 * interrupt nor a new command, between the last wake and sleep, and in
 * `target_took` the interrupts its handler took then. */
uint32_t other_cpus_target_wakeups(uint32_t *target_took);

/* Around the boot CPU's switch of its local APIC's mode (the runner's):
 * the running processors out of HLT into a loop that needs no IPI,
 * then, where the switch left the boot CPU's APIC `usable`, each
 * switched to its new mode on itself and parked again. They follow
 * without a new start. */
void other_cpus_before_mode_switch(void);
void other_cpus_after_mode_switch(int usable);
/* At the end of the boot: each running one's clock put back, and
 * halted for good with interrupts off in irqlab's loop (AP_PARKED),
 * never INIT, before the firmware's runtime services run. */
void other_cpus_park_for_good(void);
/* The processors an INIT of this boot's left in wait-for-SIPI: those
 * that did not arrive after a start. */
uint32_t other_cpus_left_in_init(void);
/* This boot's starts: how many times processors were started together,
 * and the most starts any one took. */
void other_cpus_starts(uint32_t *rounds, uint32_t *most);

/* The cross-CPU section's (bench/run/cross_cpu.h): how many processors
 * started in phase B; the slots (some may hold one that did not start:
 * other_cpus_ok); each slot's APIC id and MADT index; whether it is
 * running now; the boot CPU's APIC id. */
uint32_t other_cpus_started(void);
uint32_t other_cpus_slots(void);
int other_cpus_ok(uint32_t slot);
int other_cpus_up(uint32_t slot);
uint32_t other_cpus_apic_id(uint32_t slot);
uint32_t other_cpus_index(uint32_t slot);
uint32_t other_cpus_own_apic_id(void);

/* The rows on another CPU in the boot CPU's place
 * (bench/run/other_cpu_matrix.h): how many processors the MADT lists, and
 * the boot CPU's index among them; the slot of the one at MADT index
 * `index`, -1 where it did not start in phase B; that one running and
 * quiet, started again alone where it is not in ap_wait (0, or -1
 * where it did not reach long mode); once its rows are done, INIT and
 * started again at once, from a clean state, into irqlab's loop: never
 * left in wait-for-SIPI while the boot CPU measures. */
uint32_t other_cpus_listed(uint32_t *own_index);
int other_cpus_slot_of(uint32_t index);
/* Why phase B did not try to start the processor at MADT index `index`,
 * written into `buf`: its APIC id is past what xAPIC, the firmware's
 * mode, can name (bench/model/apic_reach.h); NULL where it was tried. */
const char *other_cpus_untried_why(uint32_t index, char *buf, size_t cap);
int other_cpus_take(uint32_t slot);
void other_cpus_restart_one(uint32_t slot);

#endif
