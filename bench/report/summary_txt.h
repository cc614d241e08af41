/* summary.txt: every row and every section of results.json, as text a
 * person reads in any editor. */
#ifndef IRQLAB_BENCH_REPORT_SUMMARY_TXT_H
#define IRQLAB_BENCH_REPORT_SUMMARY_TXT_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/context.h"

/* 0, or -1 where `tb` was too small. */
int report_summary(struct text_buf *tb, const struct run_result *r,
		   const struct report_context *ctx);

#endif
