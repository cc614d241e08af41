/* results.json (schema "irqlab-results", versioned): every figure and
 * fact of a run, the report page's data. */
#ifndef IRQLAB_BENCH_REPORT_RESULTS_JSON_H
#define IRQLAB_BENCH_REPORT_RESULTS_JSON_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/context.h"

#define RESULTS_SCHEMA_VERSION 1

/* 0, or -1 where `tb` was too small. */
int report_json(struct text_buf *tb, const struct run_result *r,
		const struct report_context *ctx);

#endif
