#include "bench/report/mitigations.h"

#include "bench/model/mitigations.h"
#include "bench/report/baselines.h"
#include "bench/report/comparison.h"
#include "bench/report/stats_cells.h"

/* A mitigation row's twin in the cold cache state, or NULL. */
static const struct experiment_result *cold_twin(
	const struct run_result *r, const struct experiment_result *e)
{
	struct row_id cold = e->id;

	cold.cache = VARIANT_COLD;
	return e->id.cache == VARIANT_ABSENT ? results_find(r, &cold) : 0;
}

/* The INT n rows of the one comparison docs/mitigations.md "FRED" names:
 * the IDT with Linux's set (int-direct+linux) and FRED with its own
 * (int-fred-linux); either NULL where it did not run. Returns whether
 * both ran ok, with FRED's round trip less the IDT's in *fred_less_idt,
 * net of nothing: the floor is the same on both. */
static int idt_against_fred(const struct run_result *r,
			    const struct experiment_result **idt,
			    const struct experiment_result **fred,
			    int64_t *fred_less_idt)
{
	const struct row_id idt_id = { .source = SOURCE_INT,
				       .scheme = SCHEME_DIRECT,
				       .variant = VARIANT_LINUX };
	const struct row_id fred_id = { .source = SOURCE_INT,
					.scheme = SCHEME_FRED_LINUX };

	*idt = results_find(r, &idt_id);
	*fred = results_find(r, &fred_id);
	if (!*idt || !*fred || (*idt)->status != EXP_OK ||
	    (*fred)->status != EXP_OK)
		return 0;
	*fred_less_idt = median_over(*fred, *idt, METRIC_ROUND_TRIP);
	return 1;
}

/* Linux's decisions on the run's machine (bench/model/mitigations.h). */
static void report_linux_choices(const struct run_result *r,
				 struct linux_choices *out)
{
	linux_choose(r->machine.cpu_vendor, r->machine.family,
		     r->machine.model, &r->machine.mitigation, out);
}

/* The steps the linux variant ran: Linux's set (choices->steps), or
 * under simulate = linux-every-step every step the CPU could run, with
 * why_not[step] naming each it could not (NULL for the others, and
 * for every step of Linux's own set). */
static uint32_t report_linux_steps(const struct run_result *r,
				   const struct linux_choices *choices,
				   const char *why_not[LINUX_STEPS])
{
	unsigned s;

	if (config_simulates(&r->config, SIMULATE_LINUX_EVERY_STEP))
		return linux_every_step(r->machine.cpu_vendor,
					&r->machine.mitigation, why_not);
	for (s = 0; s < LINUX_STEPS; s++)
		why_not[s] = 0;
	return choices->steps;
}

/* A step of Linux's set in words, as the reports name it. */
static const char *linux_step_name(unsigned step)
{
	static const char *const names[LINUX_STEPS] = {
		[LINUX_STEP_LFENCE_SWAPGS] = "LFENCE after swapgs",
		[LINUX_STEP_PTI_PCID] = "PTI with PCID",
		[LINUX_STEP_PTI] = "PTI",
		[LINUX_STEP_IBRS] = "IBRS",
		[LINUX_STEP_IBPB] = "IBPB",
		[LINUX_STEP_VERW] = "VERW",
	};

	return step < LINUX_STEPS ? names[step] : "?";
}

/* "PTI, VERW" for the steps the linux variant ran, "none" for none. */
static void linux_steps_text(uint32_t steps, char *out, size_t cap)
{
	struct text_buf tb;
	unsigned s;

	tb_init(&tb, out, cap);
	for (s = 0; s < LINUX_STEPS; s++)
		if (steps & (1u << s))
			tb_printf(&tb, "%s%s", tb.len ? ", " : "",
				  linux_step_name(s));
	if (!tb.len)
		tb_printf(&tb, "none");
}

/* docs/mitigations.md "Linux on this CPU": each step of Linux's set is a
 * site patched on or off, a two-byte jump over the step or a two-byte
 * NOP, there whether the step is taken or not. Their cost apart from the
 * steps is known where no step is on (the row over swapgs alone is the
 * sites, "sites only"), or where a tick is an instruction (one each);
 * elsewhere it is inside the total. */
enum sites_cost {
	SITES_ONLY,	/* measured: every step is off */
	SITES_COUNTED,	/* one instruction a site */
	SITES_INSIDE,	/* not measured apart */
};

struct linux_sites {
	enum sites_cost cost;
	int64_t entry, exit, round_trip;	/* but SITES_INSIDE */
};

static void linux_sites_of(const struct run_result *r, uint32_t steps,
			   const struct experiment_result *e,
			   const struct experiment_result *base,
			   struct linux_sites *out)
{
	if (!steps && base)
		*out = (struct linux_sites){
			SITES_ONLY, median_over(e, base, METRIC_ENTRY),
			median_over(e, base, METRIC_EXIT),
			median_over(e, base, METRIC_ROUND_TRIP) };
	else if (clock_kind_counts_instructions(r->clock_kind))
		*out = (struct linux_sites){
			SITES_COUNTED, LINUX_ENTRY_SITES, LINUX_EXIT_SITES,
			LINUX_ENTRY_SITES + LINUX_EXIT_SITES };
	else
		*out = (struct linux_sites){ SITES_INSIDE, 0, 0, 0 };
}

