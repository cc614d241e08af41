/* summary.txt: every row and every section of results.json, as text a
 * person reads in any editor. One small function per section. */
#include "bench/report/report.h"

#include "arch/lib/cpuid_bits.h"
#include "bench/model/cross_cpu.h"
#include "bench/model/pmu.h"

#include "bench/report/figures.h"
#include "bench/report/path_length.h"
#include "bench/report/seeds.h"

/* A milli-unit value as a decimal with 1 to 3 fraction digits. */
static void summary_milli(char *out, size_t cap, int64_t milli, int decimals)
{
	static const unsigned divisor[4] = { 1000, 100, 10, 1 };
	uint64_t mag = milli < 0 ? (uint64_t)0 - (uint64_t)milli : (uint64_t)milli;

	fmt_snprintf(out, cap, "%s%llu.%0*llu", milli < 0 ? "-" : "",
		     (unsigned long long)(mag / 1000), decimals,
		     (unsigned long long)(mag % 1000 / divisor[decimals]));
}

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
				     enum cpu_mode mode)
{
	uint32_t i;

	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *base = comparable_baseline(r, e);
		uint64_t floor = row_floor(r, e);

		if (!base || scheme_cpu_mode(e->id.scheme) != mode)
			continue;
		tb_printf(tb, "%-39s %-30s %7lld %7lld %7lld  %+7lld %+7lld %+7lld\n",
			  e->name, base->name,
			  (long long)net_of_floor(e->metric[METRIC_ENTRY].median, floor),
			  (long long)net_of_floor(e->metric[METRIC_EXIT].median, floor),
			  (long long)net_of_floor(e->metric[METRIC_ROUND_TRIP].median, floor),
			  (long long)median_over(e, base, METRIC_ENTRY),
			  (long long)median_over(e, base, METRIC_EXIT),
			  (long long)median_over(e, base, METRIC_ROUND_TRIP));
	}
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
static void summary_mitigations(struct text_buf *tb, const struct run_result *r)
{
	struct linux_choices choices;
	const char *why_not[LINUX_STEPS];
	int every_step = config_simulates(&r->config,
					  SIMULATE_LINUX_EVERY_STEP);
	const char *lead = every_step ? "Every step on" : "Linux on this CPU";
	char steps[96];
	uint32_t i, n = 0;
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
	linux_steps_text(report_linux_steps(r, &choices, why_not), steps,
			 sizeof(steps));
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *base = comparable_baseline(r, e);

		if (e->id.variant != VARIANT_LINUX || e->id.cache != VARIANT_ABSENT)
			continue;
		if (base)
			tb_printf(tb, "%s (%s): %+lld entry, "
				  "%+lld exit, %+lld round trip over swapgs "
				  "alone\n", lead, steps,
				  (long long)median_over(e, base, METRIC_ENTRY),
				  (long long)median_over(e, base, METRIC_EXIT),
				  (long long)median_over(e, base,
							 METRIC_ROUND_TRIP));
		else
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

/* A counted median as a cell: "-" where the row has none. */
static void counted_cell(char *cell, size_t cap, int64_t v, int sign)
{
	if (v == INT64_MIN)
		fmt_snprintf(cell, cap, "-");
	else
		fmt_snprintf(cell, cap, sign ? "%+lld" : "%lld", (long long)v);
}

/* The counted pass (docs/timing.md "Core cycles"), one line per long-mode
 * row that has it: core cycles net of the cycle floor, their overhead
 * over the baseline, and the bare round trip in instructions retired.
 * An emulator's are said to be so: its cycle counter counts instruction
 * steps (docs/emulators.md "The counting PMU"). */
static void summary_counted(struct text_buf *tb, const struct run_result *r)
{
	enum counted_state state = results_counted_state(r);
	uint32_t i;
	unsigned k;

	if (state == COUNTED_NOT_RUN) {
		tb_printf(tb, "\nCore cycles: not measured: %s\n",
			  r->probe[PROBE_COUNTERS].detail);
		return;
	}
	tb_printf(tb, "\nCore cycles%s, from the performance counters in a "
		  "pass of their own: medians net of the cycle floor (%llu), "
		  "the overhead over the baseline, and instructions retired "
		  "per round trip net of that floor (%llu)\n",
		  r->clock_kind != CLOCK_TSC_TICKS ? " (the emulator's "
		  "counters: a cycle is an instruction step, not a cycle)"
						   : "",
		  (unsigned long long)r->cycles_floor.min,
		  (unsigned long long)r->instructions_floor.min);
	tb_printf(tb, "%-39s %7s %7s %7s  %7s %7s %7s %7s\n", "experiment",
		  "entry", "exit", "round", "+entry", "+exit", "+round",
		  "instr");
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *base = comparable_baseline(r, e);
		const struct counted_row *c = results_counted(r, i);
		static const unsigned shown[] = { METRIC_ENTRY, METRIC_EXIT,
						  METRIC_ROUND_TRIP };
		char cell[24];

		if (!c || e->status != EXP_OK)
			continue;
		tb_printf(tb, "%-39s", e->name);
		for (k = 0; k < 3; k++) {
			counted_cell(cell, sizeof(cell),
				     counted_median(r, e, shown[k]), 0);
			tb_printf(tb, " %7s", cell);
		}
		tb_putc(tb, ' ');
		for (k = 0; k < 3; k++) {
			counted_cell(cell, sizeof(cell),
				     base ? counted_median_over(r, e, base,
								shown[k])
					  : INT64_MIN, 1);
			tb_printf(tb, " %7s", base ? cell : "");
		}
		tb_printf(tb, " %7lld\n", (long long)net_of_floor(
				  c->instructions.median,
				  r->instructions_floor.min));
	}
}

