/* A series of runs (config runs > 1): each row's round-trip median in
 * every run, their spread, and whether it exceeds the tolerance. */
#ifndef IRQLAB_BENCH_REPORT_REPEAT_RUNS_H
#define IRQLAB_BENCH_REPORT_REPEAT_RUNS_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/context.h"
#include "bench/report/json.h"

/* results.json's "runs", and summary.txt's table. */
void repeat_runs_json(struct json_writer *w, const struct run_result *r,
		      const struct report_context *ctx);
void repeat_runs_summary(struct text_buf *tb, const struct run_result *r,
			 const struct report_context *ctx);

#endif
