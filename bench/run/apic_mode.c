#include "bench/run/apic_mode.h"

#include "arch/dispatch/irq.h"
#include "arch/exceptions.h"
#include "arch/lib/log.h"
#include "arch/timing.h"
#include "arch/cpu.h"
#include "arch/lib/fmt.h"
#include "bench/model/apic_reach.h"
#include "bench/model/axes.h"
#include "bench/model/probes.h"
#include "bench/model/results.h"

/* Why each mode is not available, once tried (NULL: it is). */
static const char *mode_unavailable[3];
static uint8_t mode_tried[3];
static enum lapic_mode mode_active;
/* The run stays in x2APIC mode (apic_mode_probe): the firmware locked
 * it there, or left it there with processors xAPIC cannot name; and
 * why, the reason of every xAPIC row. */
static int x2apic_only;
static char x2apic_only_why[RESULTS_REASON_LEN];

/* MSRs the lock is read from, as Linux reads them (x2apic_hw_locked). */
#define MSR_ARCH_CAPABILITIES 0x10a
#define MSR_XAPIC_DISABLE_STATUS 0xbd

void apic_mode_probe(struct run_result *r, const struct madt_info *m)
{
	int simulated = config_simulates(&r->config, SIMULATE_X2APIC_LOCKED);
	uint64_t arch = 0, status = 0;
	int firmware_x2apic = cpu_has(X86_FEATURE_APIC) &&
			      cpu_has(X86_FEATURE_MSR) &&
			      cpu_has(X86_FEATURE_X2APIC) &&
			      lapic_firmware_mode() == LAPIC_X2APIC;

	if (cpu_has(X86_FEATURE_ARCH_CAPABILITIES) &&
	    !msr_read_guarded(MSR_ARCH_CAPABILITIES, &arch) &&
	    (arch & ARCH_CAP_XAPIC_DISABLE) &&
	    msr_read_guarded(MSR_XAPIC_DISABLE_STATUS, &status))
		status = 0;
	if (simulated) {
		arch |= ARCH_CAP_XAPIC_DISABLE;
		status |= XAPIC_DISABLE_LEGACY;
	}
	x2apic_only = probe_x2apic_locked(arch, status);
	if (x2apic_only) {
		fmt_snprintf(x2apic_only_why, sizeof(x2apic_only_why),
			     "the firmware locked x2APIC mode (MSR 0xBD bit "
			     "0)%s", simulated ? " (simulated)" : "");
		mode_unavailable[LAPIC_XAPIC] = x2apic_only_why;
		record_probe(r, PROBE_X2APIC_LOCK,
			     simulated ? PROBE_SIMULATED : PROBE_QUIRK,
			     "%s; seed 004's access rows run in x2APIC",
			     x2apic_only_why);
	} else if (apic_reach_keeps_x2apic(m, firmware_x2apic,
					   x2apic_only_why,
					   sizeof(x2apic_only_why))) {
		/* Not locked, but left so, with processors that only x2APIC
		 * names (docs/controllers.md "Processors beyond APIC ID
		 * 254"): the run stays, as the lock would keep it. */
		x2apic_only = 1;
		mode_unavailable[LAPIC_XAPIC] = x2apic_only_why;
		record_probe(r, PROBE_X2APIC_LOCK, PROBE_QUIRK, "%s",
			     x2apic_only_why);
		log_printf("local APIC: %s; the xAPIC pass is not run\n",
			   x2apic_only_why);
	} else {
		record_probe(r, PROBE_X2APIC_LOCK, PROBE_OK, "%s",
			     arch & ARCH_CAP_XAPIC_DISABLE
				     ? "MSR 0xBD says legacy xAPIC is enabled"
				     : "no IA32_XAPIC_DISABLE_STATUS: the mode "
				       "is free to choose");
	}
	record_probe(r, PROBE_CMCI, lapic_has_cmci() ? PROBE_OK : PROBE_ABSENT,
		     "%s", lapic_has_cmci()
				   ? "the LVT CMCI entry is masked in each mode"
				   : "no LVT CMCI entry (MCG_CAP[10] clear)");
}

int apic_mode_x2apic_only(void)
{
	return x2apic_only;
}

enum lapic_mode apic_mode_active(void)
{
	return mode_active;
}

int apic_mode_tried(enum lapic_mode mode)
{
	return mode_tried[mode];
}

