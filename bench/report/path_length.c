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

/* Events a round trip delivers that hardware's instructions retired
 * count as one each, and QEMU's -icount, whose reference this is, as
 * none (docs/timing.md "The path length, checked"): the interrupt,
 * unless INT n raised it (an instruction, which both count), and
 * pf-cr2's #PF, delivered in place of the gate's fetch. */
static unsigned deliveries(const struct row_id *id)
{
	return (id->source != SOURCE_INT) + (id->scheme == SCHEME_PF_CR2);
}

/* The constant of `cpu`, made where new and there is room; NULL past
 * PATH_MAX_CPUS processors. */
static struct path_delivery_constant *constant_of(struct path_comparison *c,
						  uint8_t cpu)
{
	uint32_t i;

	for (i = 0; i < c->n_constants; i++)
		if (c->constant[i].cpu == cpu)
			return &c->constant[i];
	if (c->n_constants >= PATH_MAX_CPUS)
		return 0;
	c->constant[c->n_constants] = (struct path_delivery_constant){
		.cpu = cpu };
	return &c->constant[c->n_constants++];
}

/* Row i's difference from the reference, and its deliveries: 0 where it
 * is not compared. */
static int compared_row(const struct run_result *r,
			const struct path_reference *ref, uint32_t i,
			int counted, int64_t *difference, unsigned *n)
{
	const struct experiment_result *e = &r->exp[i];
	int64_t want = path_reference_find(ref, e->name),
		got = here(r, i, counted);

	if (e->status != EXP_OK || want < 0 || got < 0)
		return 0;
	*difference = got - want;
	*n = deliveries(&e->id);
	return 1;
}

/* Each processor's constant: the most common whole difference per
 * delivery, 0 or more, among its rows that deliver an event, the
 * smaller on a tie; 0 where none does. */
static void measure_constants(const struct run_result *r,
			      const struct path_reference *ref, int counted,
			      struct path_comparison *out)
{
	uint32_t i, j;

	for (i = 0; i < r->n_experiments && i < RESULTS_MAX_EXPERIMENTS; i++) {
		struct path_delivery_constant *k;
		int64_t d, dj, per;
		unsigned n, nj;
		uint32_t same = 0;

		if (!compared_row(r, ref, i, counted, &d, &n) || !n ||
		    !(k = constant_of(out, r->exp[i].id.cpu)))
			continue;
		k->rows++;
		/* A delivery never takes instructions away. */
		if (d < 0 || d % (int64_t)n)
			continue;
		per = d / (int64_t)n;
		for (j = 0; j < r->n_experiments && j < RESULTS_MAX_EXPERIMENTS;
		     j++)
			if (r->exp[j].id.cpu == k->cpu &&
			    compared_row(r, ref, j, counted, &dj, &nj) && nj &&
			    dj == per * (int64_t)nj)
				same++;
		if (same > k->agreeing ||
		    (same == k->agreeing && per < k->per_delivery)) {
			k->agreeing = same;
			k->per_delivery = per;
		}
	}
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
	measure_constants(r, ref, counted == COUNTED_MEASURED, out);
	for (i = 0; i < r->n_experiments && i < RESULTS_MAX_EXPERIMENTS; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct path_delivery_constant *k;
		int64_t d, net = 0;
		unsigned n;

		if (!compared_row(r, ref, i, counted == COUNTED_MEASURED, &d,
				  &n))
			continue;
		out->compared++;
		k = n ? constant_of(out, e->id.cpu) : 0;
		if (k)
			net = k->per_delivery * (int64_t)n;
		if (d == net) {
			out->equal++;
			continue;
		}
		if (out->n_differences < PATH_MAX_DIFFERENCES) {
			out->difference[out->n_differences].row = i;
			out->difference[out->n_differences].here =
				here(r, i, counted == COUNTED_MEASURED) - net;
			out->difference[out->n_differences].reference =
				path_reference_find(ref, e->name);
		}
		out->n_differences++;
	}
}

/* "CPU 0" or "the boot CPU" */
static void constant_cpu(const struct path_delivery_constant *k, char *out,
			 size_t cap)
{
	if (k->cpu)
		fmt_snprintf(out, cap, "CPU %u", k->cpu - 1u);
	else
		fmt_snprintf(out, cap, "the boot CPU");
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
	for (k = 0; k < c->n_constants; k++) {
		char cpu[16];

		constant_cpu(&c->constant[k], cpu, sizeof(cpu));
		tb_printf(tb, "an event delivery counts %lld instruction(s) on "
			  "%s (%u of its %u rows that deliver one agree); the "
			  "reference counts none, so each row is compared net "
			  "of it\n", (long long)c->constant[k].per_delivery, cpu,
			  c->constant[k].agreeing, c->constant[k].rows);
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
		json_key(w, "delivery_constant");
		json_begin_array(w);
		for (k = 0; k < c.n_constants; k++) {
			char cpu[16];

			constant_cpu(&c.constant[k], cpu, sizeof(cpu));
			json_begin_object(w);
			json_kv_string(w, "processor", cpu);
			json_kv_int(w, "instructions_per_delivery",
				    c.constant[k].per_delivery);
			json_kv_uint(w, "rows", c.constant[k].rows);
			json_kv_uint(w, "agreeing", c.constant[k].agreeing);
			json_end_object(w);
		}
		json_end_array(w);
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