/* The sites' line, as summary.txt and results.json give it. */
static void linux_sites_words(const struct linux_sites *s, char *out,
			      size_t cap)
{
	static const char doc[] = "each a two-byte jump over its step, or a "
				  "two-byte NOP where the step is on "
				  "(docs/mitigations.md)";
	const unsigned all = LINUX_ENTRY_SITES + LINUX_EXIT_SITES;

	if (s->cost == SITES_ONLY)
		fmt_snprintf(out, cap, "sites only: every decision is off, so "
			     "this is the cost of the %u patched jump sites "
			     "alone (%u on entry, %u on exit): %+lld entry, "
			     "%+lld exit, %+lld round trip; %s", all,
			     LINUX_ENTRY_SITES, LINUX_EXIT_SITES,
			     (long long)s->entry, (long long)s->exit,
			     (long long)s->round_trip, doc);
	else if (s->cost == SITES_COUNTED)
		fmt_snprintf(out, cap, "of it, the %u patched jump sites (%u on "
			     "entry, %u on exit): %+lld entry, %+lld exit, "
			     "%+lld round trip, one instruction each, taken or "
			     "not; %s", all, LINUX_ENTRY_SITES,
			     LINUX_EXIT_SITES, (long long)s->entry,
			     (long long)s->exit, (long long)s->round_trip, doc);
	else
		fmt_snprintf(out, cap, "the %u patched jump sites (%u on entry, "
			     "%u on exit) are in it, their cost not measured "
			     "apart: a CPU whose every decision is off gives "
			     "it; %s", all, LINUX_ENTRY_SITES, LINUX_EXIT_SITES,
			     doc);
}

/* A mitigation row (or its cold twin) against its baseline: status,
 * reason, and the three medians over. */
static void json_mitigation_figures(struct json_writer *w,
				    const struct run_result *r,
				    const struct experiment_result *e)
{
	const struct experiment_result *base = comparable_baseline(r, e);
	char baseline[RESULTS_ROW_NAME_LEN];

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

/* The linux row's patched jump sites: whether its figures are theirs
 * alone ("sites only"), their count, and their cost apart where known. */
static void json_linux_sites(struct json_writer *w, const struct run_result *r,
			     uint32_t steps, const struct experiment_result *e)
{
	const struct experiment_result *base = comparable_baseline(r, e);
	struct linux_sites s;
	char words[320];

	linux_sites_of(r, steps, e, base, &s);
	linux_sites_words(&s, words, sizeof(words));
	json_key(w, "sites_only");
	json_bool(w, s.cost == SITES_ONLY);
	json_key(w, "sites");
	json_begin_object(w);
	json_kv_uint(w, "entry", LINUX_ENTRY_SITES);
	json_kv_uint(w, "exit", LINUX_EXIT_SITES);
	json_kv_string(w, "cost_from", s.cost == SITES_ONLY ? "measured"
				       : s.cost == SITES_COUNTED ? "counted"
				       : "not measured apart");
	json_key(w, "cost");
	if (s.cost == SITES_INSIDE) {
		json_null(w);
	} else {
		json_begin_object(w);
		json_kv_int(w, "entry", s.entry);
		json_kv_int(w, "exit", s.exit);
		json_kv_int(w, "round_trip", s.round_trip);
		json_end_object(w);
	}
	json_kv_string(w, "words", words);
	json_end_object(w);
}

/* docs/mitigations.md: each sequence's cost over its baseline, warm and
 * cold, whether this CPU needs it and why, and what Linux's defaults
 * would run here in all. */
void mitigations_json(struct json_writer *w, const struct run_result *r)
{
	struct linux_choices choices;
	const char *why_not[LINUX_STEPS];
	int every_step = config_simulates(&r->config,
					  SIMULATE_LINUX_EVERY_STEP);
	char steps[96];
	uint32_t i, steps_on;
	unsigned k;

	report_linux_choices(r, &choices);
	steps_on = report_linux_steps(r, &choices, why_not);
	linux_steps_text(steps_on, steps, sizeof(steps));
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
		json_linux_sites(w, r, steps_on, &r->exp[i]);
		json_end_object(w);
	}
	json_mitigations_fred(w, r);
	json_end_object(w);
}

/* One mitigation row's cells: its medians over its baseline, or why it
 * has none. */
static void mitigation_cells(struct text_buf *tb, const struct run_result *r,
			     const struct experiment_result *e)
{
	const struct experiment_result *base = e ? comparable_baseline(r, e) : 0;

	if (!e)
		tb_printf(tb, " %23s", "not run");
	else if (!base)
		tb_printf(tb, " %-23.23s", e->status == EXP_OK ? "no baseline" :
					    exp_status_name(e->status));
	else
		tb_printf(tb, " %+7lld %+7lld %+7lld",
			  (long long)median_over(e, base, METRIC_ENTRY),
			  (long long)median_over(e, base, METRIC_EXIT),
			  (long long)median_over(e, base, METRIC_ROUND_TRIP));
}

