#include "bench/report/comparison.h"

#include "bench/model/cross_cpu.h"
#include "bench/report/baselines.h"
#include "bench/report/lead_figures.h"
#include "bench/report/stats_cells.h"

/* The gate's floor (scheme "gate") of an ok long-mode scheme row on the
 * same source and APIC pass, or NULL: none ran ok, or the row is a
 * variant, a cache state, a self-test or the gate's own. A file of
 * yours (docs/your-entry.md) is shown above the gate too, warm or in a
 * cache state, against the gate in the same state. */
static const struct experiment_result *gate_floor_of(
	const struct run_result *r, const struct experiment_result *e)
{
	struct row_id gate = e->id;
	const struct experiment_result *floor;
	int yours = variant_kind_of(e->id.variant) == VARIANT_KIND_YOURS &&
		    e->id.variant != VARIANT_ABSENT;

	if (e->status != EXP_OK || e->id.scheme == SCHEME_GATE ||
	    (e->id.variant != VARIANT_ABSENT && !yours) ||
	    (e->id.cache != VARIANT_ABSENT && !yours) ||
	    e->id.selftest != SELFTEST_ABSENT ||
	    scheme_cpu_mode(e->id.scheme) != CPU_MODE_LONG)
		return 0;
	gate.scheme = SCHEME_GATE;
	gate.variant = VARIANT_ABSENT;
	floor = results_find(r, &gate);
	return floor && floor->status == EXP_OK ? floor : 0;
}

void json_overs(struct json_writer *w, const struct run_result *r,
		const struct experiment_result *e,
		const struct experiment_result *base)
{
	unsigned k;

	for (k = 0; k < METRIC_COUNT; k++) {
		char key[32];

		fmt_snprintf(key, sizeof(key), "%s_median_over",
			     metric_name(k));
		json_kv_int(w, key, median_over(e, base, k));
	}
	/* The same in core cycles, where both rows have them. */
	for (k = 0; results_counted_state(r) != COUNTED_NOT_RUN &&
		    k < METRIC_COUNT; k++) {
		char key[40];

		fmt_snprintf(key, sizeof(key), "cycles_%s_median_over",
			     metric_name(k));
		json_kv_figure(w, key, counted_median_over(r, e, base, k));
	}
}

/* Each ok experiment's median overhead against its baseline row. */
void comparison_json(struct json_writer *w, const struct run_result *r)
{
	uint32_t i;

	json_key(w, "against_baseline");
	json_begin_array(w);
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *base = comparable_baseline(r, e);

		if (!base)
			continue;
		json_begin_object(w);
		json_kv_string(w, "experiment", e->name);
		json_kv_string(w, "baseline", base->name);
		json_overs(w, r, e, base);
		json_end_object(w);
	}
	json_end_array(w);
	/* The gate's floor (docs/long-mode.md "The gate's floor"): each
	 * scheme's distance above it, beside its overhead over direct. */
	json_key(w, "above_gate");
	json_begin_array(w);
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *gate = gate_floor_of(r, e);

		if (!gate)
			continue;
		json_begin_object(w);
		json_kv_string(w, "experiment", e->name);
		json_kv_string(w, "floor", gate->name);
		json_overs(w, r, e, gate);
		json_end_object(w);
	}
	json_end_array(w);
}

/* One line per row of that CPU mode that has a baseline to compare, but
 * the rows between CPUs whose figures are no latencies here: they are
 * named after the table. An entry above its round trip is flagged. */
static void summary_against_baseline(struct text_buf *tb,
				     const struct run_result *r,
				     enum cpu_mode mode)
{
	uint32_t i, left_out = 0;

	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *base = comparable_baseline(r, e);
		uint64_t floor = row_floor(r, e);

		if (!base || scheme_cpu_mode(e->id.scheme) != mode)
			continue;
		if (row_figures_not_latencies(r, e)) {
			left_out++;
			continue;
		}
		tb_printf(tb, "%-39s %-30s %7lld %7lld %7lld  %+7lld %+7lld %+7lld%s\n",
			  e->name, base->name,
			  (long long)net_of_floor(e->metric[METRIC_ENTRY].median, floor),
			  (long long)net_of_floor(e->metric[METRIC_EXIT].median, floor),
			  (long long)net_of_floor(e->metric[METRIC_ROUND_TRIP].median, floor),
			  (long long)median_over(e, base, METRIC_ENTRY),
			  (long long)median_over(e, base, METRIC_EXIT),
			  (long long)median_over(e, base, METRIC_ROUND_TRIP),
			  row_entry_above_round_trip(e)
				  ? "  FLAG: entry above its round trip" : "");
	}
	if (!left_out)
		return;
	tb_printf(tb, "Left out of this table: ");
	for (i = 0; i < r->n_experiments; i++)
		if (comparable_baseline(r, &r->exp[i]) &&
		    scheme_cpu_mode(r->exp[i].id.scheme) == mode &&
		    row_figures_not_latencies(r, &r->exp[i]))
			tb_printf(tb, "%s%s", r->exp[i].name,
				  --left_out ? ", " : "");
	tb_printf(tb, " (rows between CPUs): %s; their figures are in the "
		  "rows above, marked\n", cross_figures_meaning(r->clock_kind));
}

/* Each long-mode scheme row's distance above the gate's floor on its
 * source (docs/long-mode.md "The gate's floor"). */
static void summary_above_gate(struct text_buf *tb, const struct run_result *r)
{
	uint32_t i, n = 0;

	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *gate = gate_floor_of(r, e);

		if (!gate)
			continue;
		if (!n++)
			tb_printf(tb, "\nAbove the gate's floor: each scheme's "
				  "median less the gate's on the same source, "
				  "the least an interrupt costs here\n"
				  "%-39s %7s %7s %7s\n", "experiment", "+entry",
				  "+exit", "+round");
		tb_printf(tb, "%-39s %+7lld %+7lld %+7lld\n", e->name,
			  (long long)median_over(e, gate, METRIC_ENTRY),
			  (long long)median_over(e, gate, METRIC_EXIT),
			  (long long)median_over(e, gate, METRIC_ROUND_TRIP));
	}
}

void comparison_summary(struct text_buf *tb, const struct run_result *r)
{
	unsigned pass;

	for (pass = 0; pass < 2; pass++) {
		enum cpu_mode mode = pass ? CPU_MODE_PROTECTED_32 : CPU_MODE_LONG;

		if (pass)
			tb_printf(tb, "\nThe i386 rows, in 32-bit protected mode "
				  "(docs/protected-mode.md), against i386-direct "
				  "or their own baseline\n");
		else
			tb_printf(tb, "\nAgainst each row's baseline: medians net "
				  "of the floor, and the overhead over the "
				  "baseline (+ is slower)\n");
		tb_printf(tb, "%-39s %-30s %7s %7s %7s  %7s %7s %7s\n",
			  "experiment", "baseline", "entry", "exit", "round",
			  "+entry", "+exit", "+round");
		summary_against_baseline(tb, r, mode);
	}
	summary_above_gate(tb, r);
}
