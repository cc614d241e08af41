/* The cross-CPU section (docs/cross-cpu.md): the core-to-core matrix of
 * IPIs acknowledged and one way, and the broadcasts with every target's
 * acknowledgement, measured with the processors phase B started. */
#ifndef IRQLAB_BENCH_RUN_CROSS_CPU_H
#define IRQLAB_BENCH_RUN_CROSS_CPU_H

#include <stddef.h>

#include "bench/model/results.h"
#include "bench/run/buffers.h"

/* Appends the section's rows to r->cross and its cells to r->cell: one
 * skipped row with the reason where no other processor started. Where
 * `fits` is given and says the run no longer fits its handoff after a
 * sender's cells, they are taken back and r->matrix_next_sender names
 * that sender for the next part; a part that resumes the matrix
 * (r->matrix_resume) measures from there, without the broadcasts, and
 * keeps at least its first sender where it measured no rows; one that
 * cannot run the section leaves it to the next part
 * (docs/cross-cpu.md "In the handoff"). */
void bench_run_cross_cpu(struct run_result *r, const struct irqlab_config *c,
			 struct bench_buffers *b,
			 int (*fits)(const struct run_result *r));

/* The handoff room the section's rows need, set aside in the first part
 * before the rows run: the cells of every processor started, the full
 * matrix taking as many as the cpus key lets it (cross_full_most), the
 * broadcasts, and one distribution per relation at its largest. */
size_t cross_cpu_handoff_reserve(const struct irqlab_config *c);

#endif
