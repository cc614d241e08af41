#include "bench/run/sources.h"

#include "apic/ap_interrupt.h"
#include "apic/ioapic.h"
#include "apic/lapic.h"
#include "apic/level_line.h"
#include "apic/pic8259.h"
#include "apic/timers.h"
#include "arch/ap.h"
#include "arch/cpu.h"
#include "arch/lib/log.h"
#include "arch/lib/fmt.h"
#include "arch/protected.h"
#include "arch/timing.h"
#include "bench/model/cross_cpu.h"
#include "bench/model/probes.h"
#include "bench/model/results.h"
#include "bench/run/counters.h"
#include "bench/run/other_cpus.h"

const uint8_t source_check_vectors[7] = { 32, 33, 64, 127, 128, 200, 254 };

/* The machine, as phase A found it. */
static struct madt_info madt;
static enum acpi_status madt_status = ACPI_TOO_SHORT;
static struct hpet_info hpet_table;
static enum acpi_status hpet_status = ACPI_TOO_SHORT;
/* Every IO-APIC the MADT lists, all masked; each line uses the one its
 * GSI belongs to (pit_io, level_io: NULL where none does). */
static struct ioapic ioapics[MADT_MAX_IOAPICS];
static unsigned n_ioapics;
static struct ioapic *pit_io, *level_io;
static struct hpet hpet;
static int have_hpet;
static unsigned hpet_timer, hpet_gsi;
static char why_buf[128];
/* What the probes found against a line, or NULL (docs/controllers.md
 * "Probes"). */
static const char *pit_why, *hpet_why, *remapping_why, *tsc_deadline_why;
static char pit_buf[160], hpet_buf[160], remapping_buf[160];
static char tsc_deadline_buf[160];

/* Delays chosen to be short against the handler on real hardware and
 * long against it under QEMU, where the timers run on virtual time. */
#define LAPIC_ONESHOT_COUNT 1000
#define LAPIC_PERIOD_COUNT 10000
#define TSC_DEADLINE_DELTA 5000
#define PIT_ONESHOT_COUNT 4
#define HPET_ONESHOT_NS 2000
#define PIC8259_BASE 0x50	/* IRQ 0 arrives on 0x50 */

/* Any vector will do for the IO-APIC sequences: the pin stays masked
 * while they are timed. */
#define SEQUENCE_VECTOR 0x40

static int x2apic_active(void)
{
	return lapic && lapic->mode == LAPIC_X2APIC;
}

static uint32_t bsp_apic_id(void)
{
	uint32_t id = lapic->read(APIC_ID);

	return x2apic_active() ? id : id >> 24;
}

/* --- INT n and self-IPIs ------------------------------------------------ */

static void fire_int(uint8_t vector, struct irq_sample *s)
{
	int_sample_for(vector)(s);
}

static void fire_ipi_xapic(uint8_t vector, struct irq_sample *s)
{
	ipi_sample_mmio(s, &lapic_mmio[APIC_ICR / 4],
			APIC_ICR_LEVEL_ASSERT | APIC_ICR_DEST_SELF | vector);
}

static void fire_ipi_x2apic_icr(uint8_t vector, struct irq_sample *s)
{
	ipi_sample_msr(s, MSR_X2APIC_BASE + APIC_ICR / 16,
		       APIC_ICR_LEVEL_ASSERT | APIC_ICR_DEST_SELF | vector);
}

static void fire_ipi_x2apic_self(uint8_t vector, struct irq_sample *s)
{
	ipi_sample_msr(s, MSR_X2APIC_BASE + APIC_SELF_IPI / 16, vector);
}

/* --- IPIs to another processor ------------------------------------------- */

/* The target's handler answers with the same vector, fixed, to this
 * processor (apic/ap_interrupt.h); the row times this one's handler, so
 * entry is the round trip there and back with both entries in it. */

static const char *why_other_cpu;
static char other_cpu_buf[96];
static uint8_t other_cpu_waits;
/* The ICR's delivery mode for the row: fixed, or NMI (SDM vol. 3A
 * §11.6.1, 100b). */
