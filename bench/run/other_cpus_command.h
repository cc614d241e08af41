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
 * ap_interrupt, counts an ack and sends nothing. */
#define WAKE_VECTOR 0xef

/* Commands every processor of `o` (AP_QUIET, AP_SPIN, AP_HALT, AP_MWAIT)
 * and waits until each took it, waking the halted ones; returns how
 * many did not in time. */
uint32_t other_cpus_command_all(const struct other_cpus *o, uint32_t command);
/* The faults the processors of `o` recorded since they last started,
 * each logged. */
uint32_t other_cpus_faults_logged(const struct other_cpus *o);

/* Has the woken processor in `slot` run work(arg) once with interrupts
 * off (AP_RUN). other_cpus_finish waits until it returned, sets it
 * spinning again, and says 0, or -1 where it faulted or never
 * returned. */
void other_cpus_run(uint32_t slot, void (*work)(void *arg), void *arg);
int other_cpus_finish(uint32_t slot);
/* How a run ended, for other_cpus_run_quietly. */
enum work_outcome { WORK_RETURNED, WORK_FAULTED, WORK_TIMED_OUT };
/* work(slot) on the processor in `slot`, which waits quiet, awaited for
 * a second; it then waits quiet again. */
enum work_outcome other_cpus_run_quietly(uint32_t slot,
					 void (*work)(void *arg));
/* The exception the processor in `slot` raised since it last started,
 * as its vector + 1; 0: none. */
uint32_t other_cpus_fault(uint32_t slot);

/* Whether the cross-CPU rows' target waits in HLT or MWAIT, up to a
 * bound, to be fired at. */
int other_cpus_target_waiting(void);
/* A fixed IPI, untimed. */
void other_cpus_send(uint32_t apic_id, uint8_t vector);

#endif
