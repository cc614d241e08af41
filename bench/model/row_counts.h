/* The one count of a run's rows (docs/reading.md "Reading the results", "The
 * counts of rows"): every report, the end screen and phase B's progress
 * lines give these, and say which they give. Three kinds of row come out
 * of a run, and each is counted on its own:
 *   - experiment rows: the plan's rows of one scheme, source, entry
 *     variant or cache state, APIC mode and processor, i386 and
 *     self-test rows included ("experiments" in results.json);
 *   - gap rows: the gap method's, one a scheme (seed 000), also rows of
 *     the plan;
 *   - primitives: the blocks timed after the plan, seed 004's IO-APIC
 *     sequences among them;
 * and the rows between CPUs (docs/cross-cpu.md), a section of their own.
 * The plan's rows are the experiment and gap rows it had, measured or
 * not (phase B's "plan: N rows"); with the primitives they are the steps
 * its progress line counts ("step k of N"). Plain C. */
#ifndef IRQLAB_BENCH_MODEL_ROW_COUNTS_H
#define IRQLAB_BENCH_MODEL_ROW_COUNTS_H

#include <stdint.h>

#include "bench/model/results.h"

/* One kind of row by how it ended; a timeout is a failure. */
struct status_counts {
	uint32_t ok, skipped, failed;
};

struct row_counts {
	struct status_counts experiments;
	struct status_counts gap_rows;
	struct status_counts primitives;
	struct status_counts between_cpus;
	/* Experiment rows in 32-bit protected mode, measured against
	 * i386-direct in a table of their own. */
	uint32_t i386_rows;
	/* The experiment and gap rows the plan had, measured or not; 0
	 * where the results do not say. */
	uint32_t plan_rows;
	/* The progress line's steps: the plan's rows, then the primitives. */
	uint32_t plan_steps;
	/* Plan rows the run took up that left no row: their APIC mode did
	 * not come up and their source already said so, or the results'
	 * table was full. */
	uint32_t left_out;
	/* The plan row the run began at (start_row, or a part whose earlier
	 * parts are not joined here), and the first it never measured (a
	 * later part that never ran); 0 for none. */
	uint32_t first_row;
	uint32_t unmeasured_from_row;
	uint32_t parts;	/* resets the run took, 1 for one handoff */
};

/* The primitives a run times after its plan: the catalog's, as many as
 * the results hold. */
uint32_t row_counts_primitive_steps(void);

/* The counts of run r. */
void row_counts_of(const struct run_result *r, struct row_counts *out);

/* ok + skipped + failed. */
uint32_t status_counts_total(const struct status_counts *s);

/* Counts `status` (enum exp_status) in s; anything but ok or skipped is a
 * failure. */
void status_counts_add(struct status_counts *s, unsigned status);

#endif