static uint32_t other_cpu_delivery;
#define ICR_DELIVERY_NMI (4u << 8)

static const char *other_cpu_unsupported(const struct irq_source *src)
{
	const char *why = other_cpus_unavailable();

	if (why) {
		fmt_snprintf(other_cpu_buf, sizeof(other_cpu_buf), "no other "
			     "processor to send to: %s", why);
		return other_cpu_buf;
	}
	if (src->target_waits == AP_MWAIT &&
	    !cpu_has(X86_FEATURE_MONITOR))
		return "CPUID.1:ECX[3] (MONITOR/MWAIT) is 0";
	/* The target keeps its own stores off the command's line
	 * (arch/ap.h); a wider monitored range would take them in. */
	if (src->target_waits == AP_MWAIT && cpuid_max_leaf(0) >= 5 &&
	    (cpuid(5, 0).ebx & CPUID_05_EBX_LARGEST_LINE) > AP_CPU_LINE) {
		fmt_snprintf(other_cpu_buf, sizeof(other_cpu_buf), "the "
			     "monitor line is %u bytes (CPUID.5:EBX), wider "
			     "than the command word's own %u",
			     cpuid(5, 0).ebx & CPUID_05_EBX_LARGEST_LINE,
			     AP_CPU_LINE);
		return other_cpu_buf;
	}
	return why_other_cpu;
}

static void other_cpu_start(const struct irq_source *src, uint8_t vector)
{
	why_other_cpu = other_cpus_wake(src->target_waits);
	other_cpu_waits = src->target_waits;
	other_cpu_delivery = src->target_nmi ? ICR_DELIVERY_NMI : 0;
	ap_reply_icr = APIC_ICR_LEVEL_ASSERT | vector;
	ap_reply_dest = bsp_apic_id();
	ap_reply_x2apic = x2apic_active();
	ap_reply_ack_only = 0;
	if (!x2apic_active())
		lapic->write(APIC_ICR2, other_cpus_target_apic_id() << 24);
}

static void other_cpu_stop(const struct irq_source *src)
{
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
				     struct experiment_result *e,
				     int *lacking)
{
	static char why[RESULTS_REASON_LEN];
	struct cpu_identity id;
	uint32_t took;

	if (src->target_waits == AP_SPIN)
		return 0;
	e->target_wakeups = other_cpus_target_wakeups(&took);
	if (!target_wakeups_past_bound(e->target_wakeups, took, why,
				       sizeof(why)))
		return 0;
	cpu_identify(&id);
	*lacking = str_eq(id.hypervisor, "TCGTCGTCGTCG");
	return why;
}

static void fire_other_cpu(uint8_t vector, struct irq_sample *s)
{
	/* A halted or MWAITing target is fired at once it waits again. */
	if (other_cpu_waits != AP_SPIN)
		(void)other_cpus_target_waiting();
	if (x2apic_active())
		ipi_sample_msr(s, MSR_X2APIC_BASE + APIC_ICR / 16,
			       (uint64_t)other_cpus_target_apic_id() << 32 |
				       other_cpu_delivery |
				       APIC_ICR_LEVEL_ASSERT | vector);
	else
		ipi_sample_mmio(s, &lapic_mmio[APIC_ICR / 4],
				other_cpu_delivery | APIC_ICR_LEVEL_ASSERT |
					vector);
}

/* --- local APIC timer --------------------------------------------------- */

static void lapic_timer_stop(const struct irq_source *src)
{
	(void)src;
	lapic->write(APIC_LVT_TIMER, APIC_LVT_MASKED);
	lapic->write(APIC_TMICT, 0);
}

static void lapic_oneshot_start(const struct irq_source *src, uint8_t vector)
{
	(void)src;
	lapic->write(APIC_TDCR, APIC_TDCR_DIVIDE_BY_1);
	lapic->write(APIC_LVT_TIMER, vector);	/* one-shot, unmasked */
}

static void fire_lapic_oneshot(uint8_t vector, struct irq_sample *s)
{
	(void)vector;
	lapic->write(APIC_TMICT, LAPIC_ONESHOT_COUNT);
	wait_sample(s);
}

