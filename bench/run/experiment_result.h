/* What both kinds of experiment row share, long mode's
 * (bench/run/experiment.c) and the 32-bit phase's (bench/run/i386_rows.c):
 * the row's result opened, and closed with its verdict and figures. */
#ifndef IRQLAB_BENCH_RUN_EXPERIMENT_RESULT_H
#define IRQLAB_BENCH_RUN_EXPERIMENT_RESULT_H

#include "bench/model/config.h"
#include "bench/model/results.h"
#include "bench/run/buffers.h"
#include "bench/run/plan.h"

/* A row's passes: the TSC's, timed and bare; then, where the counters
 * count, the counted pass's three: core cycles through the counted
 * handlers and the bare ones, instructions through the bare ones. Each
 * delivers warm-up + samples interrupts. */
#define TSC_PASSES 2
#define COUNTED_PASSES 3

/* The row's result, with the plan's ids and name, skipped when `why` is
 * not NULL. */
struct experiment_result *experiment_open(const struct plan_row *p,
					  struct run_result *r, const char *why);

/* How it ended: `why` says why it did not finish (NULL: it did), with
 * timed_out or faulted saying how; else the verdict from the per-vector
 * `delivered` counts against `passes` passes, and each metric's
 * statistics and histogram from the buffers (and the counted row, after
 * the counted pass). */
void experiment_close(const struct plan_row *p, struct run_result *r,
		      struct experiment_result *e,
		      const struct irqlab_config *c,
		      const struct bench_buffers *b, const uint32_t *delivered,
		      const char *why, int timed_out, int faulted,
		      unsigned passes);

#endif