/* docs/mitigations.md "FRED": one comparison, INT n's round trip. */
static void summary_idt_against_fred(struct text_buf *tb,
				     const struct run_result *r)
{
	const struct experiment_result *idt, *fred;
	uint64_t floor = r->floor.min;
	int64_t less;

	if (idt_against_fred(r, &idt, &fred, &less))
		tb_printf(tb, "IDT with its mitigations against FRED with its "
			  "own, INT n round trip: %s %lld, %s %lld: FRED "
			  "%+lld\n", idt->name,
			  (long long)net_of_floor(
				  idt->metric[METRIC_ROUND_TRIP].median, floor),
			  fred->name,
			  (long long)net_of_floor(
				  fred->metric[METRIC_ROUND_TRIP].median, floor),
			  (long long)less);
	else if (fred && fred->status != EXP_OK)
		tb_printf(tb, "IDT with its mitigations against FRED with its "
			  "own: not compared: %s %s: %s\n", fred->name,
			  exp_status_name(fred->status), fred->reason);
}

/* docs/mitigations.md: each sequence over its baseline, warm and cold,
 * what this CPU needs and why, and Linux's set here in all. */
void mitigations_summary(struct text_buf *tb, const struct run_result *r)
{
	struct linux_choices choices;
	const char *why_not[LINUX_STEPS];
	int every_step = config_simulates(&r->config,
					  SIMULATE_LINUX_EVERY_STEP);
	const char *lead = every_step ? "Every step on" : "Linux on this CPU";
	char steps[96];
	uint32_t i, n = 0, steps_on;
	unsigned k;

	report_linux_choices(r, &choices);
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		int choice = linux_choice_of_variant(e->id.variant);

		if (choice < 0 || e->id.cache != VARIANT_ABSENT)
			continue;
		if (!n++)
			tb_printf(tb, "\nMitigations on the interrupt path "
				  "(docs/mitigations.md), over each row's "
				  "baseline, in %s; cold: gate, handler and "
				  "descriptor flushed before each sample\n"
				  "%-15s %7s %7s %7s %7s %7s %7s  %s\n",
				  clock_kind_unit(r->clock_kind), "sequence",
				  "+entry", "+exit", "+round", "cold+en", "+exit",
				  "+round", "this CPU");
		tb_printf(tb, "%-15s", variant_name(e->id.variant));
		mitigation_cells(tb, r, e);
		mitigation_cells(tb, r, cold_twin(r, e));
		tb_printf(tb, "  %s: %s\n", linux_choice_name((unsigned)choice),
			  choices.choice[choice].why);
		if (e->status != EXP_OK && e->reason[0])
			tb_printf(tb, "%15s %s: %s\n", "",
				  exp_status_name(e->status), e->reason);
	}
	if (!n)
		return;
	steps_on = report_linux_steps(r, &choices, why_not);
	linux_steps_text(steps_on, steps, sizeof(steps));
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *base = comparable_baseline(r, e);
		struct linux_sites sites;
		char words[320];

		if (e->id.variant != VARIANT_LINUX || e->id.cache != VARIANT_ABSENT)
			continue;
		linux_sites_of(r, steps_on, e, base, &sites);
		if (base) {
			linux_sites_words(&sites, words, sizeof(words));
			tb_printf(tb, "%s (%s%s): %+lld entry, "
				  "%+lld exit, %+lld round trip over swapgs "
				  "alone\n  %s\n", lead, steps,
				  sites.cost == SITES_ONLY ? ": sites only" : "",
				  (long long)median_over(e, base, METRIC_ENTRY),
				  (long long)median_over(e, base, METRIC_EXIT),
				  (long long)median_over(e, base,
							 METRIC_ROUND_TRIP),
				  words);
		} else
			tb_printf(tb, "%s (%s): %s%s%s\n", lead, steps,
				  exp_status_name(e->status),
				  e->reason[0] ? ": " : "", e->reason);
		if (every_step)
			tb_printf(tb, "  every step this CPU can run "
				  "(simulate = linux-every-step), not what "
				  "%s's defaults would take here\n",
				  linux_rule_source);
		else
			tb_printf(tb, "  what %s's defaults would add to an "
				  "interrupt from user mode here, not what a "
				  "given kernel does\n", linux_rule_source);
		for (k = 0; k < LINUX_STEPS; k++)
			if (why_not[k])
				tb_printf(tb, "  %s skipped: %s\n",
					  linux_step_name(k), why_not[k]);
	}
	summary_idt_against_fred(tb, r);
	tb_printf(tb, "Linux's decisions on this CPU:\n");
	for (k = 0; k < LINUX_CHOICE_COUNT; k++)
		tb_printf(tb, "  %s: %s\n", linux_choice_name(k),
			  choices.choice[k].why);
}