static void lapic_periodic_start(const struct irq_source *src, uint8_t vector)
{
	(void)src;
	lapic->write(APIC_TDCR, APIC_TDCR_DIVIDE_BY_1);
	lapic->write(APIC_LVT_TIMER, vector | APIC_LVT_TIMER_PERIODIC);
	lapic->write(APIC_TMICT, LAPIC_PERIOD_COUNT);
}

static void fire_wait(uint8_t vector, struct irq_sample *s)
{
	(void)vector;
	wait_sample(s);
}

static const char *tsc_deadline_unsupported(const struct irq_source *src)
{
	(void)src;
	if (!cpu_has(X86_FEATURE_TSC_DEADLINE))
		return "CPUID.1:ECX[24] (TSC-deadline) is 0";
	return tsc_deadline_why;
}

static void tsc_deadline_start(const struct irq_source *src, uint8_t vector)
{
	(void)src;
	lapic->write(APIC_LVT_TIMER, vector | APIC_LVT_TIMER_TSC_DEADLINE);
	/* The LVT write must be visible before the deadline is armed: an
	 * MFENCE between them in xAPIC mode (SDM vol. 3 §11.5.4.1). */
	mfence();
}

/* Entry is measured from the deadline itself (the trigger), not from a
 * loop read. */
static void fire_tsc_deadline(uint8_t vector, struct irq_sample *s)
{
	uint64_t deadline = tsc_open() + TSC_DEADLINE_DELTA;

	(void)vector;
	/* WRMSR to TSC_DEADLINE is not serialising (docs/controllers.md). */
	weak_wrmsr_fence();
	wrmsr(MSR_TSC_DEADLINE, deadline);
	wait_sample(s);
	s->trigger = deadline;
}

static void tsc_deadline_stop(const struct irq_source *src)
{
	wrmsr(MSR_TSC_DEADLINE, 0);	/* disarms */
	lapic_timer_stop(src);
}

/* --- PIT through the IO-APIC (edge) ---------------------------------- */

/* Why no row may use an IO-APIC here, or NULL. */
static const char *no_ioapic(void)
{
	if (madt_status != ACPI_OK) {
		fmt_snprintf(why_buf, sizeof(why_buf), "ACPI MADT: %s",
			     madt_status == ACPI_TOO_SHORT ? "absent or too short"
							   : acpi_status_name(madt_status));
		return why_buf;
	}
	if (!n_ioapics)
		return "the MADT lists no IO-APIC";
	return remapping_why;
}

static const char *ioapic_unsupported(const struct irq_source *src)
{
	const char *why = no_ioapic();

	(void)src;
	if (why)
		return why;
	if (pit_why)
		return pit_why;
	return pit_io ? 0 : "IRQ 0's GSI belongs to no IO-APIC the MADT lists";
}

static unsigned pit_pin(uint16_t *flags)
{
	return madt_isa_gsi(&madt, 0, flags) - pit_io->gsi_base;
}

static void pit_ioapic_start(const struct irq_source *src, uint8_t vector)
{
	uint16_t flags;
	unsigned pin = pit_pin(&flags);

	(void)src;
	ioapic_set_access(pit_io, IOAPIC_UNCACHED, 1);
	ioapic_route(pit_io, pin, vector, bsp_apic_id(),
		     (flags & MPS_TRIGGER_MASK) == MPS_TRIGGER_LEVEL ?
			     IOAPIC_LEVEL : IOAPIC_EDGE,
		     (flags & MPS_POLARITY_MASK) == MPS_POLARITY_LOW ?
			     IOAPIC_ACTIVE_LOW : IOAPIC_ACTIVE_HIGH);
}

static void fire_pit(uint8_t vector, struct irq_sample *s)
{
	(void)vector;
	pit_oneshot(PIT_ONESHOT_COUNT);
	wait_sample(s);
}

static void pit_ioapic_stop(const struct irq_source *src)
{
	uint16_t flags;

	(void)src;
	ioapic_mask(pit_io, pit_pin(&flags));
	pit_stop();
}

