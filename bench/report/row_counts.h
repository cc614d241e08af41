/* The one count of a run's rows (bench/model/row_counts.h) as the
 * reports give it, each number with what it counts: results.json's
 * "row_counts", summary.txt's lines, the end screen's; and the notice of
 * a run whose plan was not measured whole, which every file puts first. */
#ifndef IRQLAB_BENCH_REPORT_ROW_COUNTS_H
#define IRQLAB_BENCH_REPORT_ROW_COUNTS_H

#include <stddef.h>

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/model/row_counts.h"
#include "bench/report/json.h"

/* results.json's "row_counts" and summary.txt's "Rows" lines. */
void row_counts_json(struct json_writer *w, const struct run_result *r);
void row_counts_summary(struct text_buf *tb, const struct run_result *r);

/* The counts in one sentence, for the end screen to wrap: "120 ok, 20
 * skipped, 0 failed of 140 experiment rows; gap rows ...", the rows
 * between CPUs where any ran (summary.txt has them always). */
void row_counts_sentence(const struct row_counts *c, char *out, size_t cap);

/* What of the plan is in no file of this run: its rows from
 * unmeasured_from_row on (later parts that never ran), and its rows
 * before first_row (start_row, or earlier parts not joined). Writes
 * notice `k` (0, 1) into `out`, the long form or the end screen's short
 * one, and returns 1; 0 where there is no such notice. */
#define ROW_NOTICES 2
int row_counts_notice(const struct run_result *r, unsigned k, int short_form,
		      char *out, size_t cap);

#endif