static int source_runs_in(const struct irq_source *src, enum lapic_mode mode)
{
	switch (src->modes) {
	case SOURCE_NO_APIC:
		return 1;
	case SOURCE_XAPIC_ONLY:
		return mode == LAPIC_XAPIC;
	case SOURCE_XAPIC_PREFERRED:
		return mode == (x2apic_only ? LAPIC_X2APIC : LAPIC_XAPIC);
	case SOURCE_X2APIC_ONLY:
		return mode == LAPIC_X2APIC;
	default:
		return mode != LAPIC_NONE;
	}
}

int source_runs_now(const struct irq_source *src)
{
	return source_runs_in(src, mode_active);
}

const char *source_mode_reason(const struct irq_source *src)
{
	/* The mode a source is waiting for when it cannot run now. */
	enum lapic_mode wanted =
		src->modes == SOURCE_X2APIC_ONLY ||
				(src->modes == SOURCE_XAPIC_PREFERRED && x2apic_only)
			? LAPIC_X2APIC : LAPIC_XAPIC;

	return mode_unavailable[wanted] ? mode_unavailable[wanted] :
	       "the local APIC is not in this source's mode";
}

uint8_t source_ack_now(const struct irq_source *src)
{
	switch (src->ack) {
	case SOURCE_ACK_LAPIC:
		return mode_active == LAPIC_X2APIC ? IRQ_ACK_X2APIC_EOI
						   : IRQ_ACK_XAPIC_EOI;
	case SOURCE_ACK_PIC8259:
		return IRQ_ACK_PIC8259;
	case SOURCE_ACK_LEVEL_LINE:
		return IRQ_ACK_LEVEL_LINE;
	}
	return IRQ_ACK_NONE;
}

/* Interrupt windows a drain opens: one per vector class that could be
 * pending is more than enough. */
#define DRAIN_WINDOWS 16

/* Lets in whatever the local APIC still holds pending from a source just
 * stopped (a periodic tick, a level line sent again before its pin was
 * masked) and ends it with a plain EOI, so the next check or row sees
 * only its own interrupts. They are counted where they land. */
void drain_pending_interrupts(void)
{
	uint8_t ack = irq_ack;
	unsigned i;

	irq_ack = apic_mode_active() == LAPIC_X2APIC ? IRQ_ACK_X2APIC_EOI :
		  apic_mode_active() == LAPIC_XAPIC ? IRQ_ACK_XAPIC_EOI :
						      IRQ_ACK_NONE;
	for (i = 0; i < DRAIN_WINDOWS; i++)
		irq_window();
	irq_ack = ack;
}

struct mode_switch {
	enum lapic_mode mode;
	const char *why;
};

static void enable_mode(void *arg)
{
	struct mode_switch *m = arg;

	m->why = lapic_enable(m->mode);
}

/* Under the guard: firmware can lock the APIC in x2APIC mode, and then
 * the write that leaves it raises #GP (SDM vol. 3 §11.12.5). */
void apic_mode_switch(enum lapic_mode mode)
{
	struct mode_switch m = { mode, 0 };
	struct fault_info fault;

	mode_tried[mode] = 1;
	if (mode == LAPIC_XAPIC && x2apic_only) {
		/* Leaving x2APIC mode would raise #GP, or cut off the
		 * processors only x2APIC names: not tried. */
		log_printf("local APIC: xapic unavailable: %s\n",
			   x2apic_only_why);
		return;
	}
	if (guard_run(enable_mode, &m, &fault)) {
		m.why = fault.vector == VECTOR_GP ?
				"switching the local APIC mode raised #GP (the "
				"firmware may have locked x2APIC mode)" :
				"switching the local APIC mode raised an exception";
		/* The APIC is in an unknown state: nothing may rely on it. */
		mode_active = LAPIC_NONE;
	}
	mode_unavailable[mode] = m.why;
	if (!mode_unavailable[mode])
		mode_active = mode;
	/* Whatever the old mode left pending is taken now, not by the
	 * first row of the new one. */
	drain_pending_interrupts();
	log_printf("local APIC: %s %s%s\n", apic_mode_name(mode),
		   mode_unavailable[mode] ? "unavailable: " : "enabled",
		   mode_unavailable[mode] ? mode_unavailable[mode] : "");
}
