/* summary.txt: the order of its sections, each written by the file of
 * its topic, and the experiments' rows. */
#include "bench/report/summary_txt.h"

#include "bench/model/cross_cpu.h"
#include "bench/model/pmu.h"
#include "bench/report/between_cpus.h"
#include "bench/report/comparison.h"
#include "bench/report/counted.h"
#include "bench/report/footprints.h"
#include "bench/report/gaps.h"
#include "bench/report/handoff_records.h"
#include "bench/report/machine.h"
#include "bench/report/method.h"
#include "bench/report/mitigations.h"
#include "bench/report/other_processors.h"
#include "bench/report/path_length.h"
#include "bench/report/primitives.h"
#include "bench/report/repeat_runs.h"
#include "bench/report/row_counts.h"
#include "bench/report/seeds.h"
#include "bench/report/stats_cells.h"
#include "bench/report/yours.h"

/* Below an ok row's figures, what they are not: a row between CPUs whose
 * figures are an emulator's scheduling, and an entry above its round
 * trip. */
static void summary_row_flags(struct text_buf *tb, const struct run_result *r,
			      const struct experiment_result *e)
{
	uint64_t floor = row_floor(r, e);

	if (row_figures_not_latencies(r, e))
		tb_printf(tb, "%-39s ^ NOT LATENCIES: %s\n", "",
			  cross_figures_meaning(r->clock_kind));
	if (row_entry_above_round_trip(e))
		tb_printf(tb, "%-39s ^ FLAG: entry %lld is above its round trip "
			  "%lld: the two come from separate passes (timed and "
			  "bare handlers), and here are not one interrupt's "
			  "parts\n", "",
			  (long long)net_of_floor(e->metric[METRIC_ENTRY].median,
						  floor),
			  (long long)net_of_floor(
				  e->metric[METRIC_ROUND_TRIP].median, floor));
}

/* Every row: its status, or each metric's statistics net of the floor. */
static void summary_rows(struct text_buf *tb, const struct run_result *r)
{
	uint32_t i;
	unsigned k;

	tb_printf(tb, "%-39s %-24s %-28s %4s %-7s %-16s", "experiment",
		  "scheme", "source", "vec", "status", "metric");
	for (k = 0; k < stats_field_count; k++)
		if (stats_fields[k].kind != STATS_FIELD_COUNT)
			tb_printf(tb, " %*s", summary_width(&stats_fields[k]),
				  stats_fields[k].name);
	tb_putc(tb, '\n');
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];

		if (e->status != EXP_OK) {
			tb_printf(tb, "%-39s %-24s %-28s %4u %s: %s\n", e->name,
				  scheme_name(e->id.scheme),
				  source_name(e->id.source), e->vector,
				  exp_status_name(e->status), e->reason);
			continue;
		}
		for (k = 0; k < METRIC_COUNT; k++) {
			tb_printf(tb, "%-39s %-24s %-28s %4u %-7s %-16s",
				  k ? "" : e->name,
				  k ? "" : scheme_name(e->id.scheme),
				  k ? "" : source_name(e->id.source), e->vector,
				  k ? "" : exp_status_name(e->status),
				  metric_name(k));
			summary_stats_fields(tb, &e->metric[k],
					     row_floor(r, e));
			tb_putc(tb, '\n');
		}
		summary_row_flags(tb, r, e);
	}
	for (i = 0; i < r->n_experiments; i++)
		if (r->exp[i].discarded)
			tb_printf(tb, "%s: %u samples in %u batches discarded "
				  "for SMIs/NMIs and taken again\n",
				  r->exp[i].name, r->exp[i].discarded,
				  r->exp[i].discarded_batches);
	for (i = 0; i < r->n_experiments; i++)
		if (pmu_frequency_moved(r->exp[i].clock_ratio_low,
					r->exp[i].clock_ratio_high))
			tb_printf(tb, "%s: UNSTABLE (frequency): the core clock "
				  "ran at %u.%03u to %u.%03u times the TSC's over "
				  "its batches\n", r->exp[i].name,
				  r->exp[i].clock_ratio_low / 1000,
				  r->exp[i].clock_ratio_low % 1000,
				  r->exp[i].clock_ratio_high / 1000,
				  r->exp[i].clock_ratio_high % 1000);
	for (i = 0; i < r->n_experiments; i++)
		if (r->exp[i].status == EXP_OK &&
		    source_between_cpus(r->exp[i].id.source)) {
			tb_printf(tb, "The rows between CPUs (ipi-cpu-*): %s\n",
				  cross_figures_meaning(r->clock_kind));
			break;
		}
}

int report_summary(struct text_buf *tb, const struct run_result *r,
		   const struct report_context *ctx)
{
	char text[32], notice[RESULTS_REASON_LEN * 2];
	unsigned k;

	run_folder_name(r->run_id, text, sizeof(text));
	tb_printf(tb, "irqlab results, run %s", text);
	if (r->config.runs > 1)
		tb_printf(tb, " (figures from run %u of %u)", r->run_index,
			  r->config.runs);
	tb_printf(tb, "\n\n");
	/* What of the plan no file of this run has, before anything. */
	for (k = 0; k < ROW_NOTICES; k++)
		if (row_counts_notice(r, k, 0, notice, sizeof(notice)))
			tb_printf(tb, "NOT ALL MEASURED: %s.\n\n", notice);
	handoff_summary(tb, r);
	row_counts_summary(tb, r);
	/* What the config had that was ignored, first, where it is read. */
	if (r->config_warnings[0])
		tb_printf(tb, "CONFIG WARNINGS (the run went on without these "
			  "lines): %s\n\n", r->config_warnings);
	machine_summary(tb, r);
	method_summary(tb, r);
	yours_summary(tb, r);
	summary_rows(tb, r);
	tb_printf(tb, "\nFigures are %s, net of the floor.\n",
		  clock_kind_unit(r->clock_kind));
	comparison_summary(tb, r);
	mitigations_summary(tb, r);
	counted_summary(tb, r);
	if (r->clock_kind != CLOCK_TSC_TICKS)
		tb_printf(tb, "QEMU models no caches: the cache-state rows (cold, "
			  "cold-control, thrash) can only differ from their "
			  "baselines on hardware.\n");
	footprints_summary(tb, ctx);
	primitives_summary(tb, r, ctx);
	between_cpus_summary(tb, r);
	other_processors_summary(tb, r);
	gaps_summary(tb, r);
	repeat_runs_summary(tb, r, ctx);
	path_length_summary(tb, r, ctx);
	seeds_summary(tb, r);
	report_discards(tb, ctx ? ctx->handoff : 0);
	return tb->overflow ? -1 : 0;
}
