#include "bench/run/sources.h"

#include "apic/ap_interrupt.h"
#include "apic/ioapic.h"
#include "apic/lapic.h"
#include "arch/ap.h"
#include "arch/cpu.h"
#include "arch/lib/fmt.h"
#include "arch/protected.h"
#include "arch/timing.h"
#include "bench/model/apic_reach.h"
#include "bench/model/cross_cpu.h"
#include "bench/model/results.h"
#include "bench/run/counters.h"
#include "bench/run/other_cpus.h"

const uint8_t source_check_vectors[7] = { 32, 33, 64, 127, 128, 200, 254 };

/* Delays chosen to be short against the handler on real hardware and
 * long against it under QEMU, where the timers run on virtual time. */
#define LAPIC_PERIOD_COUNT 10000
#define TSC_DEADLINE_DELTA 5000
#define PIC8259_BASE 0x50	/* IRQ 0 arrives on 0x50 */

static int x2apic_active(void)
{
	return lapic && lapic->mode == LAPIC_X2APIC;
}

/* --- INT n and self-IPIs ------------------------------------------------ */

static void fire_int(struct source_lines *l, uint8_t vector,
		      struct irq_sample *s)
{
	(void)l;
	int_sample_for(vector)(s);
}

static void fire_ipi_xapic(struct source_lines *l, uint8_t vector,
			    struct irq_sample *s)
{
	(void)l;
	ipi_sample_mmio(s, &lapic_mmio[APIC_ICR / 4],
			APIC_ICR_LEVEL_ASSERT | APIC_ICR_DEST_SELF | vector);
}

static void fire_ipi_x2apic_icr(struct source_lines *l, uint8_t vector,
				 struct irq_sample *s)
{
	(void)l;
	ipi_sample_msr(s, MSR_X2APIC_BASE + APIC_ICR / 16,
		       APIC_ICR_LEVEL_ASSERT | APIC_ICR_DEST_SELF | vector);
}

static void fire_ipi_x2apic_self(struct source_lines *l, uint8_t vector,
				  struct irq_sample *s)
{
	(void)l;
	ipi_sample_msr(s, MSR_X2APIC_BASE + APIC_SELF_IPI / 16, vector);
}

/* --- IPIs to another processor ------------------------------------------- */

/* The target's handler answers with the same vector, fixed, to this
 * processor (apic/ap_interrupt.h); the row times this one's handler, so
 * entry is the round trip there and back with both entries in it. */

#define ICR_DELIVERY_NMI (4u << 8)

static const char *other_cpu_unsupported(const struct irq_source *src,
					  struct source_lines *l)
{
	static char beyond[RESULTS_REASON_LEN];
	const char *why = other_cpus_unavailable();

	if (why) {
		fmt_snprintf(l->other_cpu.why_buf, sizeof(l->other_cpu.why_buf),
			     "no other processor to send to: %s", why);
		return l->other_cpu.why_buf;
	}
	/* The ICR names the target in 8 bits in xAPIC mode
	 * (bench/model/apic_reach.h). */
	if (lapic && (why = apic_reach_ipi_why(other_cpus_target_apic_id(),
					       lapic->mode == LAPIC_X2APIC,
					       beyond, sizeof(beyond))))
		return why;
	if (src->target_waits == AP_MWAIT &&
	    !cpu_has(X86_FEATURE_MONITOR))
		return "CPUID.1:ECX[3] (MONITOR/MWAIT) is 0";
	/* The target keeps its own stores off the command's line
	 * (arch/ap.h); a wider monitored range would take them in. */
	if (src->target_waits == AP_MWAIT && cpuid_max_leaf(0) >= 5 &&
	    (cpuid(5, 0).ebx & CPUID_05_EBX_LARGEST_LINE) > AP_CPU_LINE) {
		fmt_snprintf(l->other_cpu.why_buf, sizeof(l->other_cpu.why_buf),
			     "the monitor line is %u bytes (CPUID.5:EBX), wider "
			     "than the command word's own %u",
			     cpuid(5, 0).ebx & CPUID_05_EBX_LARGEST_LINE,
			     AP_CPU_LINE);
		return l->other_cpu.why_buf;
	}
	return l->other_cpu.why;
}

