#include "bench/report/report.h"

#include "bench/model/catalog.h"
#include "bench/model/histogram.h"
#include "bench/report/json.h"
#include "bench/report/seeds.h"

/* The fences every timestamp uses (Intel 324264; docs/timing.md), on
 * every CPU: a region opens with lfence;rdtsc and closes with
 * lfence;rdtsc;lfence. */
static const char fence_method[] =
	"open: lfence; rdtsc   close: lfence; rdtsc; lfence";

const char *record_fate_name(unsigned fate)
{
	switch (fate) {
	case FATE_USED:
		return "used";
	case FATE_CORRUPT:
		return "corrupt";
	case FATE_STALE:
		return "stale";
	}
	return "unknown";
}

static int64_t net_mean_milli(uint64_t mean_milli, uint64_t floor)
{
	return (int64_t)(mean_milli - floor * 1000u);
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

static void json_experiment(struct json_writer *w, const struct run_result *r,
			    const struct experiment_result *e)
{
	uint64_t floor = r->floor.min;
	unsigned k;

	json_begin_object(w);
	json_kv_string(w, "name", e->name);
	json_kv_string(w, "scheme", e->scheme);
	json_kv_string(w, "source", e->source);
	json_kv_string(w, "variant", e->variant);
	json_kv_string(w, "baseline", e->baseline);
	json_kv_uint(w, "vector", e->vector);
	json_kv_string(w, "apic_mode", apic_mode_name(e->apic_mode));
	json_kv_string(w, "cpu_mode", catalog_cpu_mode(e->scheme));
	json_kv_string(w, "status", exp_status_name(e->status));
	json_key(w, "reason");
	if (e->status == EXP_OK)
		json_null(w);
	else
		json_string(w, e->reason);
	json_kv_uint(w, "delivered", e->delivered);
	json_kv_uint(w, "extra_interrupts", e->extra);
	json_kv_uint(w, "vectors_verified", e->vectors_verified);
	json_kv_uint(w, "register_checks", e->register_checks);
	json_kv_uint(w, "discarded", e->discarded);
	json_kv_uint(w, "discarded_batches", e->discarded_batches);
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
	}
	json_end_object(w);
}

static void uefi_revision_text(uint32_t rev, char *out, size_t cap)
{
	/* EFI_SYSTEM_TABLE.Hdr.Revision: major in the high 16 bits, minor
	 * in the low 16 as tens and units (2.70 is 70, 2.31 is 31). */
	unsigned minor = rev & 0xffff;

	if (minor % 10)
		fmt_snprintf(out, cap, "%u.%u.%u", rev >> 16, minor / 10,
			     minor % 10);
	else
		fmt_snprintf(out, cap, "%u.%u", rev >> 16, minor / 10);
}

/* The ok baseline of an ok row, or NULL when there is nothing to compare. */
static const struct experiment_result *comparable(const struct run_result *r,
						  const struct experiment_result *e)
{
	const struct experiment_result *base;

	if (e->status != EXP_OK || !e->baseline[0] || str_eq(e->baseline, e->name))
		return 0;
	base = results_find(r, e->baseline);
	return base && base->status == EXP_OK ? base : 0;
}

static int64_t median_over(const struct experiment_result *e,
			   const struct experiment_result *base, unsigned k)
{
	return (int64_t)(e->metric[k].median - base->metric[k].median);
}

static uint32_t cache_lines(uint32_t bytes)
{
	return (bytes + 63) / 64;
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

/* Each ok experiment's median overhead against its baseline row. */
static void json_comparison(struct json_writer *w, const struct run_result *r)
{
	uint32_t i;
	unsigned k;

	json_key(w, "against_baseline");
	json_begin_array(w);
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *base = comparable(r, e);

		if (!base)
			continue;
		json_begin_object(w);
		json_kv_string(w, "experiment", e->name);
		json_kv_string(w, "baseline", base->name);
		for (k = 0; k < METRIC_COUNT; k++) {
			char key[32];

			fmt_snprintf(key, sizeof(key), "%s_median_over",
				     metric_name(k));
			json_kv_int(w, key, median_over(e, base, k));
		}
		json_end_object(w);
	}
	json_end_array(w);
}

