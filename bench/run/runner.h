/* The runner, as phase B calls it: the instrument floor, the plan of
 * rows (bench/run/plan.h) run in order, the primitives, and what a TSC
 * delta means here. */
#ifndef IRQLAB_BENCH_RUN_RUNNER_H
#define IRQLAB_BENCH_RUN_RUNNER_H

#include <stdint.h>

#include "bench/model/config.h"
#include "bench/model/results.h"
#include "bench/run/buffers.h"

/* Measures the instrument floor into r->floor, and the handler's two
 * timestamps inside it into r->instrument. */
void bench_measure_floor(struct run_result *r, const struct irqlab_config *c,
			 struct bench_buffers *b);

/* Builds the plan on the probed `lines` and runs its rows from
 * r->first_row on; each ends in a status. With `fits`, a row after which the results no longer fit
 * (fits returns 0) is taken back and the part ends there: r->next_row
 * says where the next part starts (docs/uefi-variables.md "Parts"). */
struct source_lines;
void bench_run_all(struct run_result *r, const struct irqlab_config *c,
		   struct bench_buffers *b, struct source_lines *lines,
		   int (*fits)(const struct run_result *r));

/* Times every primitive micro-benchmark into r->prim, seed 004's IO-APIC
 * sequences on `lines`. */
void bench_run_primitives(struct run_result *r, const struct irqlab_config *c,
			  struct bench_buffers *b, struct source_lines *lines);

/* How far the run is, for whoever shows progress: the phases plug a
 * screen in here, since the runner cannot reach up to one. */
struct bench_progress {
	const char *name;	/* the row or primitive about to run; "" at the end */
	/* Steps done and planned: the plan's rows, then the primitives
	 * (bench/model/row_counts.h). */
	uint32_t done, total;
	uint8_t part;	/* the part being measured, from 1 */
	/* Experiment rows, gap rows and primitives ended so, in this part
	 * (timeouts are failures). */
	uint32_t ok, skipped, failed;
};
extern void (*bench_progress_hook)(const struct bench_progress *);

/* Decides what a TSC delta means here (see enum clock_kind). */
enum clock_kind bench_detect_clock(const struct machine_info *m);

#endif
