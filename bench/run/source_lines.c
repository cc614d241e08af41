#include "bench/run/source_lines.h"

#include "apic/lapic.h"
#include "apic/level_line.h"
#include "apic/pic8259.h"
#include "arch/cpu.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/timing.h"
#include "bench/model/apic_reach.h"
#include "bench/model/probes.h"
#include "bench/run/source.h"

/* Delays chosen to be short against the handler on real hardware and
 * long against it under QEMU, where the timers run on virtual time. */
#define PIT_ONESHOT_COUNT 4
#define HPET_ONESHOT_NS 2000

static const char *line_refusal(const struct line_verdict *v)
{
	return v->why[0] ? v->why : 0;
}

/* An IO-APIC line is routed to the processor that runs the row
 * (source_own_apic_id): the boot CPU, or one in its place. Its
 * redirection entry names it in 8 bits, in either local APIC mode
 * (bench/model/apic_reach.h); NULL where they name it. */
static const char *destination_unreachable(void)
{
	static char why[RESULTS_REASON_LEN];

	return lapic ? apic_reach_ioapic_why(source_own_apic_id(), why,
					     sizeof(why))
		     : 0;
}

/* --- PIT through the IO-APIC (edge) ---------------------------------- */

const char *source_lines_no_ioapic(struct source_lines *l)
{
	if (l->madt_status != ACPI_OK) {
		fmt_snprintf(l->why, sizeof(l->why), "ACPI MADT: %s",
			     l->madt_status == ACPI_TOO_SHORT
				     ? "absent or too short"
				     : acpi_status_name(l->madt_status));
		return l->why;
	}
	if (!l->n_ioapics)
		return "the MADT lists no IO-APIC";
	return line_refusal(&l->remapping);
}

const char *pit_ioapic_unsupported(const struct irq_source *src,
				   struct source_lines *l)
{
	const char *why = source_lines_no_ioapic(l);

	(void)src;
	if (why || (why = destination_unreachable()))
		return why;
	if (line_refusal(&l->pit))
		return line_refusal(&l->pit);
	return l->pit_ioapic >= 0
		       ? 0 : "IRQ 0's GSI belongs to no IO-APIC the MADT lists";
}

static unsigned pit_pin(const struct source_lines *l, uint16_t *flags)
{
	return madt_isa_gsi(&l->madt, 0, flags) -
	       l->ioapics[l->pit_ioapic].gsi_base;
}

void pit_ioapic_start(const struct irq_source *src, struct source_lines *l,
		      uint8_t vector)
{
	struct ioapic *io = &l->ioapics[l->pit_ioapic];
	uint16_t flags;
	unsigned pin = pit_pin(l, &flags);

	(void)src;
	ioapic_set_access(io, IOAPIC_UNCACHED, 1);
	ioapic_route(io, pin, vector, source_own_apic_id(),
		     (flags & MPS_TRIGGER_MASK) == MPS_TRIGGER_LEVEL ?
			     IOAPIC_LEVEL : IOAPIC_EDGE,
		     (flags & MPS_POLARITY_MASK) == MPS_POLARITY_LOW ?
			     IOAPIC_ACTIVE_LOW : IOAPIC_ACTIVE_HIGH);
}

void fire_pit(struct source_lines *l, uint8_t vector, struct irq_sample *s)
{
	(void)l;
	(void)vector;
	pit_oneshot(PIT_ONESHOT_COUNT);
	wait_sample(s);
}

void pit_ioapic_stop(const struct irq_source *src, struct source_lines *l)
{
	uint16_t flags;

	(void)src;
	ioapic_mask(&l->ioapics[l->pit_ioapic], pit_pin(l, &flags));
	pit_stop();
}

/* --- HPET through the IO-APIC (level), seed 004's access strategies ---- */

/* How long the line is watched before its first level row. */
#define LINE_WATCH_US 200
/* Any vector will do while the line is watched: the pin is masked again
 * before interrupts are on. */
#define WATCH_VECTOR 0x40