static const struct primitive_entry *primitive_info(
	const struct report_context *ctx, const char *name)
{
	static const struct primitive_entry unknown = { "", "", "" };
	size_t i;

	for (i = 0; ctx && i < ctx->n_primitives; i++)
		if (str_eq(ctx->primitives[i].name, name))
			return &ctx->primitives[i];
	return &unknown;
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
		json_kv_string(w, "status", exp_status_name(p->status));
		json_key(w, "reason");
		if (p->status == EXP_OK)
			json_null(w);
		else
			json_string(w, p->reason);
		if (p->status == EXP_OK) {
			json_kv_uint(w, "blocks", p->block.count);
			json_key(w, "block");
			json_figures(w, &p->block, floor);
			json_key(w, "median_per_rep");
			json_milli(w, net_of_floor(p->block.median, floor) * 1000 /
					      PRIMITIVE_BLOCK_REPS);
		}
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

/* The round-trip median of `name` in run `k`, net of that run's floor, or
 * INT64_MIN when it did not run ok there. */
static int64_t run_median(const struct report_context *ctx, size_t k,
			  const char *name)
{
	const struct experiment_result *e = results_find(ctx->runs[k], name);

	if (!e || e->status != EXP_OK)
		return INT64_MIN;
	return net_of_floor(e->metric[METRIC_ROUND_TRIP].median,
			    ctx->runs[k]->floor.min);
}

/* Spread of the per-run medians, and whether it exceeds the tolerance
 * (percent of the smallest median). Returns 0 when some run lacks it. */
static int run_spread(const struct report_context *ctx, const char *name,
		      uint32_t pct, int64_t *spread, int *unstable)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t k;

	for (k = 0; k < ctx->n_runs; k++) {
		int64_t m = run_median(ctx, k, name);

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

		if (!run_spread(ctx, r->exp[i].name, r->config.unstable_pct,
				&spread, &unstable))
			continue;
		json_begin_object(w);
		json_kv_string(w, "experiment", r->exp[i].name);
		json_key(w, "round_trip_medians");
		json_begin_array(w);
		for (k = 0; k < ctx->n_runs; k++)
			json_int(w, run_median(ctx, k, r->exp[i].name));
		json_end_array(w);
		json_kv_int(w, "spread", spread);
		json_key(w, "unstable");
		json_bool(w, unstable);
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

static void summary_runs(struct text_buf *tb, const struct run_result *r,
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

		if (!run_spread(ctx, r->exp[i].name, r->config.unstable_pct,
				&spread, &unstable))
			continue;
		tb_printf(tb, "%-39s", r->exp[i].name);
		for (k = 0; k < ctx->n_runs; k++)
			tb_printf(tb, " %7lld",
				  (long long)run_median(ctx, k, r->exp[i].name));
		tb_printf(tb, "  spread %lld%s\n", (long long)spread,
			  unstable ? "  UNSTABLE" : "");
		unstable_rows += (uint32_t)unstable;
	}
	tb_printf(tb, "%u row(s) unstable across runs\n", unstable_rows);
}

/* Gap figures net of one undisturbed loop iteration. */
static int64_t net_of_loop(uint64_t gap, const struct gap_result *g)
{
	return (int64_t)(gap - g->loop_median);
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
		json_kv_string(w, "scheme", g->scheme);
		json_kv_string(w, "status", exp_status_name(g->status));
		json_key(w, "reason");
		if (g->status == EXP_OK)
			json_null(w);
		else
			json_string(w, g->reason);
		if (g->status == EXP_OK) {
			json_kv_uint(w, "gaps", g->gaps.count);
			json_kv_uint(w, "loop_iteration", g->loop_median);
			json_kv_uint(w, "threshold", g->threshold);
			json_key(w, "cost");
			json_figures(w, &g->gaps, g->loop_median);
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

static void summary_gaps(struct text_buf *tb, const struct run_result *r)
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
			tb_printf(tb, "%-13s %s: %s\n", g->scheme,
				  exp_status_name(g->status), g->reason);
			continue;
		}
		tb_printf(tb, "%-13s %7u %9lld %9lld %9lld %9lld %9lld\n",
			  g->scheme, g->gaps.count,
			  (long long)net_of_loop(g->gaps.min, g),
			  (long long)net_of_loop(g->gaps.median, g),
			  (long long)net_of_loop(g->gaps.p99, g),
			  (long long)net_of_loop(g->gaps.p999, g),
			  (long long)net_of_loop(g->gaps.max, g));
	}
}

static void summary_milli(char *out, size_t cap, int64_t milli, int decimals);

static int summary_width(const struct stats_field *f)
{
	return f->kind == STATS_FIELD_MEAN ? 11 : 9;
}