static void summary_schemes(struct text_buf *tb, const struct run_result *r,
			    const struct report_context *ctx)
{
	unsigned pass;
	size_t k;

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
	summary_mitigations(tb, r);
	summary_counted(tb, r);
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
		if (!p->cycles_block.count)
			continue;
		summary_milli(per_rep, sizeof(per_rep),
			      net_of_floor(p->cycles_block.median,
					   r->cycles_floor.min) * 1000 /
				      PRIMITIVE_BLOCK_REPS, 2);
		tb_printf(tb, "%-26s %-4s %9s %9lld %9s %9s %8s  core cycles%s\n",
			  "", "", "", (long long)net_of_floor(
				  p->cycles_block.median, r->cycles_floor.min),
			  "", "", per_rep,
			  r->clock_kind != CLOCK_TSC_TICKS
				  ? " (instruction steps)" : "");
	}
}

/* What moves the core clock against the TSC, and what that makes of TSC
 * ticks (docs/timing.md "TSC ticks are not cycles"). */
/* Whether a cross-CPU row before `i` has i's kind, status and reason:
 * a reason is said once, with how many rows it covers. */
static int same_reason_before(const struct run_result *r, uint32_t i)
{
	uint32_t j;

	for (j = 0; j < i; j++)
		if (r->cross[j].kind == r->cross[i].kind &&
		    r->cross[j].status == r->cross[i].status &&
		    str_eq(r->cross[j].reason, r->cross[i].reason))
			return 1;
	return 0;
}

static uint32_t rows_with_reason(const struct run_result *r, uint32_t i)
{
	uint32_t j, n = 0;

	for (j = 0; j < r->n_cross; j++)
		n += r->cross[j].kind == r->cross[i].kind &&
		     r->cross[j].status == r->cross[i].status &&
		     str_eq(r->cross[j].reason, r->cross[i].reason);
	return n;
}

/* On a hybrid CPU: ipi-ack's median from each core type to each. */
static void summary_cross_cores(struct text_buf *tb, const struct run_result *r)
{
	static const uint8_t types[] = { CORE_TYPE_CORE, CORE_TYPE_ATOM };
	char a[8], b[8];
	uint32_t pairs;
	unsigned i, j;

	if (!cross_hybrid(r))
		return;
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			uint64_t m = cross_core_median(r, CROSS_ACK, types[i],
						       types[j], &pairs);
			char label[24];

			if (!pairs)
				continue;
			fmt_snprintf(label, sizeof(label), "%s->%s",
				     core_type_name(types[i], a, sizeof(a)),
				     core_type_name(types[j], b, sizeof(b)));
			tb_printf(tb, "%-22s %-14s %9llu %6u\n", "ipi-ack",
				  label, (unsigned long long)m, pairs);
		}
}

/* The cross-CPU section: each kind's median per relation, the
 * broadcasts, then the acknowledged matrix, sender by target. */
