/* Interrupt sources as rows of one table: each can arm, fire and
 * acknowledge, and says why it cannot run on this machine. */
#ifndef IRQLAB_BENCH_RUN_SOURCES_H
#define IRQLAB_BENCH_RUN_SOURCES_H

#include <stdint.h>

#include "arch/matrix.h"
#include "firmware/acpi.h"
#include "arch/dispatch/irq.h"

struct experiment_result;

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
	const char *(*unsupported)(const struct irq_source *s);
	void (*start)(const struct irq_source *s, uint8_t vector);
	void (*fire)(uint8_t vector, struct irq_sample *sample);
	void (*stop)(const struct irq_source *s);
	/* After stop: records in `e` what only the source saw of the
	 * row's passes, and returns why the row fails on it, or NULL
	 * (NULL: nothing to judge). Sets *lacking where the reason is a
	 * feature the emulator lacks: the row is then skipped with it. */
	const char *(*verdict)(const struct irq_source *s,
			       struct experiment_result *e, int *lacking);
};

extern const struct irq_source irq_sources[];
extern const size_t irq_source_count;

/* What the external sources need to know of the machine. */
/* Every IO-APIC is masked and each probe recorded in `r`
 * (docs/controllers.md "Probes"): the PIT counts, the HPET answers and
 * counts, interrupt remapping is off; a source whose line fails one is
 * skipped with what the probe saw. */
struct dmar_info;
struct run_result;
void sources_init(const struct madt_info *madt, enum acpi_status madt_status,
		  const struct hpet_info *hpet, enum acpi_status hpet_status,
		  const struct dmar_info *dmar, enum acpi_status dmar_status,
		  struct run_result *r);

/* The IO-APIC and pin seed 004's sequences are timed on
 * (bench/run/sequences.c), or why there is none. */
struct sequence_line {
	struct ioapic *io;
	unsigned pin;
	const char *why;	/* NULL: io and pin are the line */
};
struct sequence_line sources_sequence_line(void);

/* Points the 32-bit phase's loops (struct pm_data) at `src` on `vector`:
 * its trigger and the local APIC registers it writes. */
void sources_aim_protected(const struct irq_source *src, uint8_t vector);

/* Vectors a self-IPI or external source is checked on: both ends, both
 * sides of the imm8 sign boundary, and a few between. */
extern const uint8_t source_check_vectors[7];

#endif