/* One column per field of stats_fields but the count, net of `floor`. */
static void summary_stats_fields(struct text_buf *tb,
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

/* (check - primary) / primary, in parts per million. */
static int64_t tsc_disagreement_ppm(const struct run_result *r)
{
	if (!r->tsc_hz)
		return 0;
	return ((int64_t)r->tsc_hz_check - (int64_t)r->tsc_hz) * 1000000 /
	       (int64_t)r->tsc_hz;
}

int report_json(struct text_buf *tb, const struct run_result *r,
		const struct report_context *ctx)
{
	const struct handoff_report *h = ctx ? ctx->handoff : 0;
	const struct machine_info *m = &r->machine;
	struct json_writer w;
	char text[32];
	uint32_t i;

	json_init(&w, tb);
	json_begin_object(&w);
	json_kv_string(&w, "schema", "irqlab-results");
	json_kv_uint(&w, "schema_version", RESULTS_SCHEMA_VERSION);
	run_folder_name(r->run_id, text, sizeof(text));
	json_kv_string(&w, "run_id", text);

	json_key(&w, "machine");
	json_begin_object(&w);
	json_kv_string(&w, "cpu_vendor", m->cpu_vendor);
	json_kv_string(&w, "brand", m->brand);
	json_kv_uint(&w, "family", m->family);
	json_kv_uint(&w, "model", m->model);
	json_kv_uint(&w, "stepping", m->stepping);
	json_kv_string(&w, "hypervisor", m->hypervisor);
	json_kv_string(&w, "acpi_oem_id", m->acpi_oem_id);
	json_kv_uint(&w, "llc_bytes", m->llc_bytes);
	json_key(&w, "smbios_system");
	json_begin_object(&w);
	json_kv_string(&w, "vendor", m->system_vendor);
	json_kv_string(&w, "product", m->system_product);
	json_kv_string(&w, "version", m->system_version);
	json_end_object(&w);
	json_key(&w, "acpi_madt");
	if (m->madt_found) {
		json_begin_object(&w);
		json_kv_uint(&w, "lapic_address", m->lapic_address);
		json_kv_uint(&w, "lapic_count", m->lapic_count);
		json_kv_uint(&w, "ioapic_count", m->ioapic_count);
		json_end_object(&w);
	} else {
		json_null(&w);
	}
	json_end_object(&w);

	json_key(&w, "boot_return");
	json_begin_object(&w);
	json_kv_string(&w, "how", boot_return_name(r->boot_return));
	fmt_snprintf(text, sizeof(text), "Boot%04X", r->boot_current);
	json_kv_string(&w, "boot_current",
		       r->boot_return == BOOT_RETURN_NO_BOOT_CURRENT ? "" : text);
	json_end_object(&w);

	json_key(&w, "display");
	json_begin_object(&w);
	json_key(&w, "progress_on_screen");
	json_bool(&w, r->progress_on_screen);
	json_kv_string(&w, "why_not", r->display_note);
	json_end_object(&w);

	json_key(&w, "firmware");
	json_begin_object(&w);
	json_kv_string(&w, "vendor", m->fw_vendor);
	json_kv_uint(&w, "revision", m->fw_revision);
	uefi_revision_text(m->uefi_revision, text, sizeof(text));
	json_kv_string(&w, "uefi_revision", text);
	json_end_object(&w);

	json_key(&w, "clock");
	json_begin_object(&w);
	json_kv_string(&w, "kind", clock_kind_name(r->clock_kind));
	json_kv_string(&w, "unit", clock_kind_unit(r->clock_kind));
	json_key(&w, "figures_are_cycles");
	json_bool(&w, r->clock_kind == CLOCK_TSC_TICKS);
	json_kv_uint(&w, "tsc_hz", r->tsc_hz);
	json_kv_string(&w, "tsc_hz_method", tsc_method_name(r->tsc_method));
	json_key(&w, "tsc_hz_check");
	if (r->tsc_hz_check)
		json_uint(&w, r->tsc_hz_check);
	else
		json_null(&w);
	json_kv_string(&w, "tsc_hz_check_method",
		       r->tsc_hz_check ? tsc_method_name(r->tsc_check_method) : "none");
	json_key(&w, "tsc_hz_disagreement_ppm");
	if (r->tsc_hz_check)
		json_int(&w, tsc_disagreement_ppm(r));
	else
		json_null(&w);
	json_end_object(&w);

	json_key(&w, "method");
	json_begin_object(&w);
	json_kv_string(&w, "fences", fence_method);
	json_kv_string(&w, "fence_serialisation", r->fence_note);
	json_kv_string(&w, "figures",
		       "net of the instrument floor: floor.min is subtracted");
	json_key(&w, "smi_count_watched");
	json_bool(&w, r->smi_count_watched);
	json_kv_string(&w, "noise", "samples are taken in batches; a batch "
				    "during which the SMI or NMI count moved is "
				    "discarded, counted, and taken again");
	json_key(&w, "floor");
	json_raw_stats(&w, &r->floor);
	json_kv_string(&w, "round_trip",
		       "through handlers that take no timestamps; "
		       "round_trip_timed goes through the timed ones, and "
		       "exceeds it by instrument_in_handler");
	json_key(&w, "instrument_in_handler");
	json_figures(&w, &r->instrument, r->floor.min);
	json_end_object(&w);

	json_key(&w, "config");
	json_begin_object(&w);
	for (i = 0; i < config_key_count; i++) {
		const struct config_key *k = &config_keys[i];
		char number[CONFIG_VALUE_MAX];

		if (k->choices)
			json_kv_string(&w, k->name,
				       config_value_name(k, config_get(&r->config, k),
							 number, sizeof(number)));
		else
			json_kv_uint(&w, k->name, config_get(&r->config, k));
	}
	json_end_object(&w);
	json_key(&w, "config_warnings");
	if (r->config_warnings[0])
		json_string(&w, r->config_warnings);
	else
		json_null(&w);

	json_schemes(&w, ctx);

	json_key(&w, "experiments");
	json_begin_array(&w);
	for (i = 0; i < r->n_experiments; i++)
		json_experiment(&w, r, &r->exp[i]);
	json_end_array(&w);
	json_comparison(&w, r);
	json_primitives(&w, r, ctx);
	json_gaps(&w, r);
	json_runs(&w, r, ctx);
	seeds_json(&w, r);

	json_key(&w, "handoff");
	json_begin_object(&w);
	json_kv_uint(&w, "records_used", h ? h->records_used : 0);
	/* Resets the run took to hand everything over (r->part), and the
	 * plan row it stopped at where its parts could not all be kept. */
	json_kv_uint(&w, "parts", r->part ? r->part : 1);
	json_key(&w, "unmeasured_from_row");
	if (r->next_row)
		json_uint(&w, r->next_row);
	else
		json_null(&w);
	json_kv_uint(&w, "row_histograms", r->n_hists);
	json_key(&w, "discarded");
	json_begin_array(&w);
	for (i = 0; h && i < h->n_discarded; i++) {
		json_begin_object(&w);
		json_kv_string(&w, "variable", h->discarded[i].name);
		json_kv_string(&w, "fate",
			       record_fate_name(h->discarded[i].fate));
		json_kv_string(&w, "why", h->discarded[i].why);
		json_end_object(&w);
	}
	json_end_array(&w);
	json_end_object(&w);

	json_end_object(&w);
	return (w.error || tb->overflow) ? -1 : 0;
}

/* A milli-unit value as a decimal with 1 to 3 fraction digits. */
static void summary_milli(char *out, size_t cap, int64_t milli, int decimals)
{
	static const unsigned divisor[4] = { 1000, 100, 10, 1 };
	uint64_t mag = milli < 0 ? (uint64_t)0 - (uint64_t)milli : (uint64_t)milli;

	fmt_snprintf(out, cap, "%s%llu.%0*llu", milli < 0 ? "-" : "",
		     (unsigned long long)(mag / 1000), decimals,
		     (unsigned long long)(mag % 1000 / divisor[decimals]));
}

static int str_has(const char *s, char c)
{
	for (; *s; s++)
		if (*s == c)
			return 1;
	return 0;
}

/* Where the data slot starts in the template, or -1. */
static long data_slot(const char *t, size_t len)
{
	size_t slot = sizeof(REPORT_DATA_SLOT) - 1, i, k;

	for (i = 0; i + slot <= len; i++) {
		for (k = 0; k < slot && t[i + k] == REPORT_DATA_SLOT[k]; k++)
			;
		if (k == slot)
			return (long)i;
	}
	return -1;
}

static void put_bytes(struct text_buf *tb, const char *p, size_t n)
{
	while (n--)
		tb_putc(tb, *p++);
}

int report_html(struct text_buf *tb, const struct run_result *r,
		const struct report_context *ctx)
{
	const char *t = ctx->html_template;
	size_t len = ctx->html_template_len;
	long at = t ? data_slot(t, len) : -1;
	size_t after;

	if (at < 0)
		return REPORT_NOT_WRITTEN;
	after = (size_t)at + sizeof(REPORT_DATA_SLOT) - 1;
	put_bytes(tb, t, (size_t)at);
	/* The JSON writer escapes '<' in strings (json_escape), so nothing
	 * in it can end the <script> element it lands in. */
	if (report_json(tb, r, ctx))
		return -1;
	put_bytes(tb, t + after, len - after);
	return tb->overflow ? -1 : 0;
}

const struct report_output report_outputs[] = {
	{ "results.json", report_json },
	{ "summary.txt", report_summary },
	{ "report.html", report_html },
};
const size_t report_output_count =
	sizeof(report_outputs) / sizeof(report_outputs[0]);

void report_context_build(struct report_context *ctx,
			  struct report_catalog *store,
			  const struct run_result *r,
			  const struct handoff_report *h)
{
	size_t i, n = 0, np = 0;

	for (i = 0; r && i < r->n_schemes && n < RESULTS_MAX_SCHEMES; i++) {
		const struct scheme_footprint *f = &r->scheme[i];
		const struct catalog_entry *c =
			catalog_find(catalog_schemes, catalog_scheme_count,
				     f->name);

		store->schemes[n++] = (struct scheme_entry){
			.name = f->name,
			.description = c ? c->description : "",
			.seed = c ? c->seed : "-",
			.stub_bytes = f->stub_bytes,
			.code_bytes = f->code_bytes,
			.data_bytes = f->data_bytes,
		};
	}
	for (i = 0; i < catalog_primitive_count && np < RESULTS_MAX_PRIMITIVES;
	     i++, np++)
		store->primitives[np] = (struct primitive_entry){
			catalog_primitives[i].name,
			catalog_primitives[i].description,
			catalog_primitives[i].seed };
	*ctx = (struct report_context){ .handoff = h, .schemes = store->schemes,
					.n_schemes = n,
					.primitives = store->primitives,
					.n_primitives = np };
}

void handoff_report_fill(struct handoff_report *h,
			 const struct handoff_item *items,
			 const char *const *names, size_t n)
{
	size_t i;

	*h = (struct handoff_report){ 0 };
	for (i = 0; i < n; i++) {
		if (items[i].fate == FATE_USED) {
			h->records_used++;
			continue;
		}
		if (h->n_discarded < REPORT_MAX_DISCARDS) {
			typeof(h->discarded[0]) *d = &h->discarded[h->n_discarded++];

			fmt_snprintf(d->name, sizeof(d->name), "%s", names[i]);
			d->fate = items[i].fate;
			fmt_snprintf(d->why, sizeof(d->why), "%s", items[i].why);
		}
	}
}

/* A row's round trip for the end screen: the median net of the floor,
 * with its overhead against the same source's direct row, or the status
 * when it did not end ok. */
static void end_screen_cell(char *out, size_t cap, const struct run_result *r,
			    const char *source, const char *scheme)
{
	const struct experiment_result *e = NULL, *direct = NULL;
	uint32_t i;

	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *x = &r->exp[i];

		/* the plain row, not a variant's nor a repeat in another
		 * APIC mode ("name@x2apic") */
		if (!str_eq(x->source, source) || x->variant[0] ||
		    str_has(x->name, '@'))
			continue;
		if (str_eq(x->scheme, scheme))
			e = x;
		if (str_eq(x->scheme, "direct"))
			direct = x;
	}
	if (!e) {
		fmt_snprintf(out, cap, "-");
	} else if (e->status != EXP_OK) {
		fmt_snprintf(out, cap, "%s", exp_status_name(e->status));
	} else {
		int64_t rt = net_of_floor(e->metric[METRIC_ROUND_TRIP].median,
					  r->floor.min);

		if (direct && direct != e && direct->status == EXP_OK)
			fmt_snprintf(out, cap, "%lld (%+lld)", (long long)rt,
				     (long long)(rt - net_of_floor(
					     direct->metric[METRIC_ROUND_TRIP].median,
					     r->floor.min)));
		else
			fmt_snprintf(out, cap, "%lld", (long long)rt);
	}
}