/* --- HPET through the IO-APIC (level), seed 004's access strategies ---- */

/* How long the line is watched before its first level row. */
#define LINE_WATCH_US 200

/* Whether something else drives the HPET's line: GSIs 20-23 are often
 * shared with PCI INTx lines, and a device's interrupts would count as
 * the row's own. The pin, routed level-triggered and unmasked with
 * interrupts off, sets Remote IRR when the line is asserted (the local
 * APIC accepts the message into its IRR). Checked once, in the mode of
 * the first level row; what it let in is drained and ended. */
static const char *line_busy(void)
{
	static int checked;
	static const char *busy;
	static char busy_buf[128];
	unsigned pin = hpet_gsi - level_io->gsi_base;

	if (checked)
		return busy;
	checked = 1;
	ioapic_set_access(level_io, IOAPIC_UNCACHED, 1);
	ioapic_route(level_io, pin, SEQUENCE_VECTOR, bsp_apic_id(), IOAPIC_LEVEL,
		     IOAPIC_ACTIVE_HIGH);
	tsc_pause_us(wait_budget_ticks / WAIT_BUDGET_MS * 1000u, LINE_WATCH_US);
	ioapic_mask(level_io, pin);
	if (ioapic_read(level_io, IOAPIC_REDIR(pin)) & IOAPIC_RTE_REMOTE_IRR) {
		fmt_snprintf(busy_buf, sizeof(busy_buf),
			     "GSI %u is asserted with the HPET's timer %u off: "
			     "another device shares the line", hpet_gsi,
			     hpet_timer);
		busy = busy_buf;
		ioapic_level_eoi(level_io, pin, SEQUENCE_VECTOR);
	}
	return busy;
}

static const char *level_unsupported(const struct irq_source *src)
{
	const char *why = no_ioapic();

	(void)src;
	if (why)
		return why;
	if (hpet_status != ACPI_OK) {
		fmt_snprintf(why_buf, sizeof(why_buf), "ACPI HPET table: %s",
			     hpet_status == ACPI_TOO_SHORT ? "absent or too short"
							   : acpi_status_name(hpet_status));
		return why_buf;
	}
	if (hpet_why)
		return hpet_why;
	if (!have_hpet) {
		fmt_snprintf(why_buf, sizeof(why_buf),
			     "no HPET timer routes to an IO-APIC input that no "
			     "ISA IRQ uses (route capability 0x%llx)",
			     (unsigned long long)hpet_route_cap(&hpet, hpet.timers - 1u));
		return why_buf;
	}
	return line_busy();
}

static void level_start(const struct irq_source *src, uint8_t vector)
{
	unsigned pin = hpet_gsi - level_io->gsi_base;

	ioapic_set_access(level_io, (enum ioapic_access)src->io_access,
			  src->io_flush);
	level_line = (struct level_line){
		.io = level_io, .pin = pin, .vector = vector, .hpet = &hpet,
		.timer = hpet_timer, .x2apic = (uint8_t)x2apic_active(),
		.directed_eoi = !!(lapic->read(APIC_SVR) & APIC_SVR_DIRECTED_EOI),
	};
	ioapic_route(level_io, pin, vector, bsp_apic_id(), IOAPIC_LEVEL,
		     IOAPIC_ACTIVE_HIGH);
}

static void fire_hpet_level(uint8_t vector, struct irq_sample *s)
{
	uint64_t ticks = (uint64_t)HPET_ONESHOT_NS * 1000000 / hpet.period_fs;

	(void)vector;
	hpet_arm_level(&hpet, hpet_timer, hpet_gsi, ticks ? ticks : 1);
	wait_sample(s);
}

static void level_stop(const struct irq_source *src)
{
	unsigned pin = hpet_gsi - level_io->gsi_base;

	(void)src;
	/* However the row ended: the comparator off and its level dropped,
	 * the pin masked, and Remote IRR clear, so the next level row finds
	 * the line as the first one did. */
	hpet_disarm(&hpet, hpet_timer);
	hpet_clear(&hpet, hpet_timer);
	ioapic_set_access(level_io, IOAPIC_UNCACHED, 1);
	ioapic_mask(level_io, pin);
	if (ioapic_read(level_io, IOAPIC_REDIR(pin)) & IOAPIC_RTE_REMOTE_IRR)
		ioapic_level_eoi(level_io, pin, level_line.vector);
}

