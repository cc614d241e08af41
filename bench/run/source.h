/* What an interrupt source is: a row of the sources' table
 * (bench/run/sources.h) that can arm, fire and acknowledge, and says why
 * it cannot run on this machine. */
#ifndef IRQLAB_BENCH_RUN_SOURCE_H
#define IRQLAB_BENCH_RUN_SOURCE_H

#include <stdint.h>

#include "apic/lapic.h"
#include "arch/dispatch/irq.h"

struct experiment_result;
struct source_lines;

/* Which local APIC mode a source runs in. */
enum source_modes {
	SOURCE_NO_APIC = 0,	/* INT n: before the APIC is touched */
	SOURCE_XAPIC_ONLY,
	/* no need of xAPIC, run once in it to keep the matrix short; in
	 * x2APIC mode where the firmware locked it there */
	SOURCE_XAPIC_PREFERRED,
	SOURCE_X2APIC_ONLY,
	SOURCE_EITHER_APIC,	/* once in each mode */
};

/* What raises it. */
enum source_kind {
	SOURCE_RAISED_BY_INSTRUCTION,	/* INT n: needs no APIC; checked on
					 * every vector 32-255; the source
					 * of the entry-variant, cache-state
					 * and self-test rows */
	SOURCE_SELF_IPI,	/* the local APIC's ICR or SELF_IPI */
	SOURCE_TIMER,		/* a timer of the local APIC */
	SOURCE_EXTERNAL,	/* a line into the IO-APIC or the 8259 */
	SOURCE_OTHER_CPU,	/* the answer to an IPI sent to another
				 * processor (bench/run/other_cpus.h) */
};

/* How the handler acknowledges it. */
enum source_ack {
	SOURCE_ACK_NONE = 0,
	SOURCE_ACK_LAPIC,	/* EOI in whichever mode is active */
	SOURCE_ACK_PIC8259,
	SOURCE_ACK_LEVEL_LINE,
};

/* Rows by id: their names are in SOURCE_LIST (arch/matrix.h). */
struct irq_source {
	uint8_t id;		/* enum source_id */
	uint8_t kind;		/* enum source_kind */
	uint8_t modes;		/* enum source_modes */
	uint8_t ack;		/* enum source_ack */
	uint8_t every_scheme;	/* measured under every scheme, or direct */
	uint8_t vector;		/* fixed vector, or 0 for the configured one */
	uint8_t io_access;	/* level rows: enum ioapic_access */
	uint8_t io_flush;	/* level rows: read back after writes */
	/* May raise its vector again before a sample's wait closes: a
	 * periodic timer ticking during its own handler, or a level line an
	 * emulator sends again at the EOI. Those are counted as extra
	 * interrupts, not failures. */
	uint8_t repeats;
	/* How the 32-bit protected-mode phase raises it (PM_TRIGGER_* in
	 * arch/protected.h): INT n, the xAPIC self-IPI and the local APIC
	 * one-shot timer, which its loops arm themselves; 0: not there. */
	uint8_t protected_trigger;
	/* SOURCE_OTHER_CPU: how the other processor waits (AP_SPIN,
	 * AP_HALT, AP_MWAIT: arch/ap.h). */
	uint8_t target_waits;
	/* SOURCE_OTHER_CPU: sent as an NMI (delivery mode 100b), which the
	 * target takes on its IST stack and answers with the row's vector. */
	uint8_t target_nmi;
	/* Added to a lost interrupt's reason: what else could have been
	 * tried, where irqlab tries one path only; NULL for none. */
	const char *when_lost;
	/* Each reaches the machine's lines through `l`, the one value
	 * the probes made (bench/run/source_lines.h). */
	const char *(*unsupported)(const struct irq_source *s,
				   struct source_lines *l);
	void (*start)(const struct irq_source *s, struct source_lines *l,
		      uint8_t vector);
	void (*fire)(struct source_lines *l, uint8_t vector,
		     struct irq_sample *sample);
	void (*stop)(const struct irq_source *s, struct source_lines *l);
	/* After stop: records in `e` what only the source saw of the
	 * row's passes, and returns why the row fails on it, or NULL
	 * (NULL: nothing to judge). Sets *lacking where the reason is a
	 * feature the emulator lacks: the row is then skipped with it. */
	const char *(*verdict)(const struct irq_source *s,
			       struct source_lines *l,
			       struct experiment_result *e, int *lacking);
};

/* This processor's local APIC ID as the active mode gives it (xAPIC's
 * in bits 31:24, SDM vol. 3 §11.4.6): where a row's interrupt is sent. */
static inline uint32_t source_own_apic_id(void)
{
	uint32_t id = lapic->read(APIC_ID);

	return lapic->mode == LAPIC_X2APIC ? id : id >> 24;
}

/* The local APIC one-shot timer's count, long mode's and the 32-bit
 * phase's: short against the handler on real hardware, long against it
 * under QEMU, where the timers run on virtual time. */
#define LAPIC_ONESHOT_COUNT 1000

#endif
