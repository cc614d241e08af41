/* How the figures were measured: the clock and its unit, the fences,
 * the floor, the noise discarded, the counts of samples and the config
 * the run was given. */
#ifndef IRQLAB_BENCH_REPORT_METHOD_H
#define IRQLAB_BENCH_REPORT_METHOD_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/json.h"

/* results.json's "clock", "method", "config" and "config_warnings". */
void method_json(struct json_writer *w, const struct run_result *r);
/* summary.txt's lines from "clock" to "config", and a blank line. */
void method_summary(struct text_buf *tb, const struct run_result *r);

#endif