/* --- the XT-PIC path: PIT -> 8259 -> LINT0 as ExtINT ------------------- */

static const char *pic8259_unsupported(const struct irq_source *src)
{
	(void)src;
	if (madt_status == ACPI_OK && !(madt.flags & 1))
		return "the MADT says there are no 8259s (PCAT_COMPAT clear)";
	return pit_why;
}

static void pic8259_start(const struct irq_source *src, uint8_t vector)
{
	(void)src;
	pic8259_init(vector, 1u << 0);	/* only IRQ 0, the PIT */
	lapic->write(APIC_LVT_LINT0, APIC_LVT_DELIVERY_EXTINT);
}

static void pic8259_stop(const struct irq_source *src)
{
	(void)src;
	lapic->write(APIC_LVT_LINT0, APIC_LVT_MASKED);
	pic8259_mask_all();
	pit_stop();
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
	  .start = lapic_periodic_start, .fire = fire_wait,
	  .stop = lapic_timer_stop, .repeats = 1 },
	{ .id = SOURCE_LAPIC_TSCDEADLINE, .kind = SOURCE_TIMER,
	  .modes = SOURCE_EITHER_APIC, .ack = SOURCE_ACK_LAPIC,
	  .unsupported = tsc_deadline_unsupported, .start = tsc_deadline_start,
	  .fire = fire_tsc_deadline, .stop = tsc_deadline_stop },
	{ .id = SOURCE_IOAPIC_EDGE, .kind = SOURCE_EXTERNAL,
	  .modes = SOURCE_EITHER_APIC, .ack = SOURCE_ACK_LAPIC,
	  .unsupported = ioapic_unsupported, .start = pit_ioapic_start,
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
	  .fire = fire_other_cpu, .stop = other_cpu_stop },
};

const size_t irq_source_count = sizeof(irq_sources) / sizeof(irq_sources[0]);

/* Whether an ISA IRQ arrives on this GSI. Those lines have other drivers
 * (the PIT on IRQ 0's), and QEMU's IO-APIC latches an edge on a masked
 * input, so sharing one would mix their interrupts into the level line. */
static int isa_gsi(unsigned gsi)
{
	uint16_t flags;
	unsigned irq;

	for (irq = 0; irq < 16; irq++)
		if (madt_isa_gsi(&madt, (uint8_t)irq, &flags) == gsi)
			return 1;
	return 0;
}

/* The IO-APIC that takes `gsi`, or NULL. */
static struct ioapic *ioapic_of(uint32_t gsi)
{
	uint32_t base[MADT_MAX_IOAPICS];
	uint8_t pins[MADT_MAX_IOAPICS];
	unsigned i;
	int owner;

	for (i = 0; i < n_ioapics; i++) {
		base[i] = ioapics[i].gsi_base;
		pins[i] = ioapics[i].pins;
	}
	owner = probe_gsi_owner(base, pins, n_ioapics, gsi);
	return owner < 0 ? 0 : &ioapics[owner];
}

/* An HPET timer whose route capability reaches an IO-APIC input that no
 * ISA IRQ uses, preferring the last timer and the highest input. */
static void pick_hpet_route(void)
{
	int t, gsi;

	for (t = hpet.timers - 1; t >= 0; t--) {
		uint64_t cap = hpet_route_cap(&hpet, (unsigned)t);

		for (gsi = 31; gsi >= 0; gsi--)
			if (((cap >> gsi) & 1) && !isa_gsi((unsigned)gsi) &&
			    ioapic_of((uint32_t)gsi)) {
				hpet_timer = (unsigned)t;
				hpet_gsi = (unsigned)gsi;
				level_io = ioapic_of((uint32_t)gsi);
				have_hpet = 1;
				return;
			}
	}
}

