/* Each row against its baseline, and each long-mode scheme above the
 * gate's floor (docs/long-mode.md "The gate's floor"): the overheads a
 * scheme adds. */
#ifndef IRQLAB_BENCH_REPORT_COMPARISON_H
#define IRQLAB_BENCH_REPORT_COMPARISON_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/json.h"

/* results.json's "against_baseline" and "above_gate". */
void comparison_json(struct json_writer *w, const struct run_result *r);
/* summary.txt's tables against the baselines, long mode's and the i386
 * rows', and above the gate's floor. */
void comparison_summary(struct text_buf *tb, const struct run_result *r);

/* Row e's median of each metric over base's as results.json's members
 * "<metric>_median_over", in the clock's units and, where the counted
 * pass ran, "cycles_<metric>_median_over" in core cycles. */
void json_overs(struct json_writer *w, const struct run_result *r,
		const struct experiment_result *e,
		const struct experiment_result *base);

#endif