/* Whether something else drives the HPET's line: GSIs 20-23 are often
 * shared with PCI INTx lines, and a device's interrupts would count as
 * the row's own. The pin, routed level-triggered and unmasked with
 * interrupts off, sets Remote IRR when the line is asserted (the local
 * APIC accepts the message into its IRR). Looked at once, in the mode of
 * the first level row; what it let in is drained and ended. */
static const char *line_busy(struct source_lines *l)
{
	struct ioapic *io = &l->ioapics[l->level_ioapic];
	unsigned pin = l->hpet_gsi - io->gsi_base;

	if (l->busy_looked)
		return line_refusal(&l->busy);
	l->busy_looked = 1;
	ioapic_set_access(io, IOAPIC_UNCACHED, 1);
	ioapic_route(io, pin, WATCH_VECTOR, source_own_apic_id(), IOAPIC_LEVEL,
		     IOAPIC_ACTIVE_HIGH);
	tsc_pause_us(wait_budget_ticks / WAIT_BUDGET_MS * 1000u, LINE_WATCH_US);
	ioapic_mask(io, pin);
	if (ioapic_read(io, IOAPIC_REDIR(pin)) & IOAPIC_RTE_REMOTE_IRR) {
		fmt_snprintf(l->busy.why, sizeof(l->busy.why),
			     "GSI %u is asserted with the HPET's timer %u off: "
			     "another device shares the line", l->hpet_gsi,
			     l->hpet_timer);
		ioapic_level_eoi(io, pin, WATCH_VECTOR);
	}
	return line_refusal(&l->busy);
}

const char *level_unsupported(const struct irq_source *src,
			      struct source_lines *l)
{
	const char *why = source_lines_no_ioapic(l);

	(void)src;
	if (why || (why = destination_unreachable()))
		return why;
	if (l->hpet_status != ACPI_OK) {
		fmt_snprintf(l->why, sizeof(l->why), "ACPI HPET table: %s",
			     l->hpet_status == ACPI_TOO_SHORT
				     ? "absent or too short"
				     : acpi_status_name(l->hpet_status));
		return l->why;
	}
	if (line_refusal(&l->hpet_found))
		return line_refusal(&l->hpet_found);
	if (!l->have_hpet) {
		fmt_snprintf(l->why, sizeof(l->why),
			     "no HPET timer routes to an IO-APIC input that no "
			     "ISA IRQ uses (route capability 0x%llx)",
			     (unsigned long long)hpet_route_cap(
				     &l->hpet, l->hpet.timers - 1u));
		return l->why;
	}
	return line_busy(l);
}

void level_start(const struct irq_source *src, struct source_lines *l,
		 uint8_t vector)
{
	struct ioapic *io = &l->ioapics[l->level_ioapic];
	unsigned pin = l->hpet_gsi - io->gsi_base;

	ioapic_set_access(io, (enum ioapic_access)src->io_access,
			  src->io_flush);
	level_line = (struct level_line){
		.io = io, .pin = pin, .vector = vector, .hpet = &l->hpet,
		.timer = l->hpet_timer,
		.x2apic = (uint8_t)(lapic->mode == LAPIC_X2APIC),
		.directed_eoi = !!(lapic->read(APIC_SVR) & APIC_SVR_DIRECTED_EOI),
	};
	ioapic_route(io, pin, vector, source_own_apic_id(), IOAPIC_LEVEL,
		     IOAPIC_ACTIVE_HIGH);
}

void fire_hpet_level(struct source_lines *l, uint8_t vector,
		     struct irq_sample *s)
{
	uint64_t ticks = (uint64_t)HPET_ONESHOT_NS * 1000000 / l->hpet.period_fs;

	(void)vector;
	hpet_arm_level(&l->hpet, l->hpet_timer, l->hpet_gsi, ticks ? ticks : 1);
	wait_sample(s);
}

