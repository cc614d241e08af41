#include "bench/run/runner.h"

#include "arch/cpu.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/primitives.h"
#include "arch/timing.h"
#include "bench/model/row_counts.h"
#include "bench/model/stats.h"
#include "bench/run/apic_mode.h"
#include "bench/run/counters.h"
#include "bench/run/experiment.h"
#include "bench/run/sequences.h"
#include "bench/run/sources.h"
#include "bench/run/other_cpu_matrix.h"
#include "bench/run/other_cpus.h"

void bench_measure_floor(struct run_result *r, const struct irqlab_config *c,
			 struct bench_buffers *b)
{
	experiment_floor(tsc_floor_sample, 0, c, b, &r->floor);
	experiment_floor(tsc_instrument_probe, 0, c, b, &r->instrument);
	if (!counters_counting())
		return;
	/* The counted pass's floors, measured as the TSC's (docs/timing.md
	 * "Core cycles"). */
	counters_select(COUNTER_CYCLES);
	experiment_floor(pmc_floor_sample, 1, c, b, &r->cycles_floor);
	experiment_floor(pmc_instrument_probe, 1, c, b, &r->cycles_instrument);
	counters_select(COUNTER_INSTRUCTIONS);
	experiment_floor(pmc_floor_sample, 1, c, b, &r->instructions_floor);
}

/* The plan, run row by row. A row that needs an APIC mode not yet tried
 * switches to it first; the plan orders xAPIC before x2APIC. A row whose
 * mode did not come up is skipped with the mode's reason, or left out
 * where its source already reported that. */
void (*bench_progress_hook)(const struct bench_progress *);
static struct bench_progress progress;

/* Counts the rows ended so far, as every report counts them
 * (bench/model/row_counts.h): the experiment rows, the gap rows and the
 * primitives, this part's only in a later part; and tells the hook what
 * runs next. */
static void report_progress(const struct run_result *r, const char *next)
{
	struct row_counts c;

	if (!bench_progress_hook)
		return;
	row_counts_of(r, &c);
	progress.name = next;
	progress.part = r->part;
	progress.ok = c.experiments.ok + c.gap_rows.ok + c.primitives.ok;
	progress.skipped = c.experiments.skipped + c.gap_rows.skipped +
			   c.primitives.skipped;
	progress.failed = c.experiments.failed + c.gap_rows.failed +
			  c.primitives.failed;
	bench_progress_hook(&progress);
}

/* The boot CPU's local APIC into `mode`, and the other processors,
 * which wait in irqlab's loop since phase B started them, after it
 * (bench/run/other_cpus.h); one in the boot CPU's place is parked
 * first, since it holds the boot CPU's tables. */
static void switch_mode(enum lapic_mode mode)
{
	/* Not tried, the APIC left as it is: nothing for them to follow. */
	if (mode == LAPIC_XAPIC && apic_mode_x2apic_only()) {
		apic_mode_switch(mode);
		return;
	}
	other_cpu_matrix_release();
	other_cpus_before_mode_switch();
	apic_mode_switch(mode);
	other_cpus_after_mode_switch(apic_mode_active() != LAPIC_NONE);
}

/* The gap method's rows among the plan's first n. */
static size_t plan_gap_rows(const struct plan_row *plan, size_t n)
{
	size_t i, gaps = 0;

	for (i = 0; i < n; i++)
		gaps += plan[i].kind == ROW_GAP;
	return gaps;
}

