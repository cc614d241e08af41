/* results.json (schema "irqlab-results"): every figure and fact of a
 * run, the report page's data. One small function per section. */
#include "bench/report/report.h"
#include "bench/model/pmu.h"

#include "arch/lib/cpuid_bits.h"
#include "bench/model/cross_cpu.h"
#include "bench/model/histogram.h"
#include "bench/report/figures.h"
#include "bench/report/json.h"
#include "bench/report/path_length.h"
#include "bench/report/seeds.h"

/* A row's status, and its reason where it did not end ok. */
static void json_status(struct json_writer *w, unsigned status,
			const char *reason)
{
	json_kv_string(w, "status", exp_status_name(status));
	json_key(w, "reason");
	if (status == EXP_OK)
		json_null(w);
	else
		json_string(w, reason);
}

/* The statistics as an object, every field of stats_fields but the
 * count, net of `floor` (0 for raw figures). */
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

static void json_figures(struct json_writer *w, const struct sample_stats *s,
			 uint64_t floor)
{
	json_begin_object(w);
	json_stats_fields(w, s, floor);
	json_end_object(w);
}

static void json_raw_stats(struct json_writer *w, const struct sample_stats *s)
{
	json_begin_object(w);
	json_kv_uint(w, "samples", s->count);
	json_stats_fields(w, s, 0);
	json_end_object(w);
}

/* A row's histogram on one line, as [[from, to, count], ...] (`to`
 * inclusive), net of the instrument floor as every figure is; null where
 * the row kept none (struct row_histogram). One line, not a line a bin:
 * a run of wide histograms would otherwise take megabytes. */
static void json_row_histogram(struct json_writer *w,
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

/* A row's counted pass (docs/timing.md "Core cycles"): "cycles", its
 * entry, exit and both round trips in core cycles net of the cycle
 * floor, and "instructions", the bare round trip in instructions retired
 * net of that counter's floor; each null where the pass did not run. */
static void json_counted(struct json_writer *w, const struct run_result *r,
			 const struct counted_row *c)
{
	unsigned k;

	json_key(w, "cycles");
	if (c) {
		json_begin_object(w);
		json_kv_string(w, "state",
			       counted_state_name(results_counted_state(r)));
		json_kv_string(w, "unit", counted_cycles_unit(r));
		for (k = 0; k < METRIC_COUNT; k++) {
			json_key(w, metric_name(k));
			json_figures(w, &c->cycles[k], r->cycles_floor.min);
		}
		json_key(w, "histograms");
		json_begin_object(w);
		for (k = 0; k < ROW_HIST_METRICS; k++) {
			json_key(w, metric_name(k));
			json_row_histogram(w, results_row_histogram(
						      r, c->row, ROW_HIST_CYCLES + k),
					   r->cycles_floor.min);
		}
		json_end_object(w);
		json_end_object(w);
	} else {
		json_null(w);
	}
	json_key(w, "instructions");
	if (c) {
		json_begin_object(w);
		json_kv_string(w, "state",
			       counted_state_name(results_counted_state(r)));
		json_key(w, "round_trip");
		json_figures(w, &c->instructions, r->instructions_floor.min);
		json_end_object(w);
	} else {
		json_null(w);
	}
}

static void json_experiment(struct json_writer *w, const struct run_result *r,
			    const struct experiment_result *e)
{
	uint64_t floor = row_floor(r, e);
	char baseline[RESULTS_NAME_LEN], variant[RESULTS_NAME_LEN], core[8];
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
	if (source_between_cpus(e->id.source))
		json_kv_string(w, "between_cpus",
			       cross_figures_meaning(r->clock_kind));
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
		json_counted(w, r, results_counted(r, (uint32_t)(e - r->exp)));
	}
	json_end_object(w);
}