static void other_cpu_start(const struct irq_source *src,
			    struct source_lines *l, uint8_t vector)
{
	l->other_cpu.why = other_cpus_wake(src->target_waits);
	l->other_cpu.waits = src->target_waits;
	l->other_cpu.late = 0;
	l->other_cpu.delivery = src->target_nmi ? ICR_DELIVERY_NMI : 0;
	ap_reply_icr = APIC_ICR_LEVEL_ASSERT | vector;
	ap_reply_dest = source_own_apic_id();
	ap_reply_x2apic = x2apic_active();
	ap_reply_ack_only = 0;
	if (!x2apic_active())
		lapic->write(APIC_ICR2, other_cpus_target_apic_id() << 24);
}

static void other_cpu_stop(const struct irq_source *src,
			   struct source_lines *l)
{
	(void)l;
	other_cpus_sleep(source_name(src->id));
}

/* A halted or MWAITing target that woke with neither an interrupt nor a
 * new command was awake for a while, and past the bound
 * (bench/model/cross_cpu.h) the row times a target that does not wait:
 * an MWAIT ended by a store of its own, or an emulator's MWAIT that
 * does not wait. QEMU's TCG runs MWAIT as a pause where it has several
 * vCPUs, so there the row is skipped for it, the count measured and
 * stated. The count covers every pass of the row (ap_main zeroes it
 * once per start), warm-ups included, and is kept in the row either
 * way. */
static const char *other_cpu_verdict(const struct irq_source *src,
				     struct source_lines *l,
				     struct experiment_result *e,
				     int *lacking)
{
	char *why = l->other_cpu.verdict;
	struct cpu_identity id;
	uint32_t took;

	e->late = l->other_cpu.late;
	if (src->target_waits == AP_SPIN)
		return 0;
	e->target_wakeups = other_cpus_target_wakeups(&took);
	if (!target_wakeups_past_bound(e->target_wakeups, took, why,
				       sizeof(l->other_cpu.verdict)))
		return 0;
	cpu_identify(&id);
	*lacking = str_eq(id.hypervisor, "TCGTCGTCGTCG");
	return why;
}

/* The answer that did not come within the sample's wait, waited for up
 * to OTHER_CPU_LATE_MS more with interrupts let in: a target waiting
 * for a host core under an emulator is late, not lost. Its sample is
 * measured as it was, to the first TSC read after the answer, and
 * counted late (the row's `late`, docs/cross-cpu.md "Waits for another
 * processor"). */
static void wait_late_answer(struct source_lines *l, struct irq_sample *s)
{
	uint64_t end = tsc_open() + wait_budget_ticks / WAIT_BUDGET_MS *
					    OTHER_CPU_LATE_MS;

	while (!irq_arrived && tsc_open() < end) {
		irq_window();
		__asm__ volatile("pause" ::: "memory");
	}
	if (irq_arrived) {
		s->resume = counters_sample_now();
		l->other_cpu.late++;
	}
}

static void fire_other_cpu(struct source_lines *l, uint8_t vector,
			   struct irq_sample *s)
{
	/* A halted or MWAITing target is fired at once it waits again. */
	if (l->other_cpu.waits != AP_SPIN)
		(void)other_cpus_target_waiting();
	if (x2apic_active())
		ipi_sample_msr(s, MSR_X2APIC_BASE + APIC_ICR / 16,
			       (uint64_t)other_cpus_target_apic_id() << 32 |
				       l->other_cpu.delivery |
				       APIC_ICR_LEVEL_ASSERT | vector);
	else
		ipi_sample_mmio(s, &lapic_mmio[APIC_ICR / 4],
				l->other_cpu.delivery | APIC_ICR_LEVEL_ASSERT |
					vector);
	if (!irq_arrived)
		wait_late_answer(l, s);
}

/* --- local APIC timer --------------------------------------------------- */

static void lapic_timer_stop(const struct irq_source *src,
			    struct source_lines *l)
{
	(void)src;
	(void)l;
	lapic->write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	lapic->write(APIC_TMICT, 0);
}

static void lapic_oneshot_start(const struct irq_source *src,
				struct source_lines *l, uint8_t vector)
{
	(void)src;
	(void)l;
	lapic->write(APIC_TDCR, APIC_TDCR_DIVIDE_BY_1);
	lapic->write(APIC_LVT_TIMER, vector);	/* one-shot, unmasked */
}

static void fire_lapic_oneshot(struct source_lines *l, uint8_t vector,
			       struct irq_sample *s)
{
	(void)l;
	(void)vector;
	lapic->write(APIC_TMICT, LAPIC_ONESHOT_COUNT);
	wait_sample(s);
}

