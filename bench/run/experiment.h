/* One row of the plan, run: an experiment row measures entry, exit and
 * round trip; a gap row runs the gap method under its scheme. */
#ifndef IRQLAB_BENCH_RUN_EXPERIMENT_H
#define IRQLAB_BENCH_RUN_EXPERIMENT_H

#include "bench/model/config.h"
#include "bench/model/results.h"
#include "bench/run/buffers.h"
#include "bench/run/experiment_result.h"
#include "bench/run/plan.h"

/* Interrupts per register-integrity check vector; schemes, long mode's
 * and i386, are checked on the configured vector and on 255, whose
 * push imm8 sign-extends. */
#define REGISTER_CHECKS_PER_VECTOR 256
#define HIGH_CHECK_VECTOR 255

/* The counted pass (docs/timing.md "Core cycles"), after the TSC's and
 * apart from it, so those figures and their instrument stay exactly as
 * they are: `take` runs one pass of `row` through handlers of a kind
 * into m; first core cycles through the counted handlers (entry, exit,
 * their round trip) and the bare ones, then instructions retired through
 * the bare ones, into b->counted. The trigger side reads the counter
 * only meanwhile (sample_counted). */
void experiment_counted_passes(void *row, const struct bench_buffers *b,
			       int (*take)(void *row, enum handler_kind kind,
					   uint64_t *const *m));

/* One floor: `probe` floor_samples times after a warm-up, its raw
 * deltas (the TSC's), or with `counted` each taken modulo the counters'
 * width; on whichever processor runs it. */
void experiment_floor(uint64_t (*probe)(void), int counted,
		      const struct irqlab_config *c, struct bench_buffers *b,
		      struct sample_stats *out);

/* Runs an experiment row into the next free r->exp. */
void experiment_run(const struct plan_row *p, struct run_result *r,
		    const struct irqlab_config *c, struct bench_buffers *b);

/* Runs a ROW_I386 row, in 32-bit protected mode (bench/run/i386_rows.c),
 * into the next free r->exp. */
void i386_experiment_run(const struct plan_row *p, struct run_result *r,
			 const struct irqlab_config *c,
			 struct bench_buffers *b);

/* A kept batch's core-clock ratio since `before` (APERF/MPERF), into
 * the row's lowest and highest; nothing where they do not count. */
struct clock_reading;
void experiment_note_clock_ratio(struct experiment_result *e,
				 const struct clock_reading *before);

/* Runs a gap row into the next free r->gap. */
void gap_run(const struct plan_row *p, struct run_result *r,
	     struct bench_buffers *b);

#endif
