/* The machine's interrupt lines as the probes found them (docs/
 * controllers.md "Probes"): every IO-APIC masked, the PIT's route, the
 * HPET's level line, and each probe's verdict against a line. One value,
 * made by source_lines_probe and passed along to the sources that use it
 * (bench/run/sources.h): the rows' start, fire and stop reach the lines
 * only through it. */
#ifndef IRQLAB_BENCH_RUN_SOURCE_LINES_H
#define IRQLAB_BENCH_RUN_SOURCE_LINES_H

#include <stdint.h>

#include "apic/ioapic.h"
#include "apic/timers.h"
#include "arch/dispatch/irq.h"
#include "bench/model/results.h"
#include "firmware/acpi.h"

/* What a probe found against a line: empty when the line may be used,
 * else why not. */
struct line_verdict {
	char why[160];
};

struct source_lines {
	/* The machine, as phase A found it. */
	struct madt_info madt;
	enum acpi_status madt_status;
	struct hpet_info hpet_table;
	enum acpi_status hpet_status;
	/* Every IO-APIC the MADT lists, all masked; each line uses the one
	 * its GSI belongs to, by index (-1 where none does). */
	struct ioapic ioapics[MADT_MAX_IOAPICS];
	unsigned n_ioapics;
	int pit_ioapic, level_ioapic;
	/* The HPET, and the timer and input of its level line where one
	 * routes to a free IO-APIC input (have_hpet). */
	struct hpet hpet;
	uint8_t have_hpet;
	unsigned hpet_timer, hpet_gsi;
	/* The probes' verdicts: the PIT counts, the HPET answers and counts,
	 * interrupt remapping is off, the TSC-deadline timer has no known
	 * errata. */
	struct line_verdict pit, hpet_found, remapping, tsc_deadline;
	/* Whether something else drives the HPET's line: looked at once,
	 * by the first level row, in its APIC mode. */
	uint8_t busy_looked;
	struct line_verdict busy;
	/* A reason made up when a row asks (no MADT, no HPET route). */
	char why[128];
	/* The other processor an IPI row sends to, as the row's start set
	 * it up: why it cannot run, how the target waits, and the ICR's
	 * delivery mode (fixed, or NMI). */
	struct {
		const char *why;
		char why_buf[96];
		uint8_t waits;
		uint32_t delivery;
		char verdict[RESULTS_REASON_LEN];
		/* Samples since the start whose answer came past the
		 * sample's wait, measured as they were. */
		uint32_t late;
	} other_cpu;
};

/* The firmware's tables the probes read, as phase A kept them. */
struct probe_tables {
	const struct madt_info *madt;
	enum acpi_status madt_status;
	const struct hpet_info *hpet;
	enum acpi_status hpet_status;
	const struct dmar_info *dmar;
	enum acpi_status dmar_status;
};

/* Masks every IO-APIC and runs each probe, recorded in `r`: the PIT
 * counts, the HPET answers and counts, interrupt remapping is off, the
 * TSC-deadline timer has no known errata; then picks the HPET's level
 * line. A source whose line fails one is skipped with what the probe
 * saw. */
struct source_lines source_lines_probe(const struct probe_tables *tables,
				       struct run_result *r);

/* Why no row may use an IO-APIC here, or NULL. */
const char *source_lines_no_ioapic(struct source_lines *l);

/* The IO-APIC and pin seed 004's sequences are timed on
 * (bench/run/sequences.c): the HPET line's, routed, masked and idle,
 * when there is one; else the first IO-APIC's last; or why there is
 * none. A value, so that the timed loop keeps both in registers. */
struct sequence_line {
	struct ioapic *io;
	unsigned pin;
	const char *why;	/* NULL: io and pin are the line */
};
struct sequence_line source_lines_sequence_line(struct source_lines *l);

/* The lines' sources, for the table (bench/run/sources.c). */
struct irq_source;
/* The PIT, through the IO-APIC (edge) or the 8259s (ExtINT). */
const char *pit_ioapic_unsupported(const struct irq_source *src,
				   struct source_lines *l);
void pit_ioapic_start(const struct irq_source *src, struct source_lines *l,
		      uint8_t vector);
void pit_ioapic_stop(const struct irq_source *src, struct source_lines *l);
void fire_pit(struct source_lines *l, uint8_t vector,
	      struct irq_sample *s);
const char *pic8259_unsupported(const struct irq_source *src,
				struct source_lines *l);
void pic8259_start(const struct irq_source *src, struct source_lines *l,
		   uint8_t vector);
void pic8259_stop(const struct irq_source *src, struct source_lines *l);
/* The HPET's level line through the IO-APIC, in the row's access
 * strategy (seed 004). */
const char *level_unsupported(const struct irq_source *src,
			      struct source_lines *l);
void level_start(const struct irq_source *src, struct source_lines *l,
		 uint8_t vector);
void level_stop(const struct irq_source *src, struct source_lines *l);
void fire_hpet_level(struct source_lines *l, uint8_t vector,
		     struct irq_sample *s);

#endif
