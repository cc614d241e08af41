#include "bench/report/repeat_runs.h"

/* The round-trip median of `row` in run `k` of a series, net of that
 * run's floor, or INT64_MIN when it did not run ok there. */
static int64_t run_median(const struct report_context *ctx, size_t k,
			  const struct row_id *row)
{
	const struct experiment_result *e = results_find(ctx->runs[k], row);

	if (!e || e->status != EXP_OK)
		return INT64_MIN;
	return net_of_floor(e->metric[METRIC_ROUND_TRIP].median,
			    ctx->runs[k]->floor.min);
}

/* Spread of the per-run medians, and whether it exceeds the tolerance
 * (percent of the smallest median). Returns 0 when some run lacks it. */
static int run_spread(const struct report_context *ctx,
		      const struct row_id *row, uint32_t pct, int64_t *spread,
		      int *unstable)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t k;

	for (k = 0; k < ctx->n_runs; k++) {
		int64_t m = run_median(ctx, k, row);

		if (m == INT64_MIN)
			return 0;
		if (m < lo)
			lo = m;
		if (m > hi)
			hi = m;
	}
	*spread = hi - lo;
	*unstable = *spread > 0 && *spread * 100 > (int64_t)pct * (lo > 0 ? lo : 1);
	return 1;
}

void repeat_runs_json(struct json_writer *w, const struct run_result *r,
		      const struct report_context *ctx)
{
	uint32_t i;
	size_t k;

	json_key(w, "runs");
	json_begin_object(w);
	json_kv_uint(w, "count", ctx ? (ctx->n_runs ? ctx->n_runs : 1) : 1);
	json_kv_uint(w, "unstable_above_pct", r->config.unstable_pct);
	json_kv_string(w, "figures", "per-run round-trip medians, net of each "
				     "run's floor; the rows above are the "
				     "last run's");
	json_key(w, "rows");
	json_begin_array(w);
	for (i = 0; ctx && ctx->n_runs > 1 && i < r->n_experiments; i++) {
		int64_t spread;
		int unstable;

		if (!run_spread(ctx, &r->exp[i].id, r->config.unstable_pct,
				&spread, &unstable))
			continue;
		json_begin_object(w);
		json_kv_string(w, "experiment", r->exp[i].name);
		json_key(w, "round_trip_medians");
		json_begin_array(w);
		for (k = 0; k < ctx->n_runs; k++)
			json_int(w, run_median(ctx, k, &r->exp[i].id));
		json_end_array(w);
		json_kv_int(w, "spread", spread);
		json_key(w, "unstable");
		json_bool(w, unstable);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

void repeat_runs_summary(struct text_buf *tb, const struct run_result *r,
			 const struct report_context *ctx)
{
	uint32_t i, unstable_rows = 0;
	size_t k;

	if (!ctx || ctx->n_runs < 2)
		return;
	tb_printf(tb, "\nRepeat runs: round-trip median of each of %u runs, "
		  "their spread, and UNSTABLE where it exceeds %u%%\n",
		  (unsigned)ctx->n_runs, r->config.unstable_pct);
	for (i = 0; i < r->n_experiments; i++) {
		int64_t spread;
		int unstable;

		if (!run_spread(ctx, &r->exp[i].id, r->config.unstable_pct,
				&spread, &unstable))
			continue;
		tb_printf(tb, "%-39s", r->exp[i].name);
		for (k = 0; k < ctx->n_runs; k++)
			tb_printf(tb, " %7lld",
				  (long long)run_median(ctx, k, &r->exp[i].id));
		tb_printf(tb, "  spread %lld%s\n", (long long)spread,
			  unstable ? "  UNSTABLE" : "");
		unstable_rows += (uint32_t)unstable;
	}
	tb_printf(tb, "%u row(s) unstable across runs\n", unstable_rows);
}