void bench_run_all(struct run_result *r, const struct irqlab_config *c,
		   struct bench_buffers *b, struct source_lines *lines,
		   int (*fits)(const struct run_result *r))
{
	static struct plan_row plan[PLAN_MAX_ROWS];
	size_t unplanned = 0;
	size_t n = other_cpu_matrix_plan(plan,
					 plan_build(plan, PLAN_MAX_ROWS, c, lines),
					 PLAN_MAX_ROWS, c, &unplanned), i;

	/* Said, never dropped silently: matrix_cpus's copies of many rows
	 * (docs/your-entry.md, docs/cross-cpu.md) can outgrow the plan. */
	if (unplanned)
		log_printf("plan: %u row(s) did not fit the plan's %u and are "
			   "not measured: choose fewer sources, variants or "
			   "matrix_cpus\n", (unsigned)unplanned,
			   (unsigned)PLAN_MAX_ROWS);

	/* One bar for the whole run, across its parts: the plan's rows,
	 * then the primitives (bench/model/row_counts.h). Part 1 takes the
	 * primitives after its rows, so a later part starts past them. */
	r->plan_rows = (uint16_t)n;
	progress = (struct bench_progress){
		.done = (uint32_t)(r->first_row + (r->part > 1
				   ? row_counts_primitive_steps() : 0)),
		.total = (uint32_t)n + row_counts_primitive_steps() };

	if (r->tsc_hz)
		wait_budget_ticks = r->tsc_hz / 1000 * WAIT_BUDGET_MS;
	/* The counted pass's bound, in the counter's counts: a core clock
	 * eight times the TSC's is beyond any CPU's. */
	wait_budget_counts = wait_budget_ticks * 8;
	log_printf("plan: %u rows (%u experiment rows, %u gap rows), then %u "
		   "primitives: %u steps%s; a sample waits at most %u ms for "
		   "its interrupt\n", (unsigned)n,
		   (unsigned)(n - plan_gap_rows(plan, n)),
		   (unsigned)plan_gap_rows(plan, n),
		   (unsigned)row_counts_primitive_steps(),
		   (unsigned)progress.total, r->first_row ? ", this part from "
		   "a later row" : "", WAIT_BUDGET_MS);
	for (i = r->first_row; i < n; i++, progress.done++) {
		const struct plan_row *p = &plan[i];
		enum lapic_mode mode = (enum lapic_mode)p->mode;
		uint32_t n_exp = r->n_experiments, n_gaps = r->n_gaps,
			 n_hists = r->n_hists, n_counted = r->n_counted;

		report_progress(r, p->name);
		/* A processor in the boot CPU's place runs nothing beside
		 * the boot CPU's own rows. */
		if (!p->id.cpu)
			other_cpu_matrix_release();
		/* x2APIC comes only from xAPIC (apic_mode.h), even in a part
		 * that starts past the xAPIC rows. */
		if (mode == LAPIC_X2APIC && !apic_mode_tried(LAPIC_XAPIC))
			switch_mode(LAPIC_XAPIC);
		if (mode != LAPIC_NONE && !apic_mode_tried(mode))
			switch_mode(mode);
		if (mode != LAPIC_NONE && apic_mode_active() != mode &&
		    p->without_mode == ROW_OMITTED) {
			/* Said, so that the log accounts for every plan row:
			 * the results hold the source's first row, skipped
			 * with the mode's reason, and not this one. */
			log_printf("experiment %s: omitted: its APIC mode did not "
				   "come up (the source's first row says why)\n",
				   p->name);
			continue;
		}
		if (p->kind == ROW_GAP) {
			if (r->n_gaps < RESULTS_MAX_GAPS)
				gap_run(p, r, b);
		} else if (r->n_experiments >= RESULTS_MAX_EXPERIMENTS) {
			log_printf("experiment %s: not run: results table full\n",
				   p->name);
			other_cpu_matrix_release();
			return;
		} else if (p->kind == ROW_I386) {
			i386_experiment_run(p, r, c, b);
		} else if (p->id.cpu) {
			other_cpu_matrix_run(p, r, c, b);
		} else {
			experiment_run(p, r, c, b);
		}
		if (fits && i > r->first_row && !fits(r)) {
			/* Taken back whole: the next part measures it again. */
			r->n_experiments = n_exp;
			r->n_gaps = n_gaps;
			r->n_hists = n_hists;
			r->n_counted = n_counted;
			r->next_row = (uint16_t)i;
			log_printf("part %u: the results fill the handoff; the "
				   "plan's rows from %u on go to part %u, after a "
				   "reset\n", r->part, (unsigned)i, r->part + 1u);
			break;
		}
	}
	other_cpu_matrix_release();
	/* A later part takes no primitives: its end is here, the run's
	 * or the part's. */
	if (r->part > 1)
		report_progress(r, "");
}

struct primitive_run {
	uint64_t (*block)(void);
	uint64_t *blocks;
	uint32_t n;
	int counted;	/* each block's delta modulo the counter's width */
};