void report_end_screen(struct text_buf *tb, const struct run_result *r,
		       const char *folder)
{
	/* The self-IPI the headline shows: the first of these that ran. */
	static const char *const ipis[] = { "ipi-self-xapic",
					    "ipi-self-x2apic-selfipi" };
	const char *schemes[16], *ipi = ipis[0];
	uint32_t i, k, n = 0, i386_rows = 0, counts[EXP_STATUS_COUNT] = { 0 };

	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];

		counts[e->status < EXP_STATUS_COUNT ? e->status : EXP_FAILED]++;
		/* Long mode's schemes: the i386 rows are measured against
		 * i386-direct, in a table of their own (summary.txt). */
		if (str_eq(e->source, "int") && !e->variant[0] && n < 16 &&
		    str_eq(catalog_cpu_mode(e->scheme), "long"))
			schemes[n++] = e->scheme;
		if (str_eq(catalog_cpu_mode(e->scheme), "protected-32"))
			i386_rows++;
	}
	for (k = 0; k < sizeof(ipis) / sizeof(ipis[0]); k++) {
		const struct experiment_result *e = NULL;

		for (i = 0; i < r->n_experiments && !e; i++)
			if (str_eq(r->exp[i].source, ipis[k]) &&
			    r->exp[i].status == EXP_OK)
				e = &r->exp[i];
		if (e) {
			ipi = ipis[k];
			break;
		}
	}
	char name[32];

	run_folder_name(r->run_id, name, sizeof(name));
	tb_printf(tb, "irqlab: run %s done\n", name);
	tb_printf(tb, "machine  %.35s %.33s\n", r->machine.system_vendor,
		  r->machine.system_product);
	tb_printf(tb, "cpu      %.70s\n", r->machine.brand);
	tb_printf(tb, "clock    %.12s: figures are %.52s\n",
		  clock_kind_name(r->clock_kind), clock_kind_unit(r->clock_kind));
	tb_printf(tb, "rows     %u ok, %u skipped, %u failed\n", counts[EXP_OK],
		  counts[EXP_SKIPPED], counts[EXP_FAILED] + counts[EXP_TIMEOUT]);
	tb_printf(tb, "\nround trip, median, net of the floor (+ over direct)\n");
	tb_printf(tb, "%-18s %-28s %-.30s\n", "scheme", "INT n", ipi);
	for (i = 0; i < n && i < END_SCREEN_LINES - 13 - (i386_rows ? 1 : 0);
	     i++) {
		char a[32], b[32];

		end_screen_cell(a, sizeof(a), r, "int", schemes[i]);
		end_screen_cell(b, sizeof(b), r, ipi, schemes[i]);
		tb_printf(tb, "%-18.18s %-28.28s %-.30s\n", schemes[i], a, b);
	}
	if (i386_rows)
		tb_printf(tb, "i386     %u rows in 32-bit protected mode, against "
			  "i386-direct: summary.txt\n", i386_rows);
	tb_printf(tb, "\nresults  %.60s\\\n", folder);
	tb_printf(tb, "         results.json and summary.txt: every row, "
		  "every figure\n");
}

