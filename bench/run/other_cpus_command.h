/* The command channel to the other processors once they run (arch/ap.h,
 * struct ap_cpu): a command word each watches, a wake-up IPI for one
 * that waits in HLT or MWAIT, and one function run with its return
 * awaited. */
#ifndef IRQLAB_BENCH_RUN_OTHER_CPUS_COMMAND_H
#define IRQLAB_BENCH_RUN_OTHER_CPUS_COMMAND_H

#include <stdint.h>

struct other_cpus;

/* The vector that wakes a halted processor to take a new command (an
 * AP, or the boot CPU while another runs in its place): its handler,
 * ap_wake, counts it in the processor's own `wakes` and sends nothing. */
#define WAKE_VECTOR 0xef

/* How long a wait for another processor runs before it gives up: a
 * command taken, a run's progress, a sample's answer past the sample's
 * own wait (WAIT_BUDGET_MS), a start. A processor that is there answers
 * within microseconds; on a host whose vCPUs outnumber its cores, a
 * vCPU can wait tens or hundreds of milliseconds for a core, and this
 * bound is 20 times the sample's. Waits end as soon as they are
 * answered, so only a processor that is gone costs all of it
 * (docs/cross-cpu.md "Waits for another processor"). */
#define OTHER_CPU_LATE_MS 5000

/* Commands the processor in `slot` (AP_*, arch/ap.h): the command, a new
 * seq, and a wake-up IPI where it waits in HLT or MWAIT. */
void other_cpus_command_one(const struct other_cpus *o, uint32_t slot,
			    uint32_t command);
/* Whether it took its last command (0) or not in time (-1). */
int other_cpus_took(const struct other_cpus *o, uint32_t slot);
/* Commands every running processor of `o` and waits until each took
 * it; returns how many did not in time. */
uint32_t other_cpus_command_all(const struct other_cpus *o, uint32_t command);
/* The faults the processors of `o` recorded since they last started,
 * each logged. */
uint32_t other_cpus_faults_logged(const struct other_cpus *o);

/* Has the processor in `slot` run work(arg) once with interrupts off
 * (AP_RUN), woken where it halts. other_cpus_finish waits until it
 * returned, or until `progress` (a count the work moves, or NULL) stood
 * still too long, sets it spinning again, and says 0, or -1 where it
 * faulted or never returned. */
void other_cpus_run(uint32_t slot, void (*work)(void *arg), void *arg);
int other_cpus_finish(uint32_t slot, const volatile uint32_t *progress);
/* The same, with the boot CPU halted while it waits: the work, once it
 * returned, wakes it (WAKE_VECTOR to `boot_apic_id`), and the local
 * APIC timer, periodic on WAKE_VECTOR, wakes it meanwhile to see that
 * `progress` still moves. The caller has ap_wake at WAKE_VECTOR in the
 * boot CPU's IDT and GS on a struct ap_cpu of its own, and interrupts
 * off. A boot CPU that spins beside the work takes a host core from it
 * under an emulator, and an issue slot from a sibling thread on
 * hardware (docs/cross-cpu.md "The boot CPU halts"). One at a time. */
void other_cpus_run_waking(uint32_t slot, void (*work)(void *arg), void *arg,
			   uint32_t boot_apic_id);
int other_cpus_finish_halted(uint32_t slot, const volatile uint32_t *progress);
/* How a run ended, for other_cpus_run_quietly. */
enum work_outcome { WORK_RETURNED, WORK_FAULTED, WORK_TIMED_OUT };
/* work(slot) on the processor in `slot`, awaited up to twice
 * OTHER_CPU_LATE_MS; it then waits quiet. */
enum work_outcome other_cpus_run_quietly(uint32_t slot,
					 void (*work)(void *arg));
/* The exception the processor in `slot` raised since it last started,
 * as its vector + 1; 0: none. */
uint32_t other_cpus_fault(uint32_t slot);

/* Whether the cross-CPU rows' target waits in HLT or MWAIT, in a wait
 * begun after it took its last interrupt (ap_waits_afresh), up to a
 * bound, to be fired at. */
int other_cpus_target_waiting(void);
/* A fixed IPI, untimed. */
void other_cpus_send(uint32_t apic_id, uint8_t vector);

#endif