static void lapic_periodic_start(const struct irq_source *src,
				 struct source_lines *l, uint8_t vector)
{
	(void)src;
	(void)l;
	lapic->write(APIC_TDCR, APIC_TDCR_DIVIDE_BY_1);
	lapic->write(APIC_LVT_TIMER, vector | APIC_LVT_TIMER_PERIODIC);
	lapic->write(APIC_TMICT, LAPIC_PERIOD_COUNT);
}

/* The periodic timer fires by itself: a sample only waits for its next
 * tick. */
static void wait_next_tick(struct source_lines *l, uint8_t vector,
			   struct irq_sample *s)
{
	(void)l;
	(void)vector;
	wait_sample(s);
}

static const char *tsc_deadline_unsupported(const struct irq_source *src,
					    struct source_lines *l)
{
	(void)src;
	if (!cpu_has(X86_FEATURE_TSC_DEADLINE))
		return "CPUID.1:ECX[24] (TSC-deadline) is 0";
	return l->tsc_deadline.why[0] ? l->tsc_deadline.why : 0;
}

static void tsc_deadline_start(const struct irq_source *src,
			       struct source_lines *l, uint8_t vector)
{
	(void)src;
	(void)l;
	lapic->write(APIC_LVT_TIMER, vector | APIC_LVT_TIMER_TSC_DEADLINE);
	/* The LVT write must be visible before the deadline is armed: an
	 * MFENCE between them in xAPIC mode (SDM vol. 3 §11.5.4.1). */
	mfence();
}

/* Entry is measured from the deadline itself (the trigger), not from a
 * loop read. */
static void fire_tsc_deadline(struct source_lines *l, uint8_t vector,
			      struct irq_sample *s)
{
	uint64_t deadline = tsc_open() + TSC_DEADLINE_DELTA;

	(void)l;
	(void)vector;
	/* WRMSR to TSC_DEADLINE is not serialising (docs/controllers.md). */
	weak_wrmsr_fence();
	wrmsr(MSR_TSC_DEADLINE, deadline);
	wait_sample(s);
	s->trigger = deadline;
}

static void tsc_deadline_stop(const struct irq_source *src,
			      struct source_lines *l)
{
	wrmsr(MSR_TSC_DEADLINE, 0);	/* disarms */
	lapic_timer_stop(src, l);
}

#define LEVEL_ROW(id_, access, flush, modes_)                                \
	{ .id = SOURCE_##id_, .kind = SOURCE_EXTERNAL, .modes = modes_,       \
	  .ack = SOURCE_ACK_LEVEL_LINE, .io_access = access,                 \
	  .io_flush = flush, .repeats = 1,                                   \
	  .unsupported = level_unsupported, .start = level_start,            \
	  .fire = fire_hpet_level, .stop = level_stop }

/* The spinning target's row under every scheme: the answer is taken
 * by the scheme's handler on the boot CPU (FRED's too); the waking
 * targets' under direct. */
#define OTHER_CPU_ROW(id_, waits)                                            \
	{ .id = SOURCE_##id_, .kind = SOURCE_OTHER_CPU,                      \
	  .modes = SOURCE_EITHER_APIC, .ack = SOURCE_ACK_LAPIC,              \
	  .every_scheme = (waits) == AP_SPIN,                                 \
	  .target_waits = waits, .unsupported = other_cpu_unsupported,       \
	  .start = other_cpu_start, .fire = fire_other_cpu,                  \
	  .stop = other_cpu_stop, .verdict = other_cpu_verdict }