/* The 8254 counts (channel 0 latched twice, 50 us apart: about 60 of
 * its ticks), or it is gated. */
static void probe_the_pit(struct run_result *r)
{
	uint16_t first, second;
	int simulated = config_simulates(&r->config, SIMULATE_PIT_GATED);

	pit_oneshot(0xffff);
	first = pit_latch_read();
	tsc_pause_us(r->tsc_hz, 50);
	second = simulated ? first : pit_latch_read();
	pit_stop();
	pit_why = probe_pit(first, second, pit_buf, sizeof(pit_buf));
	if (pit_why && simulated) {
		struct text_buf tb;

		tb_continue(&tb, pit_buf, sizeof(pit_buf));
		tb_printf(&tb, " (simulated)");
	}
	if (pit_why)
		record_probe(r, PROBE_PIT, simulated ? PROBE_SIMULATED : PROBE_QUIRK,
			     "%s", pit_why);
	else
		record_probe(r, PROBE_PIT, PROBE_OK, "channel 0 counts "
			     "(0x%04x, then 0x%04x 50 us later)", first, second);
}

/* The HPET answers, with a period in range, and counts. */
static void probe_the_hpet(struct run_result *r)
{
	uint64_t cap;
	uint32_t before;
	struct hpet counting = {
		.base = (volatile uint8_t *)(uintptr_t)hpet_table.address };

	if (hpet_status != ACPI_OK) {
		record_probe(r, PROBE_HPET, PROBE_ABSENT, "no usable ACPI HPET "
			     "table (%s)", acpi_status_name(hpet_status));
		return;
	}
	cap = hpet_capabilities(hpet_table.address);
	if (cap != ~0ull)
		hpet_init(&hpet, hpet_table.address);
	before = hpet_counter(&counting);
	tsc_pause_us(r->tsc_hz, 50);
	hpet_why = probe_hpet(cap, before, hpet_counter(&counting), hpet_buf,
			      sizeof(hpet_buf));
	if (hpet_why) {
		record_probe(r, PROBE_HPET, PROBE_QUIRK, "%s (table at 0x%llx)",
			     hpet_why, (unsigned long long)hpet_table.address);
		return;
	}
	record_probe(r, PROBE_HPET, PROBE_OK, "%u comparators, period %u fs, "
		     "counting; every comparator's interrupt and FSB delivery "
		     "off", hpet.timers, hpet.period_fs);
}

/* Where a VT-d unit has interrupt remapping on, an IO-APIC entry must be
 * in the remappable format, which irqlab does not write: its rows are
 * skipped. Firmware seldom leaves it on; an OS turns it on. */
static void probe_remapping(const struct dmar_info *dmar,
			    enum acpi_status dmar_status, struct run_result *r)
{
	uint32_t u;

	if (dmar_status != ACPI_OK) {
		record_probe(r, PROBE_REMAPPING, PROBE_ABSENT,
			     "no DMAR table%s%s: no VT-d units to check",
			     dmar_status == ACPI_TOO_SHORT ? "" : ": ",
			     dmar_status == ACPI_TOO_SHORT
				     ? "" : acpi_status_name(dmar_status));
		return;
	}
	for (u = 0; u < dmar->units && u < DMAR_MAX_UNITS; u++) {
		uint32_t gsts = *(volatile uint32_t *)(uintptr_t)(
			dmar->register_base[u] + VTD_GSTS_REGISTER);

		if (probe_remapping_enabled(gsts)) {
			fmt_snprintf(remapping_buf, sizeof(remapping_buf),
				     "interrupt remapping is on (VT-d unit at "
				     "0x%llx, GSTS 0x%08x): IO-APIC entries would "
				     "need remapping-format handles",
				     (unsigned long long)dmar->register_base[u],
				     gsts);
			remapping_why = remapping_buf;
			record_probe(r, PROBE_REMAPPING, PROBE_QUIRK, "%s",
				     remapping_why);
			return;
		}
	}
	record_probe(r, PROBE_REMAPPING, PROBE_OK, "%u VT-d unit(s)%s, "
		     "interrupt remapping off in each", dmar->units,
		     dmar->flags & DMAR_FLAG_INTR_REMAP ? " able to remap" : "");
}

