/* Seed 000's gap method (Ingo Molnar): a loop of back-to-back TSC reads
 * runs while a periodic timer interrupts it; every delta above a
 * threshold is what an interrupt cost the interrupted code. */
#include "bench/run/experiment.h"

#include "arch/cpu.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/noise.h"
#include "arch/dispatch/irq.h"
#include "arch/timing.h"
#include "bench/model/histogram.h"
#include "bench/model/stats.h"
#include "bench/run/apic_mode.h"
#include "bench/run/counters.h"

#define GAP_LOOP_PROBE 1000		/* undisturbed reads measured first */
#define GAP_PROBE_TRIALS 8
#define GAP_MAX_ITERATIONS 400000000ull	/* bound on the loop */
/* The loop runs in eighths of its bound: after one, the timer's
 * interrupts without a single gap are an interrupt too cheap for the
 * threshold (the gate's floor under an instruction count), which more
 * iterations will not change. */
#define GAP_CHUNK (GAP_MAX_ITERATIONS / 8)

struct gap_run {
	const struct dispatch_scheme *scheme;
	const struct irq_source *timer;
	struct source_lines *lines;
	uint8_t vector;
	uint32_t want;
	uint64_t *buf;
	struct gap_result *out;
	uint32_t got;
	uint64_t noise;	/* noise_snapshot() as the loop began */
};

/* One undisturbed loop iteration, on the path the measuring loop takes
 * when no gap is stored (a threshold nothing exceeds): two runs that
 * differ only in their iteration count, the fastest of several each, so
 * the loop's own entry and exit cancel. Exact under -icount. */
static uint64_t loop_iteration(void)
{
	uint64_t fastest[2] = { UINT64_MAX, UINT64_MAX };
	unsigned trial, k;

	for (trial = 0; trial < GAP_PROBE_TRIALS; trial++)
		for (k = 0; k < 2; k++) {
			/* In the counted pass, in the counter's counts. */
			uint64_t t0 = sample_counted ? pmc_open(pmc_counter)
						     : tsc_open(), t;

			(void)gap_loop(0, 1, UINT64_MAX, GAP_LOOP_PROBE * (k + 1));
			t = sample_counted ? counters_span(pmc_close(pmc_counter) - t0)
					   : tsc_close() - t0;
			if (t < fastest[k])
				fastest[k] = t;
		}
	if (fastest[1] <= fastest[0])
		return 0;
	return (fastest[1] - fastest[0] + GAP_LOOP_PROBE / 2) / GAP_LOOP_PROBE;
}

static void measure_gaps(void *arg)
{
	struct gap_run *g = arg;
	uint64_t done;

	/* Bare handlers: the gap is what the interrupt costs the loop, with
	 * no instrument inside the handler. */
	scheme_take_over(g->scheme, HANDLER_BARE);
	g->out->loop_median = loop_iteration();
	g->out->threshold = 3 * g->out->loop_median + 16;
	irq_reset_counts();
	g->noise = noise_snapshot();
	g->timer->start(g->timer, g->lines, g->vector);
	g->got = 0;
	for (done = 0; done < GAP_MAX_ITERATIONS && g->got < g->want;
	     done += GAP_CHUNK) {
		g->got += gap_loop(g->buf + g->got, g->want - g->got,
				   g->out->threshold, GAP_CHUNK);
		if (!g->got && irq_delivered[g->vector] >= g->want)
			break;
	}
	g->timer->stop(g->timer, g->lines);
	g->out->interrupts = irq_delivered[g->vector];
	g->out->noise_moved = noise_snapshot() != g->noise;
}

/* One pass of the loop under the row's scheme and timer, then the machine
 * put back as the next row expects it; nonzero when it faulted. */
static int gap_pass(struct gap_run *g, struct fault_info *fault)
{
	int faulted;

	irq_ack = source_ack_now(g->timer);
	faulted = guard_run(measure_gaps, g, fault);
	drain_pending_interrupts();
	irq_ack = IRQ_ACK_NONE;
	scheme_rest(g->scheme);
	return faulted;
}

/* What an ok gap row's figures include, said in its reason: a wide
 * histogram keeps the percentiles only, as an experiment row's does, and
 * stalls or noise are in its high percentiles. */