const struct irq_source irq_sources[] = {
	/* Software INT n: no APIC acceptance, no EOI (docs/timing.md). */
	{ .id = SOURCE_INT, .kind = SOURCE_RAISED_BY_INSTRUCTION,
	  .modes = SOURCE_NO_APIC, .every_scheme = 1,
	  .protected_trigger = PM_TRIGGER_INT, .fire = fire_int },
	{ .id = SOURCE_IPI_SELF_XAPIC, .kind = SOURCE_SELF_IPI,
	  .modes = SOURCE_XAPIC_ONLY, .ack = SOURCE_ACK_LAPIC, .every_scheme = 1,
	  .protected_trigger = PM_TRIGGER_IPI, .fire = fire_ipi_xapic },
	{ .id = SOURCE_IPI_SELF_X2APIC_SELFIPI, .kind = SOURCE_SELF_IPI,
	  .modes = SOURCE_X2APIC_ONLY, .ack = SOURCE_ACK_LAPIC,
	  .every_scheme = 1, .fire = fire_ipi_x2apic_self },
	{ .id = SOURCE_IPI_SELF_X2APIC_ICR, .kind = SOURCE_SELF_IPI,
	  .modes = SOURCE_X2APIC_ONLY, .ack = SOURCE_ACK_LAPIC,
	  .fire = fire_ipi_x2apic_icr },
	{ .id = SOURCE_LAPIC_ONESHOT, .kind = SOURCE_TIMER,
	  .modes = SOURCE_EITHER_APIC, .ack = SOURCE_ACK_LAPIC,
	  .protected_trigger = PM_TRIGGER_TIMER, .start = lapic_oneshot_start,
	  .fire = fire_lapic_oneshot, .stop = lapic_timer_stop },
	{ .id = SOURCE_LAPIC_PERIODIC, .kind = SOURCE_TIMER,
	  .modes = SOURCE_EITHER_APIC, .ack = SOURCE_ACK_LAPIC,
	  .start = lapic_periodic_start, .fire = wait_next_tick,
	  .stop = lapic_timer_stop, .repeats = 1 },
	{ .id = SOURCE_LAPIC_TSCDEADLINE, .kind = SOURCE_TIMER,
	  .modes = SOURCE_EITHER_APIC, .ack = SOURCE_ACK_LAPIC,
	  .unsupported = tsc_deadline_unsupported, .start = tsc_deadline_start,
	  .fire = fire_tsc_deadline, .stop = tsc_deadline_stop },
	{ .id = SOURCE_IOAPIC_EDGE, .kind = SOURCE_EXTERNAL,
	  .modes = SOURCE_EITHER_APIC, .ack = SOURCE_ACK_LAPIC,
	  .unsupported = pit_ioapic_unsupported, .start = pit_ioapic_start,
	  .fire = fire_pit, .stop = pit_ioapic_stop },
	LEVEL_ROW(IOAPIC_LEVEL, IOAPIC_UNCACHED, 1, SOURCE_EITHER_APIC),
	LEVEL_ROW(IOAPIC_LEVEL_UNCACHED_NF, IOAPIC_UNCACHED, 0,
		  SOURCE_XAPIC_PREFERRED),
	LEVEL_ROW(IOAPIC_LEVEL_INDEX_CACHED, IOAPIC_INDEX_CACHED, 1,
		  SOURCE_XAPIC_PREFERRED),
	LEVEL_ROW(IOAPIC_LEVEL_INDEX_CACHED_NF, IOAPIC_INDEX_CACHED, 0,
		  SOURCE_XAPIC_PREFERRED),
	LEVEL_ROW(IOAPIC_LEVEL_VALUE_CACHED, IOAPIC_VALUE_CACHED, 1,
		  SOURCE_XAPIC_PREFERRED),
	LEVEL_ROW(IOAPIC_LEVEL_VALUE_CACHED_NF, IOAPIC_VALUE_CACHED, 0,
		  SOURCE_XAPIC_PREFERRED),
	{ .id = SOURCE_PIC8259, .kind = SOURCE_EXTERNAL,
	  .modes = SOURCE_EITHER_APIC,
	  .ack = SOURCE_ACK_PIC8259, .vector = PIC8259_BASE,
	  .when_lost = "LINT0 ExtINT (virtual wire A) was tried, not B",
	  .unsupported = pic8259_unsupported, .start = pic8259_start,
	  .fire = fire_pit, .stop = pic8259_stop },
	OTHER_CPU_ROW(IPI_CPU_ROUNDTRIP, AP_SPIN),
	OTHER_CPU_ROW(IPI_CPU_ROUNDTRIP_HALTED, AP_HALT),
	OTHER_CPU_ROW(IPI_CPU_ROUNDTRIP_MWAIT, AP_MWAIT),
	{ .id = SOURCE_IPI_CPU_NMI, .kind = SOURCE_OTHER_CPU,
	  .modes = SOURCE_EITHER_APIC, .ack = SOURCE_ACK_LAPIC,
	  .target_waits = AP_SPIN, .target_nmi = 1,
	  .unsupported = other_cpu_unsupported, .start = other_cpu_start,
	  .fire = fire_other_cpu, .stop = other_cpu_stop,
	  .verdict = other_cpu_verdict },
};

const size_t irq_source_count = sizeof(irq_sources) / sizeof(irq_sources[0]);