void sources_init(const struct madt_info *m, enum acpi_status m_status,
		  const struct hpet_info *h, enum acpi_status h_status,
		  const struct dmar_info *dmar, enum acpi_status dmar_status,
		  struct run_result *r)
{
	uint16_t flags;
	unsigned i;

	madt = *m;
	madt_status = m_status;
	hpet_table = *h;
	hpet_status = h_status;
	/* Every IO-APIC masked, whichever lines irqlab uses. */
	for (i = 0; madt_status == ACPI_OK && i < madt.ioapic_count &&
		    i < MADT_MAX_IOAPICS; i++) {
		ioapic_init(&ioapics[i], madt.ioapic[i].address,
			    madt.ioapic[i].gsi_base);
		log_printf("IO-APIC %u: version 0x%x, %u inputs from GSI %u\n", i,
			   ioapics[i].version, ioapics[i].pins,
			   ioapics[i].gsi_base);
	}
	n_ioapics = i;
	if (n_ioapics) {
		pit_io = ioapic_of(madt_isa_gsi(&madt, 0, &flags));
		record_probe(r, PROBE_IOAPICS, PROBE_OK, "%u IO-APIC(s), every "
			     "input masked; IRQ 0 on GSI %u%s", n_ioapics,
			     madt_isa_gsi(&madt, 0, &flags),
			     pit_io ? "" : ", which none of them takes");
	} else {
		record_probe(r, PROBE_IOAPICS, PROBE_ABSENT, "%s", no_ioapic());
	}
	probe_remapping(dmar, dmar_status, r);
	tsc_deadline_why = probe_tsc_deadline(
		r->machine.cpu_vendor, r->machine.family, r->machine.model,
		r->machine.microcode, tsc_deadline_buf, sizeof(tsc_deadline_buf));
	record_probe(r, PROBE_TSC_DEADLINE,
		     !cpu_has(X86_FEATURE_TSC_DEADLINE) ? PROBE_ABSENT :
		     tsc_deadline_why ? PROBE_QUIRK : PROBE_OK, "%s",
		     !cpu_has(X86_FEATURE_TSC_DEADLINE)
			     ? "CPUID.1:ECX[24] is 0"
			     : tsc_deadline_why ? tsc_deadline_why
						: "no known errata for this "
						  "model and microcode");
	probe_the_pit(r);
	probe_the_hpet(r);
	if (n_ioapics && !hpet_why && hpet_status == ACPI_OK) {
		pick_hpet_route();
		if (have_hpet)
			log_printf("HPET: %u timers, period %u fs; level line on "
				   "timer %u, GSI %u\n", hpet.timers,
				   hpet.period_fs, hpet_timer, hpet_gsi);
		else
			log_printf("HPET: %u timers; none routes to a free "
				   "IO-APIC input\n", hpet.timers);
	}
}

/* The access strategies seed 004 compared, each with and without the
 * posted-write flush. */
static const struct {
	const char *name;	/* its words are in bench/model/catalog.c */
	uint8_t access, flush;
} sequence_rows[] = {
	{ "ioapic-seq-uncached", IOAPIC_UNCACHED, 1 },
	{ "ioapic-seq-uncached-nf", IOAPIC_UNCACHED, 0 },
	{ "ioapic-seq-index-cached", IOAPIC_INDEX_CACHED, 1 },
	{ "ioapic-seq-index-cached-nf", IOAPIC_INDEX_CACHED, 0 },
	{ "ioapic-seq-value-cached", IOAPIC_VALUE_CACHED, 1 },
	{ "ioapic-seq-value-cached-nf", IOAPIC_VALUE_CACHED, 0 },
};

/* The counted pass of one sequence (docs/timing.md "Core cycles"): the
 * same blocks in core cycles, into p->cycles_block. A function of its
 * own, so that the TSC's loop stays as it was. */
