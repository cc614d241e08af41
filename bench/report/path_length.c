#include "bench/report/path_length.h"

#include "bench/model/stats.h"

const char *path_state_name(unsigned state)
{
	static const char *const names[PATH_STATE_COUNT] = {
		[PATH_COMPARED] = "compared",
		[PATH_NO_REFERENCE] = "no-reference",
		[PATH_OTHER_BUILD] = "other-build",
		[PATH_NO_COUNTS] = "no-counts",
	};
	return state < PATH_STATE_COUNT ? names[state] : "unknown";
}

/* Instructions the counted trigger side adds to a round trip that the
 * TSC's does not: the x2APIC MSR samples load ECX with the MSR's number
 * again after the counted read (arch/timing.S IPI_SAMPLE_MSR). */
static int64_t counted_trigger_extra(uint8_t source)
{
	return source == SOURCE_IPI_SELF_X2APIC_SELFIPI ||
	       source == SOURCE_IPI_SELF_X2APIC_ICR;
}

/* Row i's path length here, or -1 where it has none. */
static int64_t here(const struct run_result *r, uint32_t i, int counted)
{
	const struct experiment_result *e = &r->exp[i];
	const struct counted_row *c;

	if (!counted)
		return net_of_floor(e->metric[METRIC_ROUND_TRIP].median,
				    row_floor(r, e));
	c = results_counted(r, i);
	return c ? net_of_floor(c->instructions.median,
				r->instructions_floor.min) -
			   counted_trigger_extra(e->id.source)
		 : -1;
}

void path_length_compare(const struct run_result *r,
			 const struct path_reference *ref, const char *problem,
			 struct path_comparison *out)
{
	enum counted_state counted = results_counted_state(r);
	uint32_t i;

	*out = (struct path_comparison){ .state = PATH_COMPARED };
	if (!ref) {
		out->state = PATH_NO_REFERENCE;
		fmt_snprintf(out->why, sizeof(out->why), "%s",
			     problem ? problem : "no icount reference");
		return;
	}
	if (!str_eq(ref->build, r->build)) {
		out->state = PATH_OTHER_BUILD;
		fmt_snprintf(out->why, sizeof(out->why), "the reference is build "
			     "%s's; this run's build is %s", ref->build,
			     r->build[0] ? r->build : "not named");
		return;
	}
	if (counted == COUNTED_MEASURED) {
		out->counts_from = "instructions retired (the performance "
				   "counters)";
	} else if (r->clock_kind == CLOCK_ICOUNT ||
		   r->clock_kind == CLOCK_EMULATOR) {
		out->counts_from = "the TSC, which counts instructions here";
	} else {
		out->state = PATH_NO_COUNTS;
		fmt_snprintf(out->why, sizeof(out->why), "%s",
			     r->probe[PROBE_COUNTERS].detail[0]
				     ? r->probe[PROBE_COUNTERS].detail
				     : "no instruction counts here");
		return;
	}
	for (i = 0; i < r->n_experiments && i < RESULTS_MAX_EXPERIMENTS; i++) {
		const struct experiment_result *e = &r->exp[i];
		int64_t want = path_reference_find(ref, e->name),
			got = here(r, i, counted == COUNTED_MEASURED);

		if (e->status != EXP_OK || want < 0 || got < 0)
			continue;
		out->compared++;
		if (got == want) {
			out->equal++;
			continue;
		}
		if (out->n_differences < PATH_MAX_DIFFERENCES) {
			out->difference[out->n_differences].row = i;
			out->difference[out->n_differences].here = got;
			out->difference[out->n_differences].reference = want;
		}
		out->n_differences++;
	}
}

void path_comparison_summary(struct text_buf *tb, const struct run_result *r,
			     const struct path_comparison *c)
{
	uint32_t k;

	tb_printf(tb, "\nPath length against the icount reference "
		  "(docs/timing.md \"The path length, checked\")\n");
	if (c->state != PATH_COMPARED) {
		tb_printf(tb, "not compared (%s): %s\n", path_state_name(c->state),
			  c->why);
		return;
	}
	tb_printf(tb, "path length here equals the emulator's for %u of %u "
		  "rows; counts from %s\n", c->equal, c->compared,
		  c->counts_from);
	for (k = 0; k < c->n_differences && k < PATH_MAX_DIFFERENCES; k++)
		tb_printf(tb, "  %-39s here %lld, reference %lld (%+lld)\n",
			  r->exp[c->difference[k].row].name,
			  (long long)c->difference[k].here,
			  (long long)c->difference[k].reference,
			  (long long)(c->difference[k].here -
				      c->difference[k].reference));
	if (c->n_differences > PATH_MAX_DIFFERENCES)
		tb_printf(tb, "  ... and %u more\n",
			  c->n_differences - PATH_MAX_DIFFERENCES);
}

void path_length_json(struct json_writer *w, const struct run_result *r,
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

void path_length_summary(struct text_buf *tb, const struct run_result *r,
			 const struct report_context *ctx)
{
	static struct path_comparison c;

	path_length_compare(r, ctx ? ctx->path_reference : 0,
			    ctx ? ctx->path_reference_problem : 0, &c);
	path_comparison_summary(tb, r, &c);
}