static void summary_cross_cpu(struct text_buf *tb, const struct run_result *r)
{
	uint32_t i, j, pairs, n_cpus = 0;
	uint32_t cpus[16];
	unsigned k, rel;

	if (!r->n_cross)
		return;
	tb_printf(tb, "\nBetween CPUs (%s): %s\n",
		  clock_kind_unit(r->clock_kind),
		  cross_figures_meaning(r->clock_kind));
	if (r->n_cross == 1 && r->cross[0].status != EXP_OK) {
		tb_printf(tb, "  %s: %s\n", exp_status_name(r->cross[0].status),
			  r->cross[0].reason);
		return;
	}
	tb_printf(tb, "%-22s %-14s %9s %6s\n", "kind", "relation", "median",
		  "rows");
	for (k = 0; k < CROSS_KIND_COUNT; k++)
		for (rel = 0; rel < CPU_RELATION_COUNT; rel++) {
			uint64_t m = cross_relation_median(r, k, rel, &pairs);

			if (pairs)
				tb_printf(tb, "%-22s %-14s %9llu %6u\n",
					  cross_kind_name(k),
					  cpu_relation_name(rel),
					  (unsigned long long)m, pairs);
		}
	summary_cross_cores(tb, r);
	for (i = 0; i < r->n_cross_hists; i++) {
		const struct cross_result *c = &r->cross[r->cross_hist[i].row];

		tb_printf(tb, "  %s: the distribution of APIC id %u -> %u is "
			  "kept (results.json)\n", cpu_relation_name(c->relation),
			  c->sender, c->target);
	}
	for (i = 0; i < r->n_cross; i++) {
		const struct cross_result *c = &r->cross[i];

		if (c->kind == CROSS_ONE_WAY && c->status == EXP_OK)
			tb_printf(tb, "  one way %u -> %u: median %llu, the "
				  "TSC offset known to +-%llu\n", c->sender,
				  c->target,
				  (unsigned long long)c->time.median,
				  (unsigned long long)(c->skew_high -
						       c->skew_low) / 2);
		else if (c->status != EXP_OK &&
			 !same_reason_before(r, i))
			tb_printf(tb, "  %s: %s (%u row(s)): %s\n",
				  cross_kind_name(c->kind),
				  exp_status_name(c->status),
				  rows_with_reason(r, i), c->reason);
	}
	/* The matrix of acknowledged IPIs, by APIC id. */
	for (i = 0; i < r->n_cross; i++) {
		const struct cross_result *c = &r->cross[i];
		uint32_t ids[2] = { c->sender, c->target };
		unsigned e;

		if (c->kind != CROSS_ACK || c->target == CROSS_ALL_TARGETS)
			continue;
		for (e = 0; e < 2; e++) {
			for (j = 0; j < n_cpus && cpus[j] != ids[e]; j++)
				;
			if (j == n_cpus && n_cpus < 16)
				cpus[n_cpus++] = ids[e];
		}
	}
	if (n_cpus < 2)
		return;
	tb_printf(tb, "  ipi-ack medians, sender (row) to target (column), "
		  "by APIC id:\n  %6s", "");
	for (j = 0; j < n_cpus; j++)
		tb_printf(tb, " %7u", cpus[j]);
	tb_printf(tb, "\n");
	for (i = 0; i < n_cpus; i++) {
		tb_printf(tb, "  %6u", cpus[i]);
		for (j = 0; j < n_cpus; j++) {
			const struct cross_result *hit = 0;
			uint32_t x;

			for (x = 0; x < r->n_cross; x++)
				if (r->cross[x].kind == CROSS_ACK &&
				    r->cross[x].sender == cpus[i] &&
				    r->cross[x].target == cpus[j])
					hit = &r->cross[x];
			if (hit && hit->status == EXP_OK)
				tb_printf(tb, " %7llu",
					  (unsigned long long)hit->time.median);
			else
				tb_printf(tb, " %7s", i == j ? "-" : "?");
		}
		tb_printf(tb, "\n");
	}
}

/* The rows run again on other processors (docs/cross-cpu.md "The matrix
 * on another processor"), each beside the boot CPU's: both medians of
 * entry and exit, each net of its own processor's floor, and the
 * other's over the boot CPU's. */
static void summary_other_cpus_matrix(struct text_buf *tb,
				      const struct run_result *r)
{
	uint32_t i, shown = 0, not_ok = 0;
	char a[8], b[8], who[24];

	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];
		const struct experiment_result *boot = boot_twin(r, e);
		char name[RESULTS_NAME_LEN];

		if (!e->id.cpu)
			continue;
		if (!boot) {
			not_ok += e->status != EXP_OK;
			continue;
		}
		if (!shown++)
			tb_printf(tb, "\nOn other processors, each in the boot "
				  "CPU's place (%s, medians of entry/exit, each "
				  "net of its processor's own floor; the "
				  "other's over the boot CPU's):\n%-34s "
				  "%-16s %11s %-16s %11s %13s\n",
				  clock_kind_unit(r->clock_kind), "row",
				  "boot CPU", "entry/exit", "on", "entry/exit",
				  "over boot");
		boot_row_name(e, name, sizeof(name));
		fmt_snprintf(who, sizeof(who), "CPU %u (%s)", e->id.cpu - 1u,
			     core_type_name(row_core_type(r, e), b, sizeof(b)));
		tb_printf(tb, "%-34s %-16s %5lld/%-5lld %-16s %5lld/%-5lld "
			  "%+6lld/%+lld\n", name,
			  core_type_name(row_core_type(r, boot), a, sizeof(a)),
			  (long long)row_net_median(r, boot, METRIC_ENTRY),
			  (long long)row_net_median(r, boot, METRIC_EXIT), who,
			  (long long)row_net_median(r, e, METRIC_ENTRY),
			  (long long)row_net_median(r, e, METRIC_EXIT),
			  (long long)net_over_boot(r, e, boot, METRIC_ENTRY),
			  (long long)net_over_boot(r, e, boot, METRIC_EXIT));
	}
	for (i = 0; not_ok && i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];

		if (!e->id.cpu || e->status == EXP_OK)
			continue;
		tb_printf(tb, "%sOn other processors, %u row(s) not ok; the "
			  "first, %s: %s: %s\n", shown ? "" : "\n", not_ok,
			  e->name, exp_status_name(e->status), e->reason);
		break;
	}
}