static __attribute__((noinline)) void
count_sequence(struct ioapic *io, unsigned pin, uint64_t *blocks,
	       uint32_t n_blocks, struct primitive_result *p)
{
	uint32_t b, k;

	if (!counters_counting())
		return;
	counters_select(COUNTER_CYCLES);
	for (b = 0; b < n_blocks; b++) {
		uint64_t c0 = pmc_open(pmc_counter);

		for (k = 0; k < PRIMITIVE_BLOCK_REPS; k++) {
			ioapic_mask(io, pin);
			ioapic_unmask(io, pin);
			ioapic_level_eoi(io, pin, SEQUENCE_VECTOR);
		}
		blocks[b] = counters_span(pmc_close(pmc_counter) - c0);
		ioapic_mask(io, pin);
	}
	stats_compute(blocks, n_blocks, &p->cycles_block);
}

void sources_time_ioapic_sequences(struct run_result *r, uint64_t *blocks,
				   uint32_t n_blocks)
{
	/* The HPET line's pin when there is one: routed, masked, idle. */
	struct ioapic *io = have_hpet ? level_io : &ioapics[0];
	const char *why = no_ioapic();
	unsigned pin = why ? 0 : have_hpet ? hpet_gsi - io->gsi_base
					   : (unsigned)io->pins - 1u;
	size_t i;

	for (i = 0; i < sizeof(sequence_rows) / sizeof(sequence_rows[0]) &&
		    r->n_primitives < RESULTS_MAX_PRIMITIVES; i++) {
		struct primitive_result *p = &r->prim[r->n_primitives++];
		uint32_t b, k;

		*p = (struct primitive_result){ 0 };
		fmt_snprintf(p->name, sizeof(p->name), "%s", sequence_rows[i].name);
		if (why) {
			p->status = EXP_SKIPPED;
			fmt_snprintf(p->reason, sizeof(p->reason), "%s", why);
			continue;
		}
		ioapic_set_access(io, (enum ioapic_access)sequence_rows[i].access,
				  sequence_rows[i].flush);
		ioapic_route(io, pin, SEQUENCE_VECTOR, 0, IOAPIC_LEVEL,
			     IOAPIC_ACTIVE_HIGH);
		ioapic_mask(io, pin);
		for (b = 0; b < n_blocks; b++) {
			uint64_t t0 = tsc_open();

			for (k = 0; k < PRIMITIVE_BLOCK_REPS; k++) {
				ioapic_mask(io, pin);
				ioapic_unmask(io, pin);
				ioapic_level_eoi(io, pin, SEQUENCE_VECTOR);
			}
			blocks[b] = tsc_close() - t0;
			/* unmasked and idle is fine; leave it masked */
			ioapic_mask(io, pin);
		}
		stats_compute(blocks, n_blocks, &p->block);
		p->status = EXP_OK;
		count_sequence(io, pin, blocks, n_blocks, p);
	}
	if (!why)
		ioapic_set_access(io, IOAPIC_UNCACHED, 1);
}

void sources_aim_protected(const struct irq_source *src, uint8_t vector)
{
	int timer = src->protected_trigger == PM_TRIGGER_TIMER;

	pm.trigger = src->protected_trigger;
	pm.vector = vector;
	pm.int_sample = pm_int_sample_for(vector);
	pm.int_triggers = pm_int_triggers();
	/* Paging is off there: the xAPIC page by its physical address,
	 * which the identity map makes lapic_mmio's. */
	pm.icr = (uint32_t)(uintptr_t)&lapic_mmio[(timer ? APIC_TMICT
							 : APIC_ICR) / 4];
	pm.icr_value = timer ? LAPIC_ONESHOT_COUNT
			     : APIC_ICR_LEVEL_ASSERT | APIC_ICR_DEST_SELF;
	pm.lvt = (uint32_t)(uintptr_t)&lapic_mmio[APIC_LVT_TIMER / 4];
	pm.eoi = src->kind == SOURCE_RAISED_BY_INSTRUCTION ? 0 :
		 (uint32_t)(uintptr_t)&lapic_mmio[APIC_EOI / 4];
}