/* Each row's path length against the icount reference (path_length.h). */
static void json_path_length(struct json_writer *w, const struct run_result *r,
			     const struct report_context *ctx)
{
	static struct path_comparison c;
	uint32_t k;

	path_length_compare(r, ctx ? ctx->path_reference : 0,
			    ctx ? ctx->path_reference_problem : 0, &c);
	json_key(w, "path_length");
	json_begin_object(w);
	json_kv_string(w, "state", path_state_name(c.state));
	json_kv_string(w, "build", r->build);
	json_key(w, "reference_build");
	if (ctx && ctx->path_reference)
		json_string(w, ctx->path_reference->build);
	else
		json_null(w);
	json_key(w, "reason");
	if (c.state != PATH_COMPARED)
		json_string(w, c.why);
	else
		json_null(w);
	if (c.state == PATH_COMPARED) {
		json_kv_string(w, "counts_from", c.counts_from);
		json_kv_uint(w, "compared", c.compared);
		json_kv_uint(w, "equal", c.equal);
		json_kv_uint(w, "differing", c.n_differences);
		json_key(w, "differences");
		json_begin_array(w);
		for (k = 0; k < c.n_differences && k < PATH_MAX_DIFFERENCES; k++) {
			json_begin_object(w);
			json_kv_string(w, "row", r->exp[c.difference[k].row].name);
			json_kv_int(w, "here", c.difference[k].here);
			json_kv_int(w, "reference", c.difference[k].reference);
			json_end_object(w);
		}
		json_end_array(w);
	}
	json_end_object(w);
}

static void json_schemes(struct json_writer *w, const struct report_context *ctx)
{
	size_t i;

	json_key(w, "schemes");
	json_begin_array(w);
	for (i = 0; ctx && i < ctx->n_schemes; i++) {
		const struct scheme_entry *s = &ctx->schemes[i];

		json_begin_object(w);
		json_kv_string(w, "name", s->name);
		json_kv_string(w, "description", s->description);
		json_kv_string(w, "seed", s->seed);
		json_kv_uint(w, "stub_bytes", s->stub_bytes);
		json_kv_uint(w, "code_bytes", s->code_bytes);
		json_kv_uint(w, "code_cache_lines", cache_lines(s->code_bytes));
		json_kv_uint(w, "data_bytes", s->data_bytes);
		json_end_object(w);
	}
	json_end_array(w);
}

/* Row e's median of each metric over base's, in the clock's units and,
 * where the counted pass ran, in core cycles. */
static void json_overs(struct json_writer *w, const struct run_result *r,
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
		int64_t v = counted_median_over(r, e, base, k);

		fmt_snprintf(key, sizeof(key), "cycles_%s_median_over",
			     metric_name(k));
		json_key(w, key);
		if (v == INT64_MIN)
			json_null(w);
		else
			json_int(w, v);
	}
}

/* Each ok experiment's median overhead against its baseline row. */
static void json_comparison(struct json_writer *w, const struct run_result *r)
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

/* A mitigation row (or its cold twin) against its baseline: status,
 * reason, and the three medians over. */
static void json_mitigation_figures(struct json_writer *w,
				    const struct run_result *r,
				    const struct experiment_result *e)
{
	const struct experiment_result *base = comparable_baseline(r, e);
	char baseline[RESULTS_NAME_LEN];

	baseline_name(e, baseline, sizeof(baseline));
	json_kv_string(w, "experiment", e->name);
	json_kv_string(w, "baseline", baseline);
	json_status(w, e->status, e->reason);
	if (base)
		json_overs(w, r, e, base);
}

/* One side of docs/mitigations.md's IDT-against-FRED comparison. */
static void json_side(struct json_writer *w, const struct run_result *r,
		      const char *key, const struct experiment_result *e)
{
	json_key(w, key);
	if (!e) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	json_kv_string(w, "experiment", e->name);
	json_status(w, e->status, e->reason);
	json_key(w, "round_trip");
	if (e->status == EXP_OK)
		json_int(w, net_of_floor(e->metric[METRIC_ROUND_TRIP].median,
					 r->floor.min));
	else
		json_null(w);
	json_end_object(w);
}

/* "IDT with its mitigations" against "FRED with its own": one
 * comparison, on INT n's round trip. */