void report_discards(struct text_buf *tb, const struct handoff_report *h)
{
	uint32_t i;

	if (!h || !h->n_discarded)
		return;
	tb_printf(tb, "\nHandoff records discarded (never shown as results):\n");
	for (i = 0; i < h->n_discarded; i++)
		tb_printf(tb, "  %-16s %-8s %s\n", h->discarded[i].name,
			  record_fate_name(h->discarded[i].fate),
			  h->discarded[i].why);
}

/* One line per row of that CPU mode that has a baseline to compare. */
static void summary_against_baseline(struct text_buf *tb,
				     const struct run_result *r,
				     const char *mode)
{
	uint32_t i;

	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *base = comparable(r, e);
		uint64_t floor = r->floor.min;

		if (!base || !str_eq(catalog_cpu_mode(e->scheme), mode))
			continue;
		tb_printf(tb, "%-39s %-30s %7lld %7lld %7lld  %+7lld %+7lld %+7lld\n",
			  e->name, e->baseline,
			  (long long)net_of_floor(e->metric[METRIC_ENTRY].median, floor),
			  (long long)net_of_floor(e->metric[METRIC_EXIT].median, floor),
			  (long long)net_of_floor(e->metric[METRIC_ROUND_TRIP].median, floor),
			  (long long)median_over(e, base, METRIC_ENTRY),
			  (long long)median_over(e, base, METRIC_EXIT),
			  (long long)median_over(e, base, METRIC_ROUND_TRIP));
	}
}