void level_stop(const struct irq_source *src, struct source_lines *l)
{
	struct ioapic *io = &l->ioapics[l->level_ioapic];
	unsigned pin = l->hpet_gsi - io->gsi_base;

	(void)src;
	/* However the row ended: the comparator off and its level dropped,
	 * the pin masked, and Remote IRR clear, so the next level row finds
	 * the line as the first one did. */
	hpet_disarm(&l->hpet, l->hpet_timer);
	hpet_clear(&l->hpet, l->hpet_timer);
	ioapic_set_access(io, IOAPIC_UNCACHED, 1);
	ioapic_mask(io, pin);
	if (ioapic_read(io, IOAPIC_REDIR(pin)) & IOAPIC_RTE_REMOTE_IRR)
		ioapic_level_eoi(io, pin, level_line.vector);
}

struct sequence_line source_lines_sequence_line(struct source_lines *l)
{
	struct ioapic *io = &l->ioapics[l->have_hpet ? l->level_ioapic : 0];
	const char *why = source_lines_no_ioapic(l);

	return (struct sequence_line){
		.io = io, .why = why,
		.pin = why ? 0 : l->have_hpet ? l->hpet_gsi - io->gsi_base
					      : (unsigned)io->pins - 1u };
}

/* --- the XT-PIC path: PIT -> 8259 -> LINT0 as ExtINT ------------------- */

const char *pic8259_unsupported(const struct irq_source *src,
				struct source_lines *l)
{
	(void)src;
	if (l->madt_status == ACPI_OK && !(l->madt.flags & 1))
		return "the MADT says there are no 8259s (PCAT_COMPAT clear)";
	return line_refusal(&l->pit);
}

void pic8259_start(const struct irq_source *src, struct source_lines *l,
		   uint8_t vector)
{
	(void)src;
	(void)l;
	pic8259_init(vector, 1u << 0);	/* only IRQ 0, the PIT */
	lapic->write(APIC_LVT_LINT0, APIC_LVT_DELIVERY_EXTINT);
}

void pic8259_stop(const struct irq_source *src, struct source_lines *l)
{
	(void)src;
	(void)l;
	lapic->write(APIC_LVT_LINT0, APIC_LVT_MASKED);
	pic8259_mask_all();
	pit_stop();
}

/* --- the probes -------------------------------------------------------- */

/* Whether an ISA IRQ arrives on this GSI. Those lines have other drivers
 * (the PIT on IRQ 0's), and QEMU's IO-APIC latches an edge on a masked
 * input, so sharing one would mix their interrupts into the level line. */
static int isa_gsi(const struct madt_info *madt, unsigned gsi)
{
	uint16_t flags;
	unsigned irq;

	for (irq = 0; irq < 16; irq++)
		if (madt_isa_gsi(madt, (uint8_t)irq, &flags) == gsi)
			return 1;
	return 0;
}

/* Which IO-APIC takes `gsi`, by index, or -1. */
static int ioapic_of(const struct source_lines *l, uint32_t gsi)
{
	uint32_t base[MADT_MAX_IOAPICS];
	uint8_t pins[MADT_MAX_IOAPICS];
	unsigned i;

	for (i = 0; i < l->n_ioapics; i++) {
		base[i] = l->ioapics[i].gsi_base;
		pins[i] = l->ioapics[i].pins;
	}
	return probe_gsi_owner(base, pins, l->n_ioapics, gsi);
}

/* An HPET timer whose route capability reaches an IO-APIC input that no
 * ISA IRQ uses, preferring the last timer and the highest input. */
static void pick_hpet_route(struct source_lines *l)
{
	int t, gsi;

	for (t = l->hpet.timers - 1; t >= 0; t--) {
		uint64_t cap = hpet_route_cap(&l->hpet, (unsigned)t);

		for (gsi = 31; gsi >= 0; gsi--)
			if (((cap >> gsi) & 1) && !isa_gsi(&l->madt, (unsigned)gsi) &&
			    ioapic_of(l, (uint32_t)gsi) >= 0) {
				l->hpet_timer = (unsigned)t;
				l->hpet_gsi = (unsigned)gsi;
				l->level_ioapic = ioapic_of(l, (uint32_t)gsi);
				l->have_hpet = 1;
				return;
			}
	}
}

