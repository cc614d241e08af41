/* One row of the plan, run: an experiment row measures entry, exit and
 * round trip; a gap row runs the gap method under its scheme. */
#ifndef IRQLAB_BENCH_RUN_EXPERIMENT_H
#define IRQLAB_BENCH_RUN_EXPERIMENT_H

#include "bench/model/config.h"
#include "bench/model/results.h"
#include "bench/run/buffers.h"
#include "bench/run/plan.h"

/* Runs an experiment row into the next free r->exp. */
void experiment_run(const struct plan_row *p, struct run_result *r,
		    const struct irqlab_config *c, struct bench_buffers *b);

/* Runs a gap row into the next free r->gap. */
void gap_run(const struct plan_row *p, struct run_result *r,
	     struct bench_buffers *b);

#endif
