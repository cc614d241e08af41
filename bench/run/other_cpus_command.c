#include "bench/run/other_cpus_command.h"

#include "apic/ap_interrupt.h"
#include "apic/lapic.h"
#include "arch/ap.h"
#include "arch/cpu.h"
#include "arch/lib/log.h"
#include "bench/run/other_cpus_set.h"

/* Every wait here spins with PAUSE, never bare: under QEMU's -icount
 * the vCPUs take turns, and TCG ends a vCPU's turn at a PAUSE (it runs
 * it as "let another CPU run"), so the processor waited on runs at
 * once rather than after the spinner's whole time slice. On hardware a
 * PAUSE in a wait the boot CPU does not time changes no figure. */
static void relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

static uint64_t ticks_after_ms(uint64_t tsc_hz, uint64_t ms)
{
	return tsc_open() + tsc_hz / 1000 * ms;
}

void other_cpus_send(uint32_t apic_id, uint8_t vector)
{
	int x2apic = lapic->mode == LAPIC_X2APIC;

	/* Linux's order for an IPI that is not timed: in xAPIC mode an
	 * idle ICR first (xapic_icr_wait_idle), in x2APIC mode the fence. */
	if (x2apic)
		weak_wrmsr_fence();
	else
		(void)xapic_icr_wait_idle(APIC_ICR_IDLE_POLLS);
	lapic_icr_write(x2apic, apic_id, APIC_ICR_LEVEL_ASSERT | vector);
}

void other_cpus_command_one(const struct other_cpus *o, uint32_t slot,
			    uint32_t command)
{
	struct ap_cpu *ap = &ap_cpus[slot];

	ap_reply_x2apic = lapic->mode == LAPIC_X2APIC;
	ap_command_give(ap, command);
	/* The store before the load of `waiting`: ap_wait (arch/ap.c)
	 * stores `waiting` and then reads the seq, and without a full
	 * fence on both sides each could read the other's old value and
	 * the AP halt with no IPI coming (SDM vol. 3A §9.2.3.4). */
	mfence();
	if (ap->waiting && !ap->fault)
		other_cpus_send(o->cpu[slot].apic_id, WAKE_VECTOR);
}

/* Until the processor in `slot` took its last command or faulted, up
 * to `end`; whether it took it. */
static int took_by(uint32_t slot, uint64_t end)
{
	const struct ap_cpu *ap = &ap_cpus[slot];

	while (ap->taken != ap->seq && !ap->fault && tsc_open() < end)
		relax();
	return ap->taken == ap->seq;
}

uint32_t other_cpus_command_all(const struct other_cpus *o, uint32_t command)
{
	uint32_t s, late = 0;
	uint64_t end;

	for (s = 0; s < o->count; s++)
		if (o->cpu[s].up)
			other_cpus_command_one(o, s, command);
	end = ticks_after_ms(o->tsc_hz, OTHER_CPU_LATE_MS);
	for (s = 0; s < o->count; s++)
		if (o->cpu[s].up && !took_by(s, end))
			late++;
	return late;
}

int other_cpus_took(const struct other_cpus *o, uint32_t slot)
{
	return took_by(slot, ticks_after_ms(o->tsc_hz, OTHER_CPU_LATE_MS)) ?
		       0 : -1;
}

