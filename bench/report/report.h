/* The files of a run's folder, as phase C writes them on the stick and
 * irqlab-rescue on a host: results.json (schema "irqlab-results",
 * versioned), summary.txt, report.html and headline.txt, each written
 * from the same run_result so they cannot disagree. This header is the
 * reports' face to the phases and the tools. */
#ifndef IRQLAB_BENCH_REPORT_REPORT_H
#define IRQLAB_BENCH_REPORT_REPORT_H

#include <stddef.h>

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/context.h"
#include "bench/report/end_screen.h"
#include "bench/report/handoff_records.h"
#include "bench/report/report_html.h"
#include "bench/report/results_json.h"
#include "bench/report/summary_txt.h"

/* The files of a run's folder, in the order they are written: phase C
 * and the rescue tool both walk this list. */
struct report_output {
	const char *file;
	int (*render)(struct text_buf *tb, const struct run_result *r,
		      const struct report_context *ctx);
};
extern const struct report_output report_outputs[];
extern const size_t report_output_count;

#endif