static void gap_note(struct gap_result *out)
{
	struct text_buf tb;

	tb_init(&tb, out->reason, sizeof(out->reason));
	if (!out->hist_len)
		tb_printf(&tb, "percentiles only: the histogram needs more than "
			  "%u bytes", GAP_HIST_BYTES);
	if (out->stalls)
		tb_printf(&tb, "%s%u gap(s) beyond the timer's %u interrupts "
			  "(stalls: SMIs or preemption) are in the high "
			  "percentiles", tb.len ? "; " : "", out->stalls,
			  out->interrupts);
	if (out->noise_moved)
		tb_printf(&tb, "%sthe SMI or NMI count moved during the loop",
			  tb.len ? "; " : "");
}

/* The counted pass of an ok gap row (docs/timing.md "Core cycles"): the
 * same loop on the cycle counter, its iteration and gaps kept in core
 * cycles; the TSC's figures stand whatever it finds. */
static void count_gaps(const struct gap_run *tsc, struct bench_buffers *b)
{
	struct gap_result scratch;
	struct gap_run g = *tsc;
	struct fault_info fault;

	if (!counters_counting())
		return;
	scratch = (struct gap_result){ .scheme = g.scheme->id };
	g.out = &scratch;
	g.buf = b->counted[0];
	g.got = 0;
	sample_counted = 1;
	counters_select(COUNTER_CYCLES);
	if (gap_pass(&g, &fault))
		g.got = 0;
	sample_counted = 0;
	if (g.got < g.want) {
		log_printf("gap method %s: the counted pass found %u of %u "
			   "gaps: not kept\n", scheme_name(g.scheme->id), g.got,
			   g.want);
		return;
	}
	tsc->out->cycles_loop_median = scratch.loop_median;
	stats_compute(g.buf, g.got, &tsc->out->cycles_gaps);
}

/* The scheme takes a periodic LAPIC timer while a TSC loop runs; the
 * loop's gaps are the full cost as the interrupted code sees it (seed
 * 000). */
void gap_run(const struct plan_row *p, struct run_result *r,
	     struct bench_buffers *b)
{
	static struct histogram hist;
	const struct dispatch_scheme *scheme = p->scheme;
	const struct irq_source *timer = p->source;
	struct gap_result *out = &r->gap[r->n_gaps++];
	struct gap_run g = { scheme, timer, p->lines, p->vector, p->samples,
			     b->metric[0], out, 0, 0 };
	struct fault_info fault;
	const char *why = scheme->unsupported ? scheme->unsupported() : 0;
	uint32_t k;

	*out = (struct gap_result){ .scheme = scheme->id };
	if (!why && (!timer || !source_runs_now(timer)))
		why = "needs the local APIC timer";
	if (why) {
		out->status = EXP_SKIPPED;
		fmt_snprintf(out->reason, sizeof(out->reason), "%s", why);
		return;
	}
	if (gap_pass(&g, &fault)) {
		out->status = EXP_FAILED;
		fault_describe(&fault, out->reason, sizeof(out->reason));
		return;
	}
	if (g.got < g.want && out->interrupts >= g.want) {
		/* The interrupts came, and cost the loop too little to be
		 * told from it: the gate floor under an instruction count.
		 * Nothing was measured, and the method is why. */
		out->status = EXP_SKIPPED;
		fmt_snprintf(out->reason, sizeof(out->reason),
			     "the timer's %u interrupts arrived, but %u cost the "
			     "loop more than the threshold (%llu): too cheap "
			     "for the gap method to see", out->interrupts,
			     g.got, (unsigned long long)out->threshold);
		return;
	}
	if (g.got < g.want) {
		out->status = EXP_TIMEOUT;
		fmt_snprintf(out->reason, sizeof(out->reason),
			     "%u of %u gaps within %llu loop reads", g.got,
			     g.want, (unsigned long long)GAP_MAX_ITERATIONS);
		return;
	}
	hist_clear(&hist);
	for (k = 0; k < g.got; k++)
		hist_add(&hist, g.buf[k]);
	stats_compute(g.buf, g.got, &out->gaps);
	out->hist_len = (uint16_t)hist_encode(&hist, out->hist,
					     sizeof(out->hist));
	out->status = EXP_OK;
	/* Every interrupt makes a gap; a gap beyond them is a stall. The
	 * last interrupt may come after the last gap was taken. */
	out->stalls = g.got > out->interrupts ? g.got - out->interrupts : 0;
	gap_note(out);
	count_gaps(&g, b);
	log_printf("gap method %s: %u gaps, %u interrupts, median %llu "
		   "(loop %llu)%s%s\n", scheme_name(scheme->id), g.got,
		   out->interrupts, (unsigned long long)out->gaps.median,
		   (unsigned long long)out->loop_median,
		   out->reason[0] ? "; " : "", out->reason);
}