/* Each other processor that ran rows or sent IPIs, a line each: its
 * pin, LFENCE and APERF/MPERF ratio. */
static void summary_other_cpu_clocks(struct text_buf *tb,
				     const struct run_result *r)
{
	char reason[RESULTS_REASON_LEN + 64], ratio[24];
	uint32_t i;

	for (i = 0; i < r->n_cpu_clocks; i++) {
		const struct cpu_clock *c = &r->cpu_clock[i];

		cpu_clock_reason(r, c, reason, sizeof(reason));
		if (c->ratio_milli)
			fmt_snprintf(ratio, sizeof(ratio), "%u/1000",
				     c->ratio_milli);
		tb_printf(tb, "           CPU %u: %s; LFENCE %s; APERF/MPERF "
			  "%s%s\n", c->cpu - 1u, reason,
			  cpu_fence_state_name(c->fence),
			  c->ratio_milli ? ratio : cpu_clock_ratio_note(r, c),
			  c->restored ? "" : "; not put back before INIT");
	}
}

static void summary_core_clock(struct text_buf *tb, const struct run_result *r)
{
	const struct machine_info *m = &r->machine;
	char type[16];

	tb_printf(tb, "core clock invariant TSC %s, turbo/boost %s, HWP %s, "
		  "core type %s, microcode ", m->invariant_tsc ? "yes" : "no",
		  boost_state_name(m->boost), hwp_state_name(m->hwp),
		  core_type_name(m->core_type, type, sizeof(type)));
	if (m->microcode)
		tb_printf(tb, "0x%x\n", m->microcode);
	else
		tb_printf(tb, "unknown\n");
	if (r->clock_kind == CLOCK_TSC_TICKS)
		tb_printf(tb, "           TSC ticks are not core cycles: the core "
			  "clock moves against the TSC with turbo and power "
			  "states\n");
	summary_other_cpu_clocks(tb, r);
}

/* Each probe that ran, a line each: its name, state and what it saw. */
static void summary_probes(struct text_buf *tb, const struct run_result *r)
{
	unsigned i, shown = 0;

	for (i = 0; i < PROBE_COUNT; i++) {
		const struct probe_result *p = &r->probe[i];

		if (p->state == PROBE_NOT_RUN)
			continue;
		tb_printf(tb, "%-10s %-19s %-9s %s\n",
			  shown++ ? "" : "platform", platform_probe_name(i),
			  probe_state_name(p->state), p->detail);
	}
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

/* The machine, the firmware, the clock, the method and the config: what
 * the figures below were measured on and how. */
static void summary_machine(struct text_buf *tb, const struct run_result *r)
{
	const struct machine_info *m = &r->machine;
	uint64_t floor = r->floor.min;
	char text[32];

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
	summary_probes(tb, r);
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
	summary_core_clock(tb, r);
	tb_printf(tb, "fences     %s\n", report_fence_method);
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
	char text[32];

	run_folder_name(r->run_id, text, sizeof(text));
	tb_printf(tb, "irqlab results, run %s", text);
	if (r->config.runs > 1)
		tb_printf(tb, " (figures from run %u of %u)", r->run_index,
			  r->config.runs);
	tb_printf(tb, "\n\n");
	/* What the config had that was ignored, first, where it is read. */
	if (r->config_warnings[0])
		tb_printf(tb, "CONFIG WARNINGS (the run went on without these "
			  "lines): %s\n\n", r->config_warnings);
	summary_machine(tb, r);
	summary_rows(tb, r);
	tb_printf(tb, "\nFigures are %s, net of the floor.\n",
		  clock_kind_unit(r->clock_kind));
	summary_schemes(tb, r, ctx);
	summary_primitives(tb, r, ctx);
	summary_cross_cpu(tb, r);
	summary_other_cpus_matrix(tb, r);
	summary_gaps(tb, r);
	summary_runs(tb, r, ctx);
	{
		static struct path_comparison c;

		path_length_compare(r, ctx ? ctx->path_reference : 0,
				    ctx ? ctx->path_reference_problem : 0, &c);
		path_length_summary(tb, r, &c);
	}
	seeds_summary(tb, r);
	report_discards(tb, ctx ? ctx->handoff : 0);
	return tb->overflow ? -1 : 0;
}