static void summary_schemes(struct text_buf *tb, const struct run_result *r,
			    const struct report_context *ctx)
{
	unsigned pass;
	size_t k;

	for (pass = 0; pass < 2; pass++) {
		const char *mode = pass ? "protected-32" : "long";

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
	if (r->clock_kind != CLOCK_TSC_TICKS)
		tb_printf(tb, "QEMU models no caches: the cache-state rows (cold, "
			  "cold-control, thrash) can only differ from their "
			  "baselines on hardware.\n");
	if (!ctx || !ctx->n_schemes)
		return;
	tb_printf(tb, "\nScheme footprint (from the built binary)\n");
	tb_printf(tb, "%-24s %-8s %6s %7s %6s %7s  %s\n", "scheme", "seed",
		  "stub B", "code B", "lines", "data B", "what it is");
	for (k = 0; k < ctx->n_schemes; k++) {
		const struct scheme_entry *s = &ctx->schemes[k];

		tb_printf(tb, "%-24s %-8s %6u %7u %6u %7u  %s\n", s->name,
			  s->seed, s->stub_bytes, s->code_bytes,
			  cache_lines(s->code_bytes), s->data_bytes,
			  s->description);
	}
}

static void summary_primitives(struct text_buf *tb, const struct run_result *r,
			       const struct report_context *ctx)
{
	uint64_t floor = r->floor.min;
	uint32_t i;

	if (!r->n_primitives)
		return;
	tb_printf(tb, "\nPrimitives: per block of %u repetitions, net of the "
		  "floor (seeds 000, 002, 003)\n", PRIMITIVE_BLOCK_REPS);
	tb_printf(tb, "%-26s %-4s %9s %9s %9s %9s %8s  %s\n", "primitive",
		  "seed", "min", "median", "p99", "max", "per rep",
		  "what it is");
	for (i = 0; i < r->n_primitives; i++) {
		const struct primitive_result *p = &r->prim[i];
		const struct primitive_entry *info = primitive_info(ctx, p->name);
		char per_rep[24];

		if (p->status != EXP_OK) {
			tb_printf(tb, "%-26s %-4s %s: %s\n", p->name, info->seed,
				  exp_status_name(p->status), p->reason);
			continue;
		}
		summary_milli(per_rep, sizeof(per_rep),
			      net_of_floor(p->block.median, floor) * 1000 /
				      PRIMITIVE_BLOCK_REPS, 2);
		tb_printf(tb, "%-26s %-4s %9lld %9lld %9lld %9lld %8s  %s\n",
			  p->name, info->seed,
			  (long long)net_of_floor(p->block.min, floor),
			  (long long)net_of_floor(p->block.median, floor),
			  (long long)net_of_floor(p->block.p99, floor),
			  (long long)net_of_floor(p->block.max, floor), per_rep,
			  info->description);
	}
}

int report_summary(struct text_buf *tb, const struct run_result *r,
		   const struct report_context *ctx)
{
	const struct machine_info *m = &r->machine;
	uint64_t floor = r->floor.min;
	char text[32];
	uint32_t i;
	unsigned k;

	run_folder_name(r->run_id, text, sizeof(text));
	tb_printf(tb, "irqlab results, run %s", text);
	if (r->config.runs > 1)
		tb_printf(tb, " (figures from run %u of %u)", r->run_index,
			  r->config.runs);
	tb_printf(tb, "\n\n");
	tb_printf(tb, "machine    %s family %u model %u stepping %u\n",
		  m->cpu_vendor, m->family, m->model, m->stepping);
	tb_printf(tb, "           \"%s\"\n", m->brand);
	tb_printf(tb, "system     %s / %s / %s (SMBIOS)\n",
		  m->system_vendor[0] ? m->system_vendor : "?",
		  m->system_product[0] ? m->system_product : "?",
		  m->system_version[0] ? m->system_version : "?");
	tb_printf(tb, "hypervisor %s\n", m->hypervisor[0] ? m->hypervisor : "none");
	tb_printf(tb, "LLC        %llu KiB (CPUID)\n",
		  (unsigned long long)(m->llc_bytes / 1024));
	if (m->madt_found)
		tb_printf(tb, "ACPI MADT  local APIC at 0x%llx, %u CPUs, %u IO-APICs\n",
			  (unsigned long long)m->lapic_address, m->lapic_count,
			  m->ioapic_count);
	else
		tb_printf(tb, "ACPI MADT  not found\n");
	uefi_revision_text(m->uefi_revision, text, sizeof(text));
	tb_printf(tb, "firmware   %s revision 0x%x, UEFI %s\n", m->fw_vendor,
		  m->fw_revision, text);
	tb_printf(tb, "boot       %s\n",
		  r->boot_return == BOOT_RETURN_BOOT_NEXT
			  ? "BootNext was set to the option irqlab started from"
		  : r->boot_return == BOOT_RETURN_NO_BOOT_CURRENT
			  ? "the firmware did not name the boot option "
			    "(no BootCurrent): the stick was booted again by hand"
			  : "the firmware refused BootNext: the stick was booted "
			    "again by hand");
	if (!r->progress_on_screen)
		tb_printf(tb, "display    progress went to serial only: %s\n",
			  r->display_note);
	tb_printf(tb, "clock      %s: figures are %s\n",
		  clock_kind_name(r->clock_kind), clock_kind_unit(r->clock_kind));
	tb_printf(tb, "TSC        %llu Hz (%s)", (unsigned long long)r->tsc_hz,
		  tsc_method_name(r->tsc_method));
	if (r->tsc_hz_check && r->tsc_check_method != r->tsc_method)
		tb_printf(tb, "; %s says %llu Hz (%+lld ppm)",
			  tsc_method_name(r->tsc_check_method),
			  (unsigned long long)r->tsc_hz_check,
			  (long long)tsc_disagreement_ppm(r));
	tb_printf(tb, "\n");
	tb_printf(tb, "fences     %s\n", fence_method);
	if (r->fence_note[0])
		tb_printf(tb, "           %s\n", r->fence_note);
	tb_printf(tb, "noise      batches with an NMI%s are discarded and taken "
		  "again\n", r->smi_count_watched ? " or an SMI (MSR_SMI_COUNT)"
						   : " (SMIs not visible here)");
	tb_printf(tb, "floor      %llu (min of %u back-to-back fenced reads; "
		  "median %llu), subtracted from every figure below\n",
		  (unsigned long long)floor, r->floor.count,
		  (unsigned long long)r->floor.median);
	tb_printf(tb, "instrument %lld inside a handler (its two timestamps, "
		  "median, net of the floor): round_trip goes through handlers "
		  "without them, round_trip_timed through those with them\n",
		  (long long)net_of_floor(r->instrument.median, floor));
	tb_printf(tb, "samples    %u per experiment after %u warm-up (cold: %u, "
		  "thrash: %u); %u blocks per primitive\n", r->config.samples,
		  r->config.warmup, r->config.cold_samples,
		  r->config.thrash_samples, r->config.primitive_blocks);
	tb_puts(tb, "config     ");
	config_describe(&r->config, tb);
	tb_puts(tb, "\n");
	if (r->config_warnings[0])
		tb_printf(tb, "           warnings: %s\n", r->config_warnings);
	tb_puts(tb, "\n");

	tb_printf(tb, "%-39s %-24s %-23s %4s %-7s %-10s", "experiment",
		  "scheme", "source", "vec", "status", "metric");
	for (k = 0; k < stats_field_count; k++)
		if (stats_fields[k].kind != STATS_FIELD_COUNT)
			tb_printf(tb, " %*s", summary_width(&stats_fields[k]),
				  stats_fields[k].name);
	tb_putc(tb, '\n');
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];

		if (e->status != EXP_OK) {
			tb_printf(tb, "%-39s %-24s %-23s %4u %s: %s\n", e->name,
				  e->scheme, e->source, e->vector,
				  exp_status_name(e->status), e->reason);
			continue;
		}
		for (k = 0; k < METRIC_COUNT; k++) {
			tb_printf(tb, "%-39s %-24s %-23s %4u %-7s %-10s",
				  k ? "" : e->name, k ? "" : e->scheme,
				  k ? "" : e->source, e->vector,
				  k ? "" : exp_status_name(e->status),
				  metric_name(k));
			summary_stats_fields(tb, &e->metric[k], floor);
			tb_putc(tb, '\n');
		}
	}
	for (i = 0; i < r->n_experiments; i++)
		if (r->exp[i].discarded)
			tb_printf(tb, "%s: %u samples in %u batches discarded "
				  "for SMIs/NMIs and taken again\n",
				  r->exp[i].name, r->exp[i].discarded,
				  r->exp[i].discarded_batches);
	tb_printf(tb, "\nFigures are %s, net of the floor.\n",
		  clock_kind_unit(r->clock_kind));
	summary_schemes(tb, r, ctx);
	summary_primitives(tb, r, ctx);
	summary_gaps(tb, r);
	summary_runs(tb, r, ctx);
	seeds_summary(tb, r);
	report_discards(tb, ctx ? ctx->handoff : 0);
	return tb->overflow ? -1 : 0;
}
