/* The processors other than the one measured (docs/controllers.md "The
 * other CPUs"): parked before any row, so that no firmware loop runs
 * beside the measured CPU, on its SMT sibling or on the memory bus. */
#ifndef IRQLAB_BENCH_RUN_OTHER_CPUS_H
#define IRQLAB_BENCH_RUN_OTHER_CPUS_H

#include "firmware/acpi.h"

struct run_result;

/* The vector that wakes a halted processor to take a new command (an
 * AP, or the boot CPU while another runs in its place): its handler,
 * ap_interrupt, counts an ack and sends nothing. */
#define WAKE_VECTOR 0xef

/* What phase A set aside for starting the other processors: the page
 * below 1 MiB the trampoline is copied to (NULL: none), and a stack of
 * AP_STACK_BYTES for each of stack_count processors. */
struct ap_area {
	void *page;
	uint8_t *stacks;
	uint32_t stack_count;
};

/* Starts every other processor the MADT lists as enabled with
 * INIT-SIPI-SIPI into long mode (arch/ap.h), where the area allows,
 * then sends each an INIT, which leaves it in wait-for-SIPI (SDM vol.
 * 3A §9.4) for the rows; records what was done in r's probes and a
 * status line. */
void other_cpus_park(const struct madt_info *m, enum acpi_status madt_status,
		     const struct ap_area *area, struct run_result *r);

/* The cross-CPU rows (docs/controllers.md "The cross-CPU rows"): why
 * they cannot run, or NULL where a processor started in phase B; their
 * target, the closest of those; whether it waits in HLT or MWAIT (up to
 * a bound), to be fired at. */
const char *other_cpus_unavailable(void);
uint32_t other_cpus_target_apic_id(void);
int other_cpus_target_waiting(void);
/* Starts the processors again, their local APICs in the boot CPU's
 * mode, and has each wait as `command` says (AP_SPIN, AP_HALT,
 * AP_MWAIT: arch/ap.h); NULL, or why not. */
const char *other_cpus_wake(uint32_t command);
/* Puts them back into wait-for-SIPI with INIT, once they stopped
 * waiting, and writes what the target's handler took to a status
 * line for `source`. */
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
/* Has the woken processor in `slot` run work(arg) once with interrupts
 * off (AP_RUN); other_cpus_finish waits until it returned, sets it
 * spinning again, and says 0, or -1 where it faulted or never
 * returned. */
void other_cpus_run(uint32_t slot, void (*work)(void *arg), void *arg);
int other_cpus_finish(uint32_t slot);
/* The exception the processor in `slot` raised since it last started,
 * as its vector + 1; 0: none. */
uint32_t other_cpus_fault(uint32_t slot);

/* The processor in the boot CPU's place (bench/run/stand_in.h): how
 * many processors the MADT lists, and the boot CPU's index among them;
 * the slot of the one at MADT index `index`, -1 where it did not start
 * in phase B; that one started again from wait-for-SIPI, alone (0, or
 * -1 where it did not reach long mode); parked again with INIT; a fixed
 * IPI, untimed. */
uint32_t other_cpus_listed(uint32_t *own_index);
int other_cpus_slot_of(uint32_t index);
int other_cpus_start_one(uint32_t slot);
void other_cpus_park_one(uint32_t slot);
void other_cpus_send(uint32_t apic_id, uint8_t vector);

#endif