static void json_mitigations_fred(struct json_writer *w,
				  const struct run_result *r)
{
	const struct experiment_result *idt, *fred;
	int64_t less;
	int both = idt_against_fred(r, &idt, &fred, &less);

	json_key(w, "idt_against_fred");
	json_begin_object(w);
	json_kv_string(w, "label", "INT n's round trip through the IDT with "
		       "Linux's set here (direct, swapgs and its steps) against "
		       "FRED with what Linux's FRED entry adds here (VERW "
		       "where taken): one comparison");
	json_side(w, r, "idt_row", idt);
	json_side(w, r, "fred_row", fred);
	json_key(w, "fred_less_idt");
	if (both)
		json_int(w, less);
	else
		json_null(w);
	json_end_object(w);
}

/* docs/mitigations.md: each sequence's cost over its baseline, warm and
 * cold, whether this CPU needs it and why, and what Linux's defaults
 * would run here in all. */
static void json_mitigations(struct json_writer *w, const struct run_result *r)
{
	struct linux_choices choices;
	const char *why_not[LINUX_STEPS];
	int every_step = config_simulates(&r->config,
					  SIMULATE_LINUX_EVERY_STEP);
	char steps[96];
	uint32_t i;
	unsigned k;

	report_linux_choices(r, &choices);
	linux_steps_text(report_linux_steps(r, &choices, why_not), steps,
			 sizeof(steps));
	json_key(w, "mitigations");
	json_begin_object(w);
	json_kv_string(w, "rule", linux_rule_source);
	json_kv_string(w, "unit", clock_kind_unit(r->clock_kind));
	json_key(w, "arch_capabilities");
	if (r->machine.mitigation.arch_capabilities_read) {
		char hex[24];

		fmt_snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)
			     r->machine.mitigation.arch_capabilities);
		json_string(w, hex);
	} else {
		json_null(w);
	}
	json_key(w, "decisions");
	json_begin_array(w);
	for (k = 0; k < LINUX_CHOICE_COUNT; k++) {
		json_begin_object(w);
		json_kv_string(w, "name", linux_choice_name(k));
		json_key(w, "needed");
		json_bool(w, choices.choice[k].needed);
		json_key(w, "per_interrupt");
		json_bool(w, choices.choice[k].per_interrupt);
		json_kv_string(w, "why", choices.choice[k].why);
		json_end_object(w);
	}
	json_end_array(w);
	json_key(w, "rows");
	json_begin_array(w);
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *cold;
		int choice = linux_choice_of_variant(e->id.variant);

		if (choice < 0 || e->id.cache != VARIANT_ABSENT)
			continue;
		json_begin_object(w);
		json_kv_string(w, "variant", variant_name(e->id.variant));
		json_kv_string(w, "decision", linux_choice_name((unsigned)choice));
		json_key(w, "needed");
		json_bool(w, choices.choice[choice].needed);
		json_kv_string(w, "why", choices.choice[choice].why);
		json_mitigation_figures(w, r, e);
		json_key(w, "cold");
		if ((cold = cold_twin(r, e))) {
			json_begin_object(w);
			json_mitigation_figures(w, r, cold);
			json_end_object(w);
		} else {
			json_null(w);
		}
		json_end_object(w);
	}
	json_end_array(w);
	/* The linux variant's row: what the defaults would add in all. */
	json_key(w, "linux");
	for (i = 0; i < r->n_experiments; i++)
		if (r->exp[i].id.variant == VARIANT_LINUX &&
		    r->exp[i].id.cache == VARIANT_ABSENT)
			break;
	if (i == r->n_experiments) {
		json_null(w);
	} else {
		json_begin_object(w);
		json_kv_string(w, "steps", steps);
		json_kv_string(w, "label", every_step ?
			       "every step this CPU can run, patched on by "
			       "simulate = linux-every-step, over swapgs "
			       "alone; not the set the Linux version in "
			       "\"rule\" would take here" :
			       "what the defaults of the Linux "
			       "version in \"rule\" would add to an interrupt "
			       "from user mode on this CPU, over swapgs alone; "
			       "not what a given kernel does");
		json_key(w, "simulated");
		json_bool(w, every_step);
		/* The steps simulate = linux-every-step left off: the CPU
		 * lacks their CPUID bit. */
		json_key(w, "skipped_steps");
		json_begin_array(w);
		for (k = 0; k < LINUX_STEPS; k++) {
			if (!why_not[k])
				continue;
			json_begin_object(w);
			json_kv_string(w, "step", linux_step_name(k));
			json_kv_string(w, "reason", why_not[k]);
			json_end_object(w);
		}
		json_end_array(w);
		json_mitigation_figures(w, r, &r->exp[i]);
		json_end_object(w);
	}
	json_mitigations_fred(w, r);
	json_end_object(w);
}

