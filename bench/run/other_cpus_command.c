#include "bench/run/other_cpus_command.h"

#include "apic/ap_interrupt.h"
#include "apic/lapic.h"
#include "arch/ap.h"
#include "arch/cpu.h"
#include "arch/lib/log.h"
#include "bench/run/other_cpus_set.h"

/* How long the boot CPU waits for an AP to take a command. */
#define COMMAND_WAIT_US 100000
/* A pin's or a restore's run is a few MSR accesses and a known loop:
 * a second is generous. */
#define QUIET_RUN_SECONDS 1
/* A cross-CPU run's work is bounded by its own waits; this is their
 * sum's bound, generous. */
#define RUN_SECONDS 10

/* Every wait here spins with PAUSE, never bare: under QEMU's -icount
 * the vCPUs take turns, and TCG ends a vCPU's turn at a PAUSE (it runs
 * it as "let another CPU run"), so the processor waited on runs at
 * once rather than after the spinner's whole time slice. On hardware a
 * PAUSE in a wait the boot CPU does not time changes no figure. */
static void relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

static uint64_t ticks_after(uint64_t tsc_hz, uint64_t us)
{
	return tsc_open() + tsc_hz / 1000000 * us;
}

void other_cpus_send(uint32_t apic_id, uint8_t vector)
{
	int x2apic = lapic->mode == LAPIC_X2APIC;

	if (x2apic)
		weak_wrmsr_fence();
	lapic_icr_write(x2apic, apic_id, APIC_ICR_LEVEL_ASSERT | vector);
}

uint32_t other_cpus_command_all(const struct other_cpus *o, uint32_t command)
{
	uint32_t s, late = 0;
	uint64_t end;

	ap_reply_ack_only = 1;
	ap_reply_x2apic = lapic->mode == LAPIC_X2APIC;
	for (s = 0; s < o->count; s++) {
		ap_cpus[s].command = command;
		/* The store before the load of `waiting`: ap_wait
		 * (arch/ap.c) stores `waiting` and then reads the command,
		 * and without a full fence on both sides each could read
		 * the other's old value and the AP halt with no IPI coming
		 * (SDM vol. 3A §9.2.3.4). */
		mfence();
		if (ap_cpus[s].waiting && !ap_cpus[s].fault)
			other_cpus_send(o->cpu[s].apic_id, WAKE_VECTOR);
	}
	end = ticks_after(o->tsc_hz, COMMAND_WAIT_US);
	for (s = 0; s < o->count; s++) {
		while (ap_cpus[s].state != command && !ap_cpus[s].fault &&
		       tsc_open() < end)
			relax();
		if (ap_cpus[s].state != command)
			late++;
	}
	return late;
}

uint32_t other_cpus_faults_logged(const struct other_cpus *o)
{
	uint32_t s, faults = 0;

	for (s = 0; s < o->count; s++)
		if (ap_cpus[s].fault) {
			faults++;
			log_printf("other CPUs: CPU %u, APIC id %u: exception "
				   "%u; it parked itself\n", o->cpu[s].index,
				   o->cpu[s].apic_id, ap_cpus[s].fault - 1);
		}
	return faults;
}

int other_cpus_target_waiting(void)
{
	const struct other_cpus *o = &started_cpus;
	uint64_t end = ticks_after(o->tsc_hz, COMMAND_WAIT_US);
	const struct ap_cpu *t = &ap_cpus[o->target];

	while (!t->waiting && !t->fault && tsc_open() < end)
		relax();
	return t->waiting;
}

void other_cpus_run(uint32_t slot, void (*work)(void *arg), void *arg)
{
	struct ap_cpu *ap = &ap_cpus[slot];

	ap->work = work;
	ap->work_arg = arg;
	ap->done = 0;
	ap->command = AP_RUN;
}

/* Waits up to `seconds` until the run in `slot` returned or faulted,
 * then has the processor wait as `then` says. */
static enum work_outcome await_run(uint32_t slot, uint64_t seconds,
				   uint32_t then)
{
	struct ap_cpu *ap = &ap_cpus[slot];
	uint64_t end = tsc_open() + started_cpus.tsc_hz * seconds;

	while (!ap->done && !ap->fault && tsc_open() < end)
		relax();
	ap->command = then;
	return ap->fault ? WORK_FAULTED : ap->done ? WORK_RETURNED
						  : WORK_TIMED_OUT;
}

int other_cpus_finish(uint32_t slot)
{
	return await_run(slot, RUN_SECONDS, AP_SPIN) == WORK_RETURNED ? 0 : -1;
}

enum work_outcome other_cpus_run_quietly(uint32_t slot,
					 void (*work)(void *arg))
{
	other_cpus_run(slot, work, (void *)(uintptr_t)slot);
	return await_run(slot, QUIET_RUN_SECONDS, AP_QUIET);
}

uint32_t other_cpus_fault(uint32_t slot)
{
	return ap_cpus[slot].fault;
}
