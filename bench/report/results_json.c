/* results.json: the order of its sections, each written by the file of
 * its topic, and the experiments' rows. */
#include "bench/report/results_json.h"

#include "bench/model/cross_cpu.h"
#include "bench/model/pmu.h"
#include "bench/report/baselines.h"
#include "bench/report/between_cpus.h"
#include "bench/report/comparison.h"
#include "bench/report/counted.h"
#include "bench/report/footprints.h"
#include "bench/report/gaps.h"
#include "bench/report/handoff_records.h"
#include "bench/report/json.h"
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

static void json_experiment(struct json_writer *w, const struct run_result *r,
			    const struct experiment_result *e)
{
	uint64_t floor = row_floor(r, e);
	char baseline[RESULTS_ROW_NAME_LEN], variant[RESULTS_ROW_NAME_LEN], core[8];
	unsigned k;

	baseline_name(e, baseline, sizeof(baseline));
	row_variant_text(&e->id, variant, sizeof(variant));
	json_begin_object(w);
	json_kv_string(w, "name", e->name);
	json_kv_string(w, "scheme", scheme_name(e->id.scheme));
	json_kv_string(w, "source", source_name(e->id.source));
	json_kv_string(w, "variant", variant);
	json_kv_string(w, "cache", variant_name(e->id.cache));
	json_kv_string(w, "baseline", baseline);
	json_kv_uint(w, "vector", e->vector);
	json_kv_string(w, "apic_mode", apic_mode_name(e->apic_mode));
	json_kv_string(w, "cpu_mode",
		       cpu_mode_name(scheme_cpu_mode(e->id.scheme)));
	/* The processor it ran on: null for the boot CPU, else its MADT
	 * index (docs/cross-cpu.md "The matrix on another processor"). */
	json_key(w, "on_cpu");
	if (e->id.cpu)
		json_uint(w, e->id.cpu - 1u);
	else
		json_null(w);
	json_kv_string(w, "core_type", core_type_name(row_core_type(r, e), core,
						      sizeof(core)));
	/* A row between processors says what its figures are here: under
	 * -icount they are QEMU's scheduling, not an IPI's cost. */
	if (source_between_cpus(e->id.source)) {
		json_kv_string(w, "between_cpus",
			       cross_figures_meaning(r->clock_kind));
		/* false: the answer leaves the row out (under an emulator
		 * its figures are the scheduler's). */
		json_key(w, "latencies");
		json_bool(w, !row_figures_not_latencies(r, e));
		/* Samples whose answer came past the sample's own wait,
		 * measured as they were (docs/cross-cpu.md "Waits for
		 * another processor"). */
		json_kv_uint(w, "late_samples", e->late);
	}
	json_status(w, e->status, e->reason);
	json_kv_uint(w, "delivered", e->delivered);
	json_kv_uint(w, "extra_interrupts", e->extra);
	json_kv_uint(w, "vectors_verified", e->vectors_verified);
	json_kv_uint(w, "register_checks", e->register_checks);
	json_kv_uint(w, "discarded", e->discarded);
	json_kv_uint(w, "discarded_batches", e->discarded_batches);
	/* A halted or MWAITing target's wake-ups that brought neither an
	 * interrupt nor a new command (docs/cross-cpu.md). */
	if (source_target_waits(e->id.source))
		json_kv_uint(w, "target_wakeups_without_interrupt",
			     e->target_wakeups);
	/* The core clock against the TSC's over the row's batches, in
	 * thousandths (APERF/MPERF); null where not measured. */
	json_key(w, "clock_ratio_milli");
	if (e->clock_ratio_low) {
		json_begin_object(w);
		json_kv_uint(w, "low", e->clock_ratio_low);
		json_kv_uint(w, "high", e->clock_ratio_high);
		json_key(w, "unstable_frequency");
		json_bool(w, pmu_frequency_moved(e->clock_ratio_low,
						 e->clock_ratio_high));
		json_end_object(w);
	} else {
		json_null(w);
	}
	if (e->status == EXP_OK) {
		json_kv_uint(w, "samples", e->metric[METRIC_ROUND_TRIP].count);
		json_kv_string(w, "unit", clock_kind_unit(r->clock_kind));
		json_kv_uint(w, "floor", floor);
		/* Flagged wherever the row is shown: the entry and the round
		 * trip are not one interrupt's parts here. */
		json_key(w, "entry_above_round_trip");
		json_bool(w, row_entry_above_round_trip(e));
		for (k = 0; k < METRIC_COUNT; k++) {
			json_key(w, metric_name(k));
			json_figures(w, &e->metric[k], floor);
		}
		json_key(w, "histograms");
		json_begin_object(w);
		for (k = 0; k < ROW_HIST_METRICS; k++) {
			json_key(w, metric_name(k));
			json_row_histogram(w, results_row_histogram(
						      r, (uint32_t)(e - r->exp), k),
					   floor);
		}
		json_end_object(w);
		counted_json(w, r, results_counted(r, (uint32_t)(e - r->exp)));
	}
	json_end_object(w);
}

int report_json(struct text_buf *tb, const struct run_result *r,
		const struct report_context *ctx)
{
	struct json_writer w;
	char text[32];
	uint32_t i;

	json_init(&w, tb);
	json_begin_object(&w);
	json_kv_string(&w, "schema", "irqlab-results");
	json_kv_uint(&w, "schema_version", RESULTS_SCHEMA_VERSION);
	run_folder_name(r->run_id, text, sizeof(text));
	json_kv_string(&w, "run_id", text);
	json_kv_string(&w, "build", r->build);
	/* The one count of rows, and what of the plan is missing, first. */
	row_counts_json(&w, r);

	machine_json(&w, r);
	method_json(&w, r);
	footprints_json(&w, ctx);
	yours_json(&w, r);

	json_key(&w, "experiments");
	json_begin_array(&w);
	for (i = 0; i < r->n_experiments; i++)
		json_experiment(&w, r, &r->exp[i]);
	json_end_array(&w);
	comparison_json(&w, r);
	mitigations_json(&w, r);
	primitives_json(&w, r, ctx);
	between_cpus_json(&w, r);
	other_processors_json(&w, r);
	gaps_json(&w, r);
	repeat_runs_json(&w, r, ctx);
	path_length_json(&w, r, ctx);
	seeds_json(&w, r);
	handoff_json(&w, r, ctx ? ctx->handoff : 0);
	json_end_object(&w);
	return (w.error || tb->overflow) ? -1 : 0;
}