uint32_t other_cpus_faults_logged(const struct other_cpus *o)
{
	uint32_t s, faults = 0;

	for (s = 0; s < o->count; s++)
		if (o->cpu[s].up && ap_cpus[s].fault) {
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
	uint64_t end = ticks_after_ms(o->tsc_hz, OTHER_CPU_LATE_MS);
	const struct ap_cpu *t = &ap_cpus[o->target];

	while (!ap_waits_afresh(t) && !t->fault && tsc_open() < end)
		relax();
	return ap_waits_afresh(t);
}

void other_cpus_run(uint32_t slot, void (*work)(void *arg), void *arg)
{
	struct ap_cpu *ap = &ap_cpus[slot];

	ap->work = work;
	ap->work_arg = arg;
	ap->done = 0;
	other_cpus_command_one(&started_cpus, slot, AP_RUN);
}

/* Until the run in `slot` returned or faulted, or `progress` (where
 * given) stood still for OTHER_CPU_LATE_MS twice over: a run whose own
 * waits are each bounded by OTHER_CPU_LATE_MS moves it at least that
 * often, however many samples it takes. Then the processor waits as
 * `then` says. */
static enum work_outcome await_run(uint32_t slot, uint32_t then,
				   const volatile uint32_t *progress)
{
	const struct other_cpus *o = &started_cpus;
	struct ap_cpu *ap = &ap_cpus[slot];
	uint64_t stall = o->tsc_hz / 1000 * 2 * OTHER_CPU_LATE_MS;
	uint64_t end = tsc_open() + stall;
	uint32_t seen = progress ? *progress : 0;

	while (!ap->done && !ap->fault) {
		uint64_t now = tsc_open();

		if (progress && *progress != seen) {
			seen = *progress;
			end = now + stall;
		}
		if (now >= end)
			break;
		relax();
	}
	other_cpus_command_one(o, slot, then);
	return ap->fault ? WORK_FAULTED : ap->done ? WORK_RETURNED
						  : WORK_TIMED_OUT;
}

int other_cpus_finish(uint32_t slot, const volatile uint32_t *progress)
{
	return await_run(slot, AP_SPIN, progress) == WORK_RETURNED ? 0 : -1;
}

/* The timer's count between the halted boot CPU's looks at `progress`:
 * 1 ms with a 1 GHz timer, as QEMU's is, 10 ms with a 100 MHz bus. */
#define HALTED_TICK_COUNT 1000000u
/* How long the boot CPU then takes interrupts, to drain what is
 * pending. */
#define HALTED_DRAIN_US 20

/* The run other_cpus_run_waking started: its work, then `returned`,
 * then the wake-up, all on the other processor. */
static struct {
	void (*work)(void *arg);
	volatile uint32_t returned;
	uint32_t boot_apic_id;
} waking;

static void work_then_wake(void *arg)
{
	waking.work(arg);
	waking.returned = 1;
	other_cpus_send(waking.boot_apic_id, WAKE_VECTOR);
}

void other_cpus_run_waking(uint32_t slot, void (*work)(void *arg), void *arg,
			   uint32_t boot_apic_id)
{
	waking.work = work;
	waking.returned = 0;
	waking.boot_apic_id = boot_apic_id;
	/* Both stored before the command that lets the other run them. */
	__asm__ volatile("" ::: "memory");
	other_cpus_run(slot, work_then_wake, arg);
}

int other_cpus_finish_halted(uint32_t slot, const volatile uint32_t *progress)
{
	const struct other_cpus *o = &started_cpus;
	const struct ap_cpu *ap = &ap_cpus[slot];
	uint64_t stall = o->tsc_hz / 1000 * 2 * OTHER_CPU_LATE_MS;
	uint64_t end = tsc_open() + stall;
	uint32_t seen = *progress;
	int bad;

	lapic->write(APIC_TDCR, APIC_TDCR_DIVIDE_BY_1);
	lapic->write(APIC_LVT_TIMER, WAKE_VECTOR | APIC_LVT_TIMER_PERIODIC);
	lapic->write(APIC_TMICT, HALTED_TICK_COUNT);
	/* The wake-up or a tick that comes between the test and the STI
	 * stays pending, and STI's shadow delivers it only once HLT
	 * waits (SDM vol. 2B, STI). */
	while (!waking.returned && !ap->fault) {
		uint64_t now = tsc_open();

		if (*progress != seen) {
			seen = *progress;
			end = now + stall;
		}
		if (now >= end)
			break;
		__asm__ volatile("sti; hlt; cli" ::: "memory");
	}
	lapic->write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	lapic->write(APIC_TMICT, 0);
	/* `done` follows `returned` by a few instructions. */
	bad = other_cpus_finish(slot, progress);
	/* A tick fired before the mask, or the wake-up of a run seen to
	 * return before its IPI came, is taken here, where ap_wake is its
	 * handler: the IPI was sent before `done`, and arrives within
	 * a microsecond. */
	end = tsc_open() + o->tsc_hz / 1000000 * HALTED_DRAIN_US;
	__asm__ volatile("sti" ::: "memory");
	while (tsc_open() < end)
		relax();
	__asm__ volatile("cli" ::: "memory");
	return bad;
}

enum work_outcome other_cpus_run_quietly(uint32_t slot,
					 void (*work)(void *arg))
{
	other_cpus_run(slot, work, (void *)(uintptr_t)slot);
	return await_run(slot, AP_QUIET, 0);
}

uint32_t other_cpus_fault(uint32_t slot)
{
	return ap_cpus[slot].fault;
}