static void json_primitives(struct json_writer *w, const struct run_result *r,
			    const struct report_context *ctx)
{
	uint64_t floor = r->floor.min;
	uint32_t i;

	json_key(w, "primitives");
	json_begin_object(w);
	json_kv_uint(w, "reps_per_block", PRIMITIVE_BLOCK_REPS);
	json_kv_string(w, "unit", clock_kind_unit(r->clock_kind));
	json_key(w, "rows");
	json_begin_array(w);
	for (i = 0; i < r->n_primitives; i++) {
		const struct primitive_result *p = &r->prim[i];
		const struct primitive_entry *info = primitive_info(ctx, p->name);

		json_begin_object(w);
		json_kv_string(w, "name", p->name);
		json_kv_string(w, "description", info->description);
		json_kv_string(w, "seed", info->seed);
		json_status(w, p->status, p->reason);
		if (p->status == EXP_OK) {
			json_kv_uint(w, "blocks", p->block.count);
			json_key(w, "block");
			json_figures(w, &p->block, floor);
			json_key(w, "median_per_rep");
			json_milli(w, net_of_floor(p->block.median, floor) * 1000 /
					      PRIMITIVE_BLOCK_REPS);
			/* The counted pass: core cycles per block, net of
			 * the cycle floor; null where it did not run. */
			json_key(w, "cycles");
			if (p->cycles_block.count) {
				json_begin_object(w);
				json_kv_string(w, "state", counted_state_name(
						results_counted_state(r)));
				json_key(w, "block");
				json_figures(w, &p->cycles_block,
					     r->cycles_floor.min);
				json_key(w, "median_per_rep");
				json_milli(w, net_of_floor(p->cycles_block.median,
							   r->cycles_floor.min) *
						      1000 / PRIMITIVE_BLOCK_REPS);
				json_end_object(w);
			} else {
				json_null(w);
			}
		}
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

/* The rows run again on other processors, each against the boot CPU's
 * row of the same id: the difference of their medians, each net of the
 * floor measured on its own processor (docs/cross-cpu.md "The matrix on
 * another processor"). */
static void json_other_cpus_matrix(struct json_writer *w,
				   const struct run_result *r)
{
	char core[8], key[40];
	uint32_t i;
	unsigned k;

	json_key(w, "matrix_on_other_cpus");
	json_begin_array(w);
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *boot = boot_twin(r, e);
		char name[RESULTS_NAME_LEN];

		if (!e->id.cpu)
			continue;
		boot_row_name(e, name, sizeof(name));
		json_begin_object(w);
		json_kv_string(w, "row", name);
		json_kv_uint(w, "cpu", e->id.cpu - 1u);
		json_kv_string(w, "core_type", core_type_name(row_core_type(r, e),
							      core, sizeof(core)));
		json_status(w, e->status, e->reason);
		if (boot) {
			json_kv_string(w, "boot_core_type",
				       core_type_name(row_core_type(r, boot), core,
						      sizeof(core)));
			json_kv_string(w, "unit",
				       clock_kind_unit(r->clock_kind));
			for (k = 0; k < METRIC_COUNT; k++) {
				fmt_snprintf(key, sizeof(key), "%s_over_boot",
					     metric_name(k));
				json_kv_int(w, key,
					    net_over_boot(r, e, boot, k));
			}
		}
		json_end_object(w);
	}
	json_end_array(w);
}

/* One median of the cross-CPU section, under `key`, with how many rows
 * it is the median of. */
static void json_cross_median(struct json_writer *w, const char *key,
			      uint64_t median, uint32_t rows)
{
	json_key(w, key);
	json_begin_object(w);
	json_kv_uint(w, "median", median);
	json_kv_uint(w, "rows", rows);
	json_end_object(w);
}

/* The cross-CPU section (docs/cross-cpu.md): each row by sender, target
 * and relation, then each kind's median over the pairs of a relation. */
static void json_cross_cpu(struct json_writer *w, const struct run_result *r)
{
	char core[8];
	uint32_t i, pairs;
	unsigned k, rel;

	json_key(w, "cross_cpu");
	json_begin_object(w);
	json_kv_string(w, "unit", clock_kind_unit(r->clock_kind));
	json_kv_string(w, "figures", cross_figures_meaning(r->clock_kind));
	json_key(w, "kinds");
	json_begin_object(w);
	for (k = 0; k < CROSS_KIND_COUNT; k++)
		json_kv_string(w, cross_kind_name(k), cross_kind_what(k));
	json_end_object(w);
	json_key(w, "rows");
	json_begin_array(w);
	for (i = 0; i < r->n_cross; i++) {
		const struct cross_result *c = &r->cross[i];

		json_begin_object(w);
		json_kv_string(w, "kind", cross_kind_name(c->kind));
		json_kv_uint(w, "sender", c->sender);
		if (c->target == CROSS_ALL_TARGETS)
			json_kv_string(w, "target", "all");
		else
			json_kv_uint(w, "target", c->target);
		json_kv_uint(w, "targets", c->targets);
		json_kv_string(w, "relation", cpu_relation_name(c->relation));
		/* Hybrid CPUs: each end's core type (CPUID 1AH). */
		json_kv_string(w, "sender_core",
			       core_type_name(c->sender_core, core,
					      sizeof(core)));
		if (c->target != CROSS_ALL_TARGETS)
			json_kv_string(w, "target_core",
				       core_type_name(c->target_core, core,
						      sizeof(core)));
		json_kv_string(w, "apic_mode", apic_mode_name(c->apic_mode));
		json_status(w, c->status, c->reason);
		if (c->kind == CROSS_ONE_WAY && c->skew_low <= c->skew_high) {
			json_key(w, "tsc_offset");
			json_begin_object(w);
			json_kv_int(w, "low", c->skew_low);
			json_kv_int(w, "high", c->skew_high);
			json_kv_uint(w, "plus_minus",
				     (uint64_t)(c->skew_high - c->skew_low) / 2);
			json_end_object(w);
		}
		if (c->status == EXP_OK) {
			json_kv_uint(w, "samples", c->time.count);
			json_key(w, "time");
			json_figures(w, &c->time, 0);
		}
		/* The first ok pair of each relation keeps its buckets:
		 * [low, high, count], raw. */
		for (k = 0; k < r->n_cross_hists; k++)
			if (r->cross_hist[k].row == i) {
				json_key(w, "distribution");
				json_row_histogram(w, &r->cross_hist[k], 0);
			}
		json_end_object(w);
	}
	json_end_array(w);
	json_key(w, "by_relation");
	json_begin_object(w);
	for (k = 0; k < CROSS_KIND_COUNT; k++) {
		json_key(w, cross_kind_name(k));
		json_begin_object(w);
		for (rel = 0; rel < CPU_RELATION_COUNT; rel++) {
			uint64_t m = cross_relation_median(r, k, rel, &pairs);

			if (pairs)
				json_cross_median(w, cpu_relation_name(rel), m,
						  pairs);
		}
		json_end_object(w);
	}
	json_end_object(w);
	/* Hybrid CPUs: ipi-ack's median from each core type to each. */
	json_key(w, "by_core_type");
	json_begin_object(w);
	for (k = 0; cross_hybrid(r) && k < 4; k++) {
		static const uint8_t types[] = { CORE_TYPE_CORE,
						 CORE_TYPE_ATOM };
		char a[8], b[8], key[24];
		uint64_t m = cross_core_median(r, CROSS_ACK, types[k / 2],
					       types[k % 2], &pairs);

		if (!pairs)
			continue;
		fmt_snprintf(key, sizeof(key), "%s->%s",
			     core_type_name(types[k / 2], a, sizeof(a)),
			     core_type_name(types[k % 2], b, sizeof(b)));
		json_cross_median(w, key, m, pairs);
	}
	json_end_object(w);
	json_end_object(w);
}

static void json_runs(struct json_writer *w, const struct run_result *r,
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

static void json_gaps(struct json_writer *w, const struct run_result *r)
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

/* The boot CPU's topology and where the MADT's other processors sit
 * from it (bench/model/topology.h); null where no leaf said. */
static void json_machine_topology(struct json_writer *w,
				  const struct machine_info *m)
{
	unsigned k;

	json_key(w, "topology");
	if (!m->topology.known) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	json_kv_uint(w, "smt_shift", m->topology.smt_shift);
	json_kv_uint(w, "llc_shift", m->topology.llc_shift);
	json_kv_uint(w, "package_shift", m->topology.package_shift);
	json_key(w, "other_cpus");
	json_begin_object(w);
	for (k = CPU_RELATION_SMT_SIBLING; k < CPU_RELATION_COUNT; k++)
		json_kv_uint(w, cpu_relation_name(k), m->relation_count[k]);
	json_end_object(w);
	json_end_object(w);
}

static void json_machine(struct json_writer *w, const struct run_result *r)
{
	const struct machine_info *m = &r->machine;
	char text[16];

	json_key(w, "machine");
	json_begin_object(w);
	json_kv_string(w, "cpu_vendor", m->cpu_vendor);
	json_kv_string(w, "brand", m->brand);
	json_kv_uint(w, "family", m->family);
	json_kv_uint(w, "model", m->model);
	json_kv_uint(w, "stepping", m->stepping);
	json_key(w, "microcode");
	if (m->microcode) {
		fmt_snprintf(text, sizeof(text), "0x%x", m->microcode);
		json_string(w, text);
	} else {
		json_null(w);
	}
	json_key(w, "invariant_tsc");
	json_bool(w, m->invariant_tsc);
	json_kv_string(w, "boost", boost_state_name(m->boost));
	json_kv_string(w, "hwp", hwp_state_name(m->hwp));
	json_kv_string(w, "core_type", core_type_name(m->core_type, text,
						      sizeof(text)));
	json_kv_string(w, "hypervisor", m->hypervisor);
	json_kv_string(w, "acpi_oem_id", m->acpi_oem_id);
	json_kv_uint(w, "llc_bytes", m->llc_bytes);
	json_machine_topology(w, m);
	json_key(w, "smbios_system");
	json_begin_object(w);
	json_kv_string(w, "vendor", m->system_vendor);
	json_kv_string(w, "product", m->system_product);
	json_kv_string(w, "version", m->system_version);
	json_end_object(w);
	json_key(w, "acpi_madt");
	if (m->madt_found) {
		json_begin_object(w);
		json_kv_uint(w, "lapic_address", m->lapic_address);
		json_kv_uint(w, "lapic_count", m->lapic_count);
		json_kv_uint(w, "ioapic_count", m->ioapic_count);
		json_end_object(w);
	} else {
		json_null(w);
	}
	json_end_object(w);
}

static void json_boot_return(struct json_writer *w, const struct run_result *r)
{
	char text[16];

	json_key(w, "boot_return");
	json_begin_object(w);
	json_kv_string(w, "how", boot_return_name(r->boot_return));
	fmt_snprintf(text, sizeof(text), "Boot%04X", r->boot_current);
	json_kv_string(w, "boot_current",
		       r->boot_return == BOOT_RETURN_NO_BOOT_CURRENT ? "" : text);
	json_end_object(w);
}

static void json_display(struct json_writer *w, const struct run_result *r)
{
	json_key(w, "display");
	json_begin_object(w);
	json_key(w, "progress_on_screen");
	json_bool(w, r->progress_on_screen);
	json_kv_string(w, "why_not", r->display_note);
	json_end_object(w);
}

/* What the probes found, each by name: its state and what it saw. */
static void json_probes(struct json_writer *w, const struct run_result *r)
{
	unsigned i;

	json_key(w, "platform");
	json_begin_object(w);
	for (i = 0; i < PROBE_COUNT; i++) {
		json_key(w, platform_probe_name(i));
		json_begin_object(w);
		json_kv_string(w, "state", probe_state_name(r->probe[i].state));
		json_kv_string(w, "detail", r->probe[i].detail);
		json_end_object(w);
	}
	json_end_object(w);
}

static void json_firmware(struct json_writer *w, const struct run_result *r)
{
	const struct machine_info *m = &r->machine;
	char text[32];

	json_key(w, "firmware");
	json_begin_object(w);
	json_kv_string(w, "vendor", m->fw_vendor);
	json_kv_uint(w, "revision", m->fw_revision);
	uefi_revision_text(m->uefi_revision, text, sizeof(text));
	json_kv_string(w, "uefi_revision", text);
	json_end_object(w);
}

/* Each other processor that ran rows or sent IPIs: its pin, LFENCE and
 * APERF/MPERF ratio (docs/timing.md "Pinning the frequency"). */
static void json_other_cpu_clocks(struct json_writer *w,
				  const struct run_result *r)
{
	char reason[RESULTS_REASON_LEN + 64];
	uint32_t i;

	json_key(w, "other_cpus");
	json_begin_array(w);
	for (i = 0; i < r->n_cpu_clocks; i++) {
		const struct cpu_clock *c = &r->cpu_clock[i];

		cpu_clock_reason(r, c, reason, sizeof(reason));
		json_begin_object(w);
		json_kv_uint(w, "cpu", c->cpu - 1u);
		json_key(w, "pinned");
		json_bool(w, c->pin == CPU_PIN_PINNED);
		json_kv_string(w, "pin", cpu_pin_state_name(c->pin));
		json_kv_string(w, "pin_reason", reason);
		json_kv_string(w, "lfence", cpu_fence_state_name(c->fence));
		json_key(w, "aperf_mperf_milli");
		if (c->ratio_milli)
			json_uint(w, c->ratio_milli);
		else
			json_null(w);
		json_kv_string(w, "aperf_mperf", cpu_clock_ratio_note(r, c));
		json_kv_uint(w, "starts", c->starts);
		json_key(w, "restored");
		json_bool(w, c->restored);
		json_end_object(w);
	}
	json_end_array(w);
}

static void json_clock(struct json_writer *w, const struct run_result *r)
{
	json_key(w, "clock");
	json_begin_object(w);
	json_kv_string(w, "kind", clock_kind_name(r->clock_kind));
	json_kv_string(w, "unit", clock_kind_unit(r->clock_kind));
	/* TSC ticks are not core cycles once the core clock moves against
	 * the TSC (docs/timing.md "TSC ticks are not cycles"): the figures
	 * under this unit never are. Core cycles are each row's "cycles",
	 * from the counted pass; lead_unit is what the answer, the headline
	 * and the seed verdicts use. Nanoseconds follow from TSC ticks. */
	json_key(w, "figures_are_cycles");
	json_bool(w, 0);
	json_kv_string(w, "lead_unit", lead_unit(r));
	json_key(w, "cycles");
	json_begin_object(w);
	json_kv_string(w, "state", counted_state_name(results_counted_state(r)));
	json_kv_string(w, "unit", counted_cycles_unit(r));
	json_kv_string(w, "counters", r->probe[PROBE_COUNTERS].detail);
	json_end_object(w);
	json_key(w, "figures_are_tsc_ticks");
	json_bool(w, r->clock_kind == CLOCK_TSC_TICKS);
	json_kv_uint(w, "tsc_hz", r->tsc_hz);
	json_kv_string(w, "tsc_hz_method", tsc_method_name(r->tsc_method));
	json_key(w, "tsc_hz_check");
	if (r->tsc_hz_check)
		json_uint(w, r->tsc_hz_check);
	else
		json_null(w);
	json_kv_string(w, "tsc_hz_check_method",
		       r->tsc_hz_check ? tsc_method_name(r->tsc_check_method) : "none");
	json_key(w, "tsc_hz_disagreement_ppm");
	if (r->tsc_hz_check)
		json_int(w, tsc_disagreement_ppm(r));
	else
		json_null(w);
	json_other_cpu_clocks(w, r);
	json_end_object(w);
}

static void json_method(struct json_writer *w, const struct run_result *r)
{
	json_key(w, "method");
	json_begin_object(w);
	json_kv_string(w, "fences", report_fence_method);
	json_kv_string(w, "fence_serialisation", r->fence_note);
	json_kv_string(w, "figures",
		       "net of the instrument floor: floor.min is subtracted");
	json_key(w, "smi_count_watched");
	json_bool(w, r->smi_count_watched);
	json_kv_string(w, "noise", "samples are taken in batches; a batch "
				    "during which the SMI or NMI count moved is "
				    "discarded, counted, and taken again");
	json_key(w, "floor");
	json_raw_stats(w, &r->floor);
	json_kv_string(w, "round_trip",
		       "through handlers that take no timestamps; "
		       "round_trip_timed goes through the timed ones, and "
		       "exceeds it by instrument_in_handler");
	json_key(w, "instrument_in_handler");
	json_figures(w, &r->instrument, r->floor.min);
	/* The counted pass's floors, raw: its figures are net of their
	 * minimum as the TSC's are of floor's (docs/timing.md "Core
	 * cycles"); null where it did not run. */
	json_key(w, "cycles_floor");
	if (r->cycles_floor.count) {
		json_raw_stats(w, &r->cycles_floor);
		json_key(w, "cycles_instrument_in_handler");
		json_figures(w, &r->cycles_instrument, r->cycles_floor.min);
		json_key(w, "instructions_floor");
		json_raw_stats(w, &r->instructions_floor);
	} else {
		json_null(w);
		json_key(w, "cycles_instrument_in_handler");
		json_null(w);
		json_key(w, "instructions_floor");
		json_null(w);
	}
	json_end_object(w);
}

static void json_config(struct json_writer *w, const struct run_result *r)
{
	uint32_t i;

	json_key(w, "config");
	json_begin_object(w);
	for (i = 0; i < config_key_count; i++) {
		const struct config_key *k = &config_keys[i];
		char number[CONFIG_VALUE_MAX];

		if (k->choices)
			json_kv_string(w, k->name,
				       config_value_name(k, config_get(&r->config, k),
							 number, sizeof(number)));
		else
			json_kv_uint(w, k->name, config_get(&r->config, k));
	}
	json_end_object(w);
	json_key(w, "config_warnings");
	if (r->config_warnings[0])
		json_string(w, r->config_warnings);
	else
		json_null(w);
}

static void json_handoff(struct json_writer *w, const struct run_result *r, const struct handoff_report *h)
{
	uint32_t i;

	json_key(w, "handoff");
	json_begin_object(w);
	json_kv_uint(w, "records_used", h ? h->records_used : 0);
	/* Resets the run took to hand everything over (r->part), and the
	 * plan row it stopped at where its parts could not all be kept. */
	json_kv_uint(w, "parts", r->part ? r->part : 1);
	json_key(w, "unmeasured_from_row");
	if (r->next_row)
		json_uint(w, r->next_row);
	else
		json_null(w);
	json_kv_uint(w, "row_histograms", r->n_hists);
	json_key(w, "discarded");
	json_begin_array(w);
	for (i = 0; h && i < h->n_discarded; i++) {
		json_begin_object(w);
		json_kv_string(w, "variable", h->discarded[i].name);
		json_kv_string(w, "fate",
			       record_fate_name(h->discarded[i].fate));
		json_kv_string(w, "why", h->discarded[i].why);
		json_end_object(w);
	}
	json_end_array(w);
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

	json_machine(&w, r);
	json_boot_return(&w, r);
	json_display(&w, r);
	json_probes(&w, r);
	json_firmware(&w, r);
	json_clock(&w, r);
	json_method(&w, r);
	json_config(&w, r);
	json_schemes(&w, ctx);

	json_key(&w, "experiments");
	json_begin_array(&w);
	for (i = 0; i < r->n_experiments; i++)
		json_experiment(&w, r, &r->exp[i]);
	json_end_array(&w);
	json_comparison(&w, r);
	json_mitigations(&w, r);
	json_primitives(&w, r, ctx);
	json_cross_cpu(&w, r);
	json_other_cpus_matrix(&w, r);
	json_gaps(&w, r);
	json_runs(&w, r, ctx);
	json_path_length(&w, r, ctx);
	seeds_json(&w, r);
	json_handoff(&w, r, ctx ? ctx->handoff : 0);
	json_end_object(&w);
	return (w.error || tb->overflow) ? -1 : 0;
}
