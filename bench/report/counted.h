/* The counted pass (docs/timing.md "Core cycles"): each row's core
 * cycles and instructions retired, from the performance counters in a
 * pass of their own. */
#ifndef IRQLAB_BENCH_REPORT_COUNTED_H
#define IRQLAB_BENCH_REPORT_COUNTED_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/json.h"

/* A row's "cycles" and "instructions" in results.json, from its counted
 * row `c` (NULL where the pass did not run it). */
void counted_json(struct json_writer *w, const struct run_result *r,
		  const struct counted_row *c);
/* summary.txt's table of core cycles, or why they were not measured. */
void counted_summary(struct text_buf *tb, const struct run_result *r);

#endif
