/* The primitive micro-benchmarks (seeds 000, 002, 003): each one's
 * block of repetitions, net of the floor, in the catalog's words. */
#ifndef IRQLAB_BENCH_REPORT_PRIMITIVES_H
#define IRQLAB_BENCH_REPORT_PRIMITIVES_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/context.h"
#include "bench/report/json.h"

/* results.json's "primitives", and summary.txt's table. */
void primitives_json(struct json_writer *w, const struct run_result *r,
		     const struct report_context *ctx);
void primitives_summary(struct text_buf *tb, const struct run_result *r,
			const struct report_context *ctx);

#endif
