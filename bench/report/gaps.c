#include "bench/report/gaps.h"

#include "bench/model/histogram.h"
#include "bench/report/stats_cells.h"

/* Gap figures net of one undisturbed loop iteration. */
static int64_t net_of_loop(uint64_t gap, const struct gap_result *g)
{
	return (int64_t)(gap - g->loop_median);
}

void gaps_json(struct json_writer *w, const struct run_result *r)
{
	static struct histogram h;
	uint32_t i;
	unsigned k;

	json_key(w, "gap_method");
	json_begin_object(w);
	json_kv_string(w, "method", "a TSC loop interrupted by a periodic local "
				    "APIC timer; each delta above the threshold, "
				    "less one undisturbed loop iteration, is what "
				    "an interrupt cost the interrupted code");
	json_kv_string(w, "unit", clock_kind_unit(r->clock_kind));
	json_key(w, "rows");
	json_begin_array(w);
	for (i = 0; i < r->n_gaps; i++) {
		const struct gap_result *g = &r->gap[i];

		json_begin_object(w);
		json_kv_string(w, "scheme", scheme_name(g->scheme));
		json_status(w, g->status, g->reason);
		if (g->status == EXP_OK) {
			json_kv_uint(w, "gaps", g->gaps.count);
			json_kv_uint(w, "interrupts", g->interrupts);
			json_kv_uint(w, "stalls", g->stalls);
			json_key(w, "noise_during_loop");
			json_bool(w, g->noise_moved);
			/* What the figures include: a histogram too wide to
			 * keep, stalls, noise; null when nothing. */
			json_key(w, "note");
			if (g->reason[0])
				json_string(w, g->reason);
			else
				json_null(w);
			json_kv_uint(w, "loop_iteration", g->loop_median);
			json_kv_uint(w, "threshold", g->threshold);
			json_key(w, "cost");
			json_figures(w, &g->gaps, g->loop_median);
			/* The counted pass: the same in core cycles, net of
			 * its own loop iteration; null where it did not run. */
			json_key(w, "cycles");
			if (g->cycles_gaps.count) {
				json_begin_object(w);
				json_kv_uint(w, "loop_iteration",
					     g->cycles_loop_median);
				json_key(w, "cost");
				json_figures(w, &g->cycles_gaps,
					     g->cycles_loop_median);
				json_end_object(w);
			} else {
				json_null(w);
			}
			json_key(w, "histogram");
			json_begin_array(w);
			if (hist_decode(g->hist, g->hist_len, &h) == 0)
				for (k = 0; k < HIST_BUCKETS; k++) {
					if (!h.counts[k])
						continue;
					json_begin_object(w);
					json_kv_int(w, "from", net_of_loop(hist_lower(k), g));
					json_kv_int(w, "to", net_of_loop(hist_upper(k), g));
					json_kv_uint(w, "count", h.counts[k]);
					json_end_object(w);
				}
			json_end_array(w);
		}
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

void gaps_summary(struct text_buf *tb, const struct run_result *r)
{
	uint32_t i;

	if (!r->n_gaps)
		return;
	tb_printf(tb, "\nGap method (seed 000): what an interrupt costs the "
		  "interrupted code, net of one loop iteration\n");
	tb_printf(tb, "%-13s %7s %9s %9s %9s %9s %9s\n", "scheme", "gaps",
		  "min", "median", "p99", "p99.9", "max");
	for (i = 0; i < r->n_gaps; i++) {
		const struct gap_result *g = &r->gap[i];

		if (g->status != EXP_OK) {
			tb_printf(tb, "%-13s %s: %s\n", scheme_name(g->scheme),
				  exp_status_name(g->status), g->reason);
			continue;
		}
		tb_printf(tb, "%-13s %7u %9lld %9lld %9lld %9lld %9lld\n",
			  scheme_name(g->scheme), g->gaps.count,
			  (long long)net_of_loop(g->gaps.min, g),
			  (long long)net_of_loop(g->gaps.median, g),
			  (long long)net_of_loop(g->gaps.p99, g),
			  (long long)net_of_loop(g->gaps.p999, g),
			  (long long)net_of_loop(g->gaps.max, g));
		if (g->reason[0])
			tb_printf(tb, "%-13s   %s\n", "", g->reason);
		if (g->cycles_gaps.count)
			tb_printf(tb, "%-13s   core cycles: median %lld, p99 %lld "
				  "(loop iteration %llu)\n", "",
				  (long long)net_of_floor(g->cycles_gaps.median,
							  g->cycles_loop_median),
				  (long long)net_of_floor(g->cycles_gaps.p99,
							  g->cycles_loop_median),
				  (unsigned long long)g->cycles_loop_median);
	}
}