/* The 8254 counts (channel 0 latched twice, 50 us apart: about 60 of
 * its ticks), or it is gated. */
static struct line_verdict probe_the_pit(struct run_result *r)
{
	struct line_verdict v = { "" };
	uint16_t first, second;
	int simulated = config_simulates(&r->config, SIMULATE_PIT_GATED);

	pit_oneshot(0xffff);
	first = pit_latch_read();
	tsc_pause_us(r->tsc_hz, 50);
	second = simulated ? first : pit_latch_read();
	pit_stop();
	if (!probe_pit(first, second, v.why, sizeof(v.why))) {
		record_probe(r, PROBE_PIT, PROBE_OK, "channel 0 counts "
			     "(0x%04x, then 0x%04x 50 us later)", first, second);
		return (struct line_verdict){ "" };
	}
	if (simulated) {
		struct text_buf tb;

		tb_continue(&tb, v.why, sizeof(v.why));
		tb_printf(&tb, " (simulated)");
	}
	record_probe(r, PROBE_PIT, simulated ? PROBE_SIMULATED : PROBE_QUIRK,
		     "%s", v.why);
	return v;
}

/* The HPET answers, with a period in range, and counts; `hpet` is set
 * up where it answers. */
static struct line_verdict probe_the_hpet(const struct hpet_info *table,
					  enum acpi_status status,
					  struct hpet *hpet,
					  struct run_result *r)
{
	struct line_verdict v = { "" };
	uint64_t cap;
	uint32_t before;
	struct hpet counting = {
		.base = (volatile uint8_t *)(uintptr_t)table->address };

	if (status != ACPI_OK) {
		record_probe(r, PROBE_HPET, PROBE_ABSENT, "no usable ACPI HPET "
			     "table (%s)", acpi_status_name(status));
		return v;
	}
	cap = hpet_capabilities(table->address);
	if (cap != ~0ull)
		hpet_init(hpet, table->address);
	before = hpet_counter(&counting);
	tsc_pause_us(r->tsc_hz, 50);
	if (probe_hpet(cap, before, hpet_counter(&counting), v.why,
		       sizeof(v.why))) {
		record_probe(r, PROBE_HPET, PROBE_QUIRK, "%s (table at 0x%llx)",
			     v.why, (unsigned long long)table->address);
		return v;
	}
	record_probe(r, PROBE_HPET, PROBE_OK, "%u comparators, period %u fs, "
		     "counting; every comparator's interrupt and FSB delivery "
		     "off", hpet->timers, hpet->period_fs);
	return (struct line_verdict){ "" };
}

/* Where a VT-d unit has interrupt remapping on, an IO-APIC entry must be
 * in the remappable format, which irqlab does not write: its rows are
 * skipped. Firmware seldom leaves it on; an OS turns it on. */
static struct line_verdict probe_remapping(const struct dmar_info *dmar,
					   enum acpi_status dmar_status,
					   struct run_result *r)
{
	struct line_verdict v = { "" };
	uint32_t u;

	if (dmar_status != ACPI_OK) {
		record_probe(r, PROBE_REMAPPING, PROBE_ABSENT,
			     "no DMAR table%s%s: no VT-d units to check",
			     dmar_status == ACPI_TOO_SHORT ? "" : ": ",
			     dmar_status == ACPI_TOO_SHORT
				     ? "" : acpi_status_name(dmar_status));
		return v;
	}
	for (u = 0; u < dmar->units && u < DMAR_MAX_UNITS; u++) {
		uint32_t gsts = *(volatile uint32_t *)(uintptr_t)(
			dmar->register_base[u] + VTD_GSTS_REGISTER);

		if (probe_remapping_enabled(gsts)) {
			fmt_snprintf(v.why, sizeof(v.why),
				     "interrupt remapping is on (VT-d unit at "
				     "0x%llx, GSTS 0x%08x): IO-APIC entries would "
				     "need remapping-format handles",
				     (unsigned long long)dmar->register_base[u],
				     gsts);
			record_probe(r, PROBE_REMAPPING, PROBE_QUIRK, "%s",
				     v.why);
			return v;
		}
	}
	record_probe(r, PROBE_REMAPPING, PROBE_OK, "%u VT-d unit(s)%s, "
		     "interrupt remapping off in each", dmar->units,
		     dmar->flags & DMAR_FLAG_INTR_REMAP ? " able to remap" : "");
	return v;
}

