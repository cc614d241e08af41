#include "bench/report/stats_cells.h"

#include "bench/model/histogram.h"

/* A mean in milli-units, net of the floor. */
static int64_t net_mean_milli(uint64_t mean_milli, uint64_t floor)
{
	return (int64_t)(mean_milli - floor * 1000u);
}

void json_status(struct json_writer *w, unsigned status,
		 const char *reason)
{
	json_kv_string(w, "status", exp_status_name(status));
	json_key(w, "reason");
	if (status == EXP_OK)
		json_null(w);
	else
		json_string(w, reason);
}

/* Every field of stats_fields but the count, net of `floor` (0 for raw
 * figures). */
static void json_stats_fields(struct json_writer *w,
			      const struct sample_stats *s, uint64_t floor)
{
	size_t i;

	for (i = 0; i < stats_field_count; i++) {
		const struct stats_field *f = &stats_fields[i];
		uint64_t v = stats_get(s, f);

		switch (f->kind) {
		case STATS_FIELD_FIGURE:
			json_kv_int(w, f->name, net_of_floor(v, floor));
			break;
		case STATS_FIELD_MEAN:
			json_key(w, f->name);
			json_milli(w, net_mean_milli(v, floor));
			break;
		case STATS_FIELD_SPREAD:
			json_key(w, f->name);
			if (v == UINT64_MAX)
				json_null(w);	/* too large for the exact sum */
			else
				json_milli(w, (int64_t)v);
			break;
		}
	}
}

void json_figures(struct json_writer *w, const struct sample_stats *s,
		  uint64_t floor)
{
	json_begin_object(w);
	json_stats_fields(w, s, floor);
	json_end_object(w);
}

void json_raw_stats(struct json_writer *w, const struct sample_stats *s)
{
	json_begin_object(w);
	json_kv_uint(w, "samples", s->count);
	json_stats_fields(w, s, 0);
	json_end_object(w);
}

/* One line, not a line a bin: a run of wide histograms would otherwise
 * take megabytes (struct row_histogram). */
void json_row_histogram(struct json_writer *w,
			const struct row_histogram *rh, uint64_t floor)
{
	static struct histogram h;
	unsigned k;

	if (!rh || hist_decode(rh->bytes, rh->len, &h)) {
		json_null(w);
		return;
	}
	json_begin_inline_array(w);
	for (k = 0; k < HIST_BUCKETS; k++) {
		if (!h.counts[k])
			continue;
		json_begin_array(w);
		json_int(w, net_of_floor(hist_lower(k), floor));
		json_int(w, net_of_floor(hist_upper(k), floor));
		json_uint(w, h.counts[k]);
		json_end_array(w);
	}
	json_end_array(w);
}

void json_kv_figure(struct json_writer *w, const char *key, int64_t v)
{
	json_key(w, key);
	if (v == INT64_MIN)
		json_null(w);
	else
		json_int(w, v);
}

void summary_figure(char *out, size_t cap, int64_t v, int sign)
{
	if (v == INT64_MIN)
		fmt_snprintf(out, cap, "-");
	else
		fmt_snprintf(out, cap, sign ? "%+lld" : "%lld", (long long)v);
}

void summary_milli(char *out, size_t cap, int64_t milli, int decimals)
{
	static const unsigned divisor[4] = { 1000, 100, 10, 1 };
	uint64_t mag = milli < 0 ? (uint64_t)0 - (uint64_t)milli : (uint64_t)milli;

	fmt_snprintf(out, cap, "%s%llu.%0*llu", milli < 0 ? "-" : "",
		     (unsigned long long)(mag / 1000), decimals,
		     (unsigned long long)(mag % 1000 / divisor[decimals]));
}

int summary_width(const struct stats_field *f)
{
	return f->kind == STATS_FIELD_MEAN ? 11 : 9;
}

void summary_stats_fields(struct text_buf *tb,
			  const struct sample_stats *s, uint64_t floor)
{
	size_t i;

	for (i = 0; i < stats_field_count; i++) {
		const struct stats_field *f = &stats_fields[i];
		uint64_t v = stats_get(s, f);
		char cell[24];

		switch (f->kind) {
		case STATS_FIELD_FIGURE:
			fmt_snprintf(cell, sizeof(cell), "%lld",
				     (long long)net_of_floor(v, floor));
			break;
		case STATS_FIELD_MEAN:
			summary_milli(cell, sizeof(cell),
				      net_mean_milli(v, floor), 1);
			break;
		case STATS_FIELD_SPREAD:
			if (v == UINT64_MAX)
				fmt_snprintf(cell, sizeof(cell), "-");
			else
				summary_milli(cell, sizeof(cell), (int64_t)v, 1);
			break;
		default:
			continue;
		}
		tb_printf(tb, " %*s", summary_width(f), cell);
	}
}
