/* The experiment matrix and its runner (guest side). Each row names a
 * scheme and a source; the runner looks both up in their tables, so adding
 * either is a table row, not code here. */
#ifndef IRQLAB_BENCH_RUN_EXPERIMENT_H
#define IRQLAB_BENCH_RUN_EXPERIMENT_H

#include <stdint.h>

#include "bench/model/config.h"
#include "bench/model/results.h"

/* Sample storage, allocated while boot services still run. */
struct bench_buffers {
	uint64_t *metric[METRIC_COUNT];	/* config.samples each */
	uint64_t *floor;	/* max(floor_samples, primitive_blocks) */
};

/* Measures the instrument floor into r->floor. */
void bench_measure_floor(struct run_result *r, const struct irqlab_config *c,
			 struct bench_buffers *b);

/* Runs every row of the matrix; each ends in a status. */
void bench_run_all(struct run_result *r, const struct irqlab_config *c,
		   struct bench_buffers *b);

/* Times every primitive micro-benchmark into r->prim. */
void bench_run_primitives(struct run_result *r, const struct irqlab_config *c,
			  struct bench_buffers *b);

/* Decides what a TSC delta means here (see enum clock_kind). */
enum clock_kind bench_detect_clock(const struct machine_info *m);

#endif