/* The TSC-deadline timer is there and this model's microcode has no
 * known errata for it. */
static struct line_verdict probe_the_tsc_deadline(struct run_result *r)
{
	struct line_verdict v = { "" };
	int there = cpu_has(X86_FEATURE_TSC_DEADLINE);
	const char *why = probe_tsc_deadline(
		r->machine.cpu_vendor, r->machine.family, r->machine.model,
		r->machine.microcode, v.why, sizeof(v.why));

	record_probe(r, PROBE_TSC_DEADLINE,
		     !there ? PROBE_ABSENT : why ? PROBE_QUIRK : PROBE_OK, "%s",
		     !there ? "CPUID.1:ECX[24] is 0"
		     : why  ? why
			    : "no known errata for this model and microcode");
	if (!why)
		v.why[0] = 0;
	return v;
}

struct source_lines source_lines_probe(const struct probe_tables *tables,
				       struct run_result *r)
{
	const struct madt_info *madt = tables->madt;
	enum acpi_status madt_status = tables->madt_status;
	const struct hpet_info *hpet = tables->hpet;
	enum acpi_status hpet_status = tables->hpet_status;
	const struct dmar_info *dmar = tables->dmar;
	enum acpi_status dmar_status = tables->dmar_status;
	struct source_lines l = {
		.madt = *madt, .madt_status = madt_status,
		.hpet_table = *hpet, .hpet_status = hpet_status,
		.pit_ioapic = -1, .level_ioapic = -1,
	};
	uint16_t flags;
	unsigned i;

	/* Every IO-APIC masked, whichever lines irqlab uses. */
	for (i = 0; madt_status == ACPI_OK && i < madt->ioapic_count &&
		    i < MADT_MAX_IOAPICS; i++) {
		ioapic_init(&l.ioapics[i], madt->ioapic[i].address,
			    madt->ioapic[i].gsi_base);
		log_printf("IO-APIC %u: version 0x%x, %u inputs from GSI %u\n", i,
			   l.ioapics[i].version, l.ioapics[i].pins,
			   l.ioapics[i].gsi_base);
	}
	l.n_ioapics = i;
	if (l.n_ioapics) {
		l.pit_ioapic = ioapic_of(&l, madt_isa_gsi(madt, 0, &flags));
		record_probe(r, PROBE_IOAPICS, PROBE_OK, "%u IO-APIC(s), every "
			     "input masked; IRQ 0 on GSI %u%s", l.n_ioapics,
			     madt_isa_gsi(madt, 0, &flags),
			     l.pit_ioapic >= 0 ? "" : ", which none of them takes");
	} else {
		record_probe(r, PROBE_IOAPICS, PROBE_ABSENT, "%s",
			     source_lines_no_ioapic(&l));
	}
	l.remapping = probe_remapping(dmar, dmar_status, r);
	l.tsc_deadline = probe_the_tsc_deadline(r);
	l.pit = probe_the_pit(r);
	l.hpet_found = probe_the_hpet(hpet, hpet_status, &l.hpet, r);
	if (l.n_ioapics && !line_refusal(&l.hpet_found) && hpet_status == ACPI_OK) {
		pick_hpet_route(&l);
		if (l.have_hpet)
			log_printf("HPET: %u timers, period %u fs; level line on "
				   "timer %u, GSI %u\n", l.hpet.timers,
				   l.hpet.period_fs, l.hpet_timer, l.hpet_gsi);
		else
			log_printf("HPET: %u timers; none routes to a free "
				   "IO-APIC input\n", l.hpet.timers);
	}
	return l;
}