static void time_primitive(void *arg)
{
	struct primitive_run *x = arg;
	uint32_t i;

	(void)x->block();	/* warm the code and the stack */
	for (i = 0; i < x->n; i++)
		x->blocks[i] = x->counted ? counters_span(x->block())
					  : x->block();
}

/* The counted pass of a primitive that ran (docs/timing.md "Core
 * cycles"): core cycles per block, into out->cycles_block; a fault here
 * leaves them unmeasured, and the TSC's figures stand. */
static void count_primitive(const struct primitive *p,
			    struct primitive_result *out,
			    const struct irqlab_config *c,
			    struct bench_buffers *b)
{
	struct primitive_run x = { p->counted, b->floor, c->primitive_blocks,
				   1 };
	struct fault_info fault;

	if (!p->counted || !counters_counting())
		return;
	counters_select(COUNTER_CYCLES);
	if (guard_run(time_primitive, &x, &fault)) {
		log_printf("primitive %s: the counted pass faulted\n", p->name);
		return;
	}
	stats_compute(b->floor, x.n, &out->cycles_block);
}

void bench_run_primitives(struct run_result *r, const struct irqlab_config *c,
			  struct bench_buffers *b, struct source_lines *lines)
{
	uint32_t before;
	size_t i;

	_Static_assert(PRIMITIVE_REPS == PRIMITIVE_BLOCK_REPS,
		       "the report divides by the same block size");
	for (i = 0; i < primitive_count && r->n_primitives < RESULTS_MAX_PRIMITIVES;
	     i++) {
		const struct primitive *p = &primitives[i];
		struct primitive_result *out;

		report_progress(r, p->name);
		progress.done++;
		out = &r->prim[r->n_primitives++];
		struct primitive_run x = { p->block, b->floor,
					   c->primitive_blocks, 0 };
		const char *why = p->unsupported ? p->unsupported() : 0;
		struct fault_info fault;

		*out = (struct primitive_result){ 0 };
		fmt_snprintf(out->name, sizeof(out->name), "%s", p->name);
		if (why || !p->block) {
			out->status = EXP_SKIPPED;
			fmt_snprintf(out->reason, sizeof(out->reason), "%s",
				     why ? why : "no block to time");
			continue;
		}
		if (guard_run(time_primitive, &x, &fault)) {
			out->status = EXP_FAILED;
			fault_describe(&fault, out->reason, sizeof(out->reason));
			continue;
		}
		stats_compute(b->floor, x.n, &out->block);
		out->status = EXP_OK;
		count_primitive(p, out, c, b);
	}
	before = r->n_primitives;
	sequences_time(r, b->floor, c->primitive_blocks,
		       source_lines_sequence_line(lines));
	/* Seed 004's sequences are steps too, timed in one go. */
	progress.done += r->n_primitives - before;
	log_printf("primitives: %u timed\n", r->n_primitives);
	if (!r->next_row)	/* the run's end, not a part's */
		progress.done = progress.total;
	report_progress(r, "");
}


enum clock_kind bench_detect_clock(const struct machine_info *m)
{
	uint64_t first_short = 0, first_long = 0, flags;
	int exact = 1, trial;

	/* Where the TSC counts every instruction (QEMU -icount shift=0, an
	 * exact-count Bochs) every trial agrees, 1024 more NOPs read exactly
	 * 1024 more ticks, and a few NOPs exactly that many more than
	 * back-to-back reads (arch/timing.S). Phase A runs under boot
	 * services, whose timer ticks: one inside a probe would read as an
	 * inexact TSC and call -icount noise, so interrupts are off for the
	 * probes (a few microseconds). */
	flags = irq_save();
	for (trial = 0; trial < 8; trial++) {
		uint64_t s = tsc_nop_probe_short(), l = tsc_nop_probe_long();
		uint64_t bare = tsc_floor_sample(), few = tsc_nop_probe_few();

		if (few - bare != NOP_PROBE_FEW)
			exact = 0;
		if (trial == 0) {
			first_short = s;
			first_long = l;
		} else if (s != first_short || l != first_long) {
			exact = 0;
		}
	}
	irq_restore(flags);
	return clock_kind_decide(m->hypervisor, m->acpi_oem_id,
				 exact && first_long - first_short ==
						  NOP_PROBE_DIFFERENCE);
}
