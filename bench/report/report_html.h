/* report.html: the page's template (web/) with results.json in its data
 * slot. The firmware draws nothing; the page's own scripts do. */
#ifndef IRQLAB_BENCH_REPORT_REPORT_HTML_H
#define IRQLAB_BENCH_REPORT_REPORT_HTML_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/context.h"

/* Where results.json goes in the template. */
#define REPORT_DATA_SLOT "IRQLAB_RESULTS_JSON"

/* 0; -1 where `tb` was too small; REPORT_NOT_WRITTEN without a template
 * that has the slot. */
int report_html(struct text_buf *tb, const struct run_result *r,
		const struct report_context *ctx);

#endif
