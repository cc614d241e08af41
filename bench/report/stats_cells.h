/* A row's status and statistics as every section writes them: objects in
 * results.json, columns in summary.txt, net of a floor alike. */
#ifndef IRQLAB_BENCH_REPORT_STATS_CELLS_H
#define IRQLAB_BENCH_REPORT_STATS_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/model/stats.h"
#include "bench/report/json.h"

/* A row's status, and its reason where it did not end ok. */
void json_status(struct json_writer *w, unsigned status, const char *reason);
/* The statistics as an object, every field of stats_fields but the
 * count, net of `floor`. */
void json_figures(struct json_writer *w, const struct sample_stats *s,
		  uint64_t floor);
/* ... raw, with the count as "samples". */
void json_raw_stats(struct json_writer *w, const struct sample_stats *s);
/* A row's histogram on one line, as [[from, to, count], ...] (`to`
 * inclusive), net of `floor`; null where the row kept none. */
void json_row_histogram(struct json_writer *w, const struct row_histogram *rh,
			uint64_t floor);

/* A figure that may be missing (INT64_MIN: a median the row lacks, an
 * overhead over a row that did not run ok): `key` and the number, or
 * null, never that number. */
void json_kv_figure(struct json_writer *w, const char *key, int64_t v);
/* ... as a text cell: the number, signed where `sign`, or "-". */
void summary_figure(char *out, size_t cap, int64_t v, int sign);

/* A milli-unit value as a decimal with 1 to 3 fraction digits. */
void summary_milli(char *out, size_t cap, int64_t milli, int decimals);
/* The width of a field's column in summary.txt. */
int summary_width(const struct stats_field *f);
/* One column per field of stats_fields but the count, net of `floor`. */
void summary_stats_fields(struct text_buf *tb, const struct sample_stats *s,
			  uint64_t floor);

#endif
