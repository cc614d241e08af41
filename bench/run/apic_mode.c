#include "bench/run/apic_mode.h"

#include "arch/dispatch/irq.h"
#include "arch/exceptions.h"
#include "arch/lib/log.h"
#include "arch/timing.h"
#include "bench/model/axes.h"

/* Why each mode is not available, once tried (NULL: it is). */
static const char *mode_unavailable[3];
static uint8_t mode_tried[3];
static enum lapic_mode mode_active;

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
	enum lapic_mode wanted = src->modes == SOURCE_X2APIC_ONLY ?
					 LAPIC_X2APIC : LAPIC_XAPIC;

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
