#include "bench/run/experiment.h"

#include "arch/dispatch/irq.h"
#include "arch/desc.h"
#include "arch/dispatch/schemes.h"
#include "arch/dispatch/variants.h"
#include "arch/primitives.h"
#include "arch/timing.h"
#include "apic/lapic.h"
#include "arch/exceptions.h"
#include "arch/noise.h"
#include "arch/cpu.h"
#include "arch/lib/log.h"
#include "arch/lib/fmt.h"
#include "bench/model/histogram.h"
#include "bench/run/sources.h"

/* Interrupts per register-integrity check vector; schemes are checked on
 * the configured vector and on 255, whose push imm8 sign-extends. */
#define REGISTER_CHECKS_PER_VECTOR 256
#define HIGH_CHECK_VECTOR 255

/* Why each LAPIC mode is not available, once tried (NULL: it is). */
static const char *mode_unavailable[3];
static enum lapic_mode mode_active;

static int source_runs_in(const struct irq_source *src, enum lapic_mode mode)
{
	switch (src->modes) {
	case SOURCE_NO_APIC:
		return 1;
	case SOURCE_XAPIC_ONLY:
		return mode == LAPIC_XAPIC;
	case SOURCE_X2APIC_ONLY:
		return mode == LAPIC_X2APIC;
	default:
		return mode != LAPIC_NONE;
	}
}

/* The mode a source is waiting for when it cannot run now. */
static enum lapic_mode wanted_mode(const struct irq_source *src)
{
	return src->modes == SOURCE_X2APIC_ONLY ? LAPIC_X2APIC : LAPIC_XAPIC;
}

static uint8_t ack_for(const struct irq_source *src)
{
	switch (src->ack) {
	case SOURCE_ACK_LAPIC:
		return mode_active == LAPIC_X2APIC ? IRQ_ACK_X2APIC_EOI
						   : IRQ_ACK_XAPIC_EOI;
	case SOURCE_ACK_PIC8259:
		return IRQ_ACK_PIC8259;
	case SOURCE_ACK_LEVEL_LINE:
		return IRQ_ACK_LEVEL_LINE;
	}
	return IRQ_ACK_NONE;
}

enum injected_fault {
	INJECT_NONE = 0,
	INJECT_IN_LOOP,		/* #UD in the measuring code */
	INJECT_IN_HANDLER,	/* #UD inside the scheme's dispatch path */
};

/* Self-test rows, run only with selftest_fault = 1: each raises #UD to
 * prove that an exception fails only its own experiment. */
static const struct {
	const char *name, *scheme;
	uint8_t inject;
} selftests[] = {
	{ "selftest-fault", "direct", INJECT_IN_LOOP },
	{ "selftest-fault-in-handler", "push-jmp", INJECT_IN_HANDLER },
};

/* One row of the matrix: a scheme (or an entry variant's handler), a
 * source, an optional cache state, and what it is compared with. */
struct plan {
	char name[RESULTS_NAME_LEN];
	char baseline[RESULTS_NAME_LEN];
	const struct dispatch_scheme *scheme;	/* NULL for entry variants */
	const struct entry_variant *entry;
	const struct cache_state *cache;
	const struct irq_source *source;
	uint8_t vector;
	uint8_t inject;
	uint8_t inject_smi;	/* self-test: one batch looks disturbed */
	uint32_t samples;
};

struct experiment_run {
	const struct plan *plan;
	const struct irqlab_config *config;
	struct bench_buffers *buf;
	struct experiment_result *out;
	struct cache_target target;
	char why[RESULTS_REASON_LEN];
	uint8_t check_failed;
	uint8_t timed_out;
	uint8_t started;	/* the source's start ran: its stop must */
};

static void install_all(const struct dispatch_scheme *s)
{
	unsigned v;

	for (v = FIRST_IRQ_VECTOR; v < 256; v++)
		scheme_install(s, (uint8_t)v);
}

static int check_one_vector(struct experiment_run *x, uint8_t v)
{
	if (irq_delivered[irq_last_vector] != 1 || irq_last_vector != v ||
	    !irq_arrived) {
		fmt_snprintf(x->why, sizeof(x->why),
			     "%s on vector %u was dispatched as vector %u%s",
			     x->plan->source->name, v, irq_last_vector,
			     irq_arrived ? "" : " (or not at all)");
		return -1;
	}
	x->out->vectors_verified++;
	return 0;
}

/* Every vector must reach the dispatcher as itself: all of 32-255 by
 * INT n; a sample of them for the other sources, routed afresh for each;
 * a fixed-vector source on its own vector. */
static int sweep_vectors(struct experiment_run *x)
{
	const struct irq_source *src = x->plan->source;
	struct irq_sample s;
	unsigned v, i;

	if (src->sweep_all) {
		for (v = FIRST_IRQ_VECTOR; v < 256; v++) {
			irq_reset_counts();
			irq_arrived = 0;
			int_trigger((uint8_t)v);
			if (check_one_vector(x, (uint8_t)v))
				return -1;
		}
		return 0;
	}
	for (i = 0; i < sizeof(source_check_vectors); i++) {
		uint8_t vector = src->vector ? src->vector : source_check_vectors[i];
		int bad;

		if (src->vector && i > 0)
			break;
		if (src->start)
			src->start(src, vector);
		irq_reset_counts();
		irq_arrived = 0;
		src->fire(vector, &s);
		if (src->stop)
			src->stop(src);
		bad = check_one_vector(x, vector);
		if (bad)
			return -1;
	}
	return 0;
}

/* The interrupted code's registers and flags must survive. */
static int check_registers(struct experiment_run *x, uint8_t vector)
{
	unsigned n;

	for (n = 0; n < REGISTER_CHECKS_PER_VECTOR; n++) {
		uint32_t changed = int_registers_intact(vector);

		if (changed) {
			fmt_snprintf(x->why, sizeof(x->why),
				     "registers changed across INT %u (mask "
				     "0x%x: bit 0 RAX .. 14 R15, 15 RFLAGS)",
				     vector, changed);
			return -1;
		}
		x->out->register_checks++;
	}
	return 0;
}

/* Installs what the row measures and checks it is correct. */
static int set_up_and_check(struct experiment_run *x)
{
	const struct plan *p = x->plan;

	if (p->entry) {
		if (p->entry->prepare)
			p->entry->prepare();
		idt_set_gate(VARIANT_VECTOR, p->entry->handler, 0);
		return check_registers(x, VARIANT_VECTOR);
	}
	if (p->scheme->prepare)
		p->scheme->prepare();
	install_all(p->scheme);
	if (p->cache)
		cache_target_for(p->scheme, p->vector, &x->target);
	return sweep_vectors(x) || check_registers(x, p->vector) ||
	       check_registers(x, HIGH_CHECK_VECTOR);
}

static void before_sample(const struct experiment_run *x)
{
	if (x->plan->cache)
		x->plan->cache->before_sample(&x->target);
	if (x->plan->entry && x->plan->entry->before_sample)
		x->plan->entry->before_sample();
}

/* Runs under guard_run: an exception here abandons this function. */
static void measure(void *arg)
{
	struct experiment_run *x = arg;
	const struct plan *p = x->plan;
	uint64_t *entry = x->buf->metric[METRIC_ENTRY];
	uint64_t *exit = x->buf->metric[METRIC_EXIT];
	uint64_t *round_trip = x->buf->metric[METRIC_ROUND_TRIP];
	struct irq_sample s;
	uint32_t i, kept;

	if (set_up_and_check(x)) {
		x->check_failed = 1;
		return;
	}
	if (p->source->start)
		p->source->start(p->source, p->vector);
	x->started = 1;
	irq_reset_counts();
	for (i = 0; i < x->config->warmup; i++) {
		irq_arrived = 0;
		p->source->fire(p->vector, &s);
	}
	if (p->inject == INJECT_IN_LOOP)
		cpu_ud2();
	if (p->inject == INJECT_IN_HANDLER)
		irq_fault_once = 1;
	for (kept = 0; kept < p->samples;) {
		uint32_t batch = p->samples - kept < NOISE_BATCH ?
					 p->samples - kept : NOISE_BATCH;
		uint64_t noise = noise_snapshot();

		if (p->inject_smi && kept == 0 && !x->out->discarded)
			noise_inject_smi();	/* the self-test's fake SMI */
		for (i = kept; i < kept + batch; i++) {
			before_sample(x);
			irq_arrived = 0;
			p->source->fire(p->vector, &s);
			if (!irq_arrived) {
				x->timed_out = 1;
				fmt_snprintf(x->why, sizeof(x->why),
					     "sample %u: the interrupt on vector %u "
					     "did not arrive within %u polls", i,
					     p->vector, IPI_WAIT_SPINS);
				return;
			}
			entry[i] = irq_timing.entry - s.trigger;
			exit[i] = s.resume - irq_timing.exit;
			round_trip[i] = s.resume - s.trigger;
		}
		if (noise_snapshot() != noise) {
			/* An SMI or NMI landed in this batch: take it again. */
			x->out->discarded += batch;
			if (++x->out->discarded_batches > NOISE_MAX_DISCARDS) {
				x->check_failed = 1;
				fmt_snprintf(x->why, sizeof(x->why),
					     "%u batches disturbed by SMIs or "
					     "NMIs: the machine is too noisy",
					     x->out->discarded_batches);
				return;
			}
			continue;
		}
		kept += batch;
	}
}

/* Puts the machine back as the next experiment expects it. */
static void tear_down(const struct plan *p, const struct experiment_run *x)
{
	if (x->started && p->source->stop)
		p->source->stop(p->source);
	if (p->entry && p->entry->finish)
		p->entry->finish();
	if (p->scheme && p->scheme->finish)
		p->scheme->finish();
	install_all(scheme_find("direct"));
	irq_fault_once = 0;
}

static void fail(struct experiment_result *e, const char *format, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct experiment_result *e, const char *format, ...)
{
	va_list ap;

	e->status = EXP_FAILED;
	va_start(ap, format);
	fmt_vsnprintf(e->reason, sizeof(e->reason), format, ap);
	va_end(ap);
}

static const char *unsupported(const struct plan *p)
{
	const char *why = 0;

	if (!source_runs_in(p->source, mode_active))
		return mode_unavailable[wanted_mode(p->source)] ?
			       mode_unavailable[wanted_mode(p->source)] :
			       "the local APIC is not in this source's mode";
	if (p->source->unsupported && (why = p->source->unsupported(p->source)))
		return why;

	if (p->scheme && p->scheme->unsupported)
		why = p->scheme->unsupported();
	if (!why && p->entry && p->entry->unsupported)
		why = p->entry->unsupported();
	if (!why && p->cache && p->cache->unsupported)
		why = p->cache->unsupported();
	return why;
}

static void run_one(const struct plan *p, struct run_result *r,
		    const struct irqlab_config *c, struct bench_buffers *b)
{
	struct experiment_result *e = &r->exp[r->n_experiments++];
	struct experiment_run x = { .plan = p, .config = c, .buf = b, .out = e };
	struct fault_info fault;
	const char *why = unsupported(p);
	uint32_t others = 0, expected;
	unsigned k, v;
	int faulted;

	*e = (struct experiment_result){ .vector = p->vector };
	fmt_snprintf(e->name, sizeof(e->name), "%s", p->name);
	fmt_snprintf(e->scheme, sizeof(e->scheme), "%s",
		     p->scheme ? p->scheme->name : "direct");
	fmt_snprintf(e->source, sizeof(e->source), "%s", p->source->name);
	fmt_snprintf(e->variant, sizeof(e->variant), "%s",
		     p->entry ? p->entry->name : p->cache ? p->cache->name : "");
	fmt_snprintf(e->baseline, sizeof(e->baseline), "%s", p->baseline);
	e->apic_mode = (uint8_t)mode_active;
	if (why) {
		e->status = EXP_SKIPPED;
		fmt_snprintf(e->reason, sizeof(e->reason), "%s", why);
		log_printf("experiment %s: skipped: %s\n", p->name, why);
		return;
	}

	log_printf("experiment %s: %u warm-up + %u samples on vector %u\n",
		   p->name, c->warmup, p->samples, p->vector);
	irq_ack = ack_for(p->source);
	faulted = guard_run(measure, &x, &fault);
	tear_down(p, &x);
	irq_ack = IRQ_ACK_NONE;

	if (faulted) {
		e->status = EXP_FAILED;
		fault_describe(&fault, e->reason, sizeof(e->reason));
		e->delivered = irq_delivered[p->vector];
		log_printf("experiment %s: failed: %s\n", p->name, e->reason);
		return;
	}
	if (x.check_failed || x.timed_out) {
		fail(e, "%s", x.why);
		if (x.timed_out)
			e->status = EXP_TIMEOUT;
		log_printf("experiment %s: %s: %s\n", p->name,
			   exp_status_name(e->status), e->reason);
		return;
	}

	e->delivered = irq_delivered[p->vector];
	expected = c->warmup + p->samples + e->discarded;
	for (v = 0; v < 256; v++)
		if (v != p->vector)
			others += irq_delivered[v];
	for (k = 0; k < METRIC_COUNT; k++)
		stats_compute(b->metric[k], p->samples, &e->metric[k]);
	if (e->delivered != expected)
		fail(e, "delivered %u interrupts on vector %u, expected %u",
		     e->delivered, p->vector, expected);
	else if (others)
		fail(e, "%u interrupts arrived on other vectors (%u spurious)",
		     others, irq_delivered[APIC_SPURIOUS_VECTOR]);
	else if (p->source->modes != SOURCE_NO_APIC &&
		 lapic_check_quiet(x.why, sizeof(x.why)))
		fail(e, "%s", x.why);
	else
		e->status = EXP_OK;
	log_printf("experiment %s: %s, round trip median %llu (raw)\n", p->name,
		   exp_status_name(e->status),
		   (unsigned long long)e->metric[METRIC_ROUND_TRIP].median);
}

void bench_measure_floor(struct run_result *r, const struct irqlab_config *c,
			 struct bench_buffers *b)
{
	uint32_t i;

	for (i = 0; i < c->warmup && i < c->floor_samples; i++)
		(void)tsc_floor_sample();
	for (i = 0; i < c->floor_samples; i++)
		b->floor[i] = tsc_floor_sample();
	stats_compute(b->floor, c->floor_samples, &r->floor);
}

/* Runs one row; returns -1 when the results table is full. */
static int run_planned(const struct plan *p, struct run_result *r,
		       const struct irqlab_config *c, struct bench_buffers *b)
{
	if (r->n_experiments >= RESULTS_MAX_EXPERIMENTS) {
		log_printf("experiment %s: not run: results table full\n",
			   p->name);
		return -1;
	}
	run_one(p, r, c, b);
	return 0;
}

static uint32_t at_most(uint32_t want, uint32_t cap)
{
	return want < cap ? want : cap;
}

/* Every scheme (or only direct) on one source. A source that cannot run
 * here gets one skipped row, not one per scheme. */
static int run_source(const struct irq_source *src, struct run_result *r,
		      const struct irqlab_config *c, struct bench_buffers *b)
{
	struct plan probe = { .source = src };
	int all = src->every_scheme && !unsupported(&probe);
	/* Rows of a source measured in both modes say which one. */
	const char *suffix = src->modes == SOURCE_EITHER_APIC &&
				     mode_active == LAPIC_X2APIC ? "@x2apic" : "";
	size_t s;

	for (s = 0; s < dispatch_scheme_count; s++) {
		struct plan q = { .scheme = &dispatch_schemes[s], .source = src,
				  .vector = src->vector ? src->vector : c->int_vector,
				  .samples = c->samples };

		if (!all && s != 0)
			break;
		if (s > 0 && q.scheme->unsupported && q.scheme->unsupported() &&
		    src != &irq_sources[0])
			continue;	/* its skipped row is under "int" */
		fmt_snprintf(q.name, sizeof(q.name), "%s-%s%s", src->name,
			     q.scheme->name, suffix);
		q.inject_smi = c->selftest_smi && src == &irq_sources[0] && s == 0;
		fmt_snprintf(q.baseline, sizeof(q.baseline), "%s-direct%s",
			     src->name, suffix);
		if (run_planned(&q, r, c, b))
			return -1;
	}
	return 0;
}

static int run_entry_variants(struct run_result *r,
			      const struct irqlab_config *c,
			      struct bench_buffers *b)
{
	size_t i;

	for (i = 0; i < entry_variant_count; i++) {
		struct plan q = { .entry = &entry_variants[i],
				  .source = &irq_sources[0],
				  .vector = VARIANT_VECTOR,
				  .samples = c->samples };

		fmt_snprintf(q.name, sizeof(q.name), "int-direct+%s",
			     q.entry->name);
		fmt_snprintf(q.baseline, sizeof(q.baseline), "int-direct+%s",
			     entry_variants[0].name);
		if (run_planned(&q, r, c, b))
			return -1;
	}
	return 0;
}

static int run_cache_states(struct run_result *r, const struct irqlab_config *c,
			    struct bench_buffers *b)
{
	size_t i, s;

	for (i = 0; i < cache_state_count; i++)
		for (s = 0; s < dispatch_scheme_count; s++) {
			const struct dispatch_scheme *scheme = &dispatch_schemes[s];
			int thrash = str_eq(cache_states[i].name, "thrash");
			struct plan q = { .scheme = scheme,
					  .cache = &cache_states[i],
					  .source = &irq_sources[0],
					  .vector = c->int_vector };

			/* Rows that cannot run warm are not repeated cold. */
			if (scheme->unsupported && scheme->unsupported())
				continue;
			q.samples = at_most(thrash ? c->thrash_samples
						   : c->cold_samples,
					    c->samples);
			fmt_snprintf(q.name, sizeof(q.name), "int-%s+%s",
				     scheme->name, q.cache->name);
			fmt_snprintf(q.baseline, sizeof(q.baseline), "int-%s",
				     scheme->name);
			if (run_planned(&q, r, c, b))
				return -1;
		}
	return 0;
}

/* seed 004's last row: the value-cached IO-APIC with the CPU caches
 * thrashed between interrupts. */
static int run_cached_level_thrashed(struct run_result *r,
				     const struct irqlab_config *c,
				     struct bench_buffers *b)
{
	size_t i, k;

	for (i = 0; i < irq_source_count; i++) {
		if (!str_eq(irq_sources[i].name, "ioapic-level-value-cached"))
			continue;
		for (k = 0; k < cache_state_count; k++) {
			struct plan q = { .scheme = scheme_find("direct"),
					  .cache = &cache_states[k],
					  .source = &irq_sources[i],
					  .vector = c->int_vector,
					  .samples = at_most(c->thrash_samples,
							     c->samples) };

			if (!str_eq(cache_states[k].name, "thrash"))
				continue;
			fmt_snprintf(q.name, sizeof(q.name), "%s-direct+thrash",
				     irq_sources[i].name);
			fmt_snprintf(q.baseline, sizeof(q.baseline), "%s-direct",
				     irq_sources[i].name);
			return run_planned(&q, r, c, b);
		}
	}
	return 0;
}

/* --- the gap method --------------------------------------------------- */

#define GAP_LOOP_PROBE 1000		/* undisturbed reads measured first */
#define GAP_MAX_ITERATIONS 400000000ull	/* bound on the loop */

struct gap_run {
	const struct dispatch_scheme *scheme;
	const struct irq_source *timer;
	uint8_t vector;
	uint32_t want;
	uint64_t *buf;
	struct gap_result *out;
	uint32_t got;
};

static void measure_gaps(void *arg)
{
	struct gap_run *g = arg;
	uint32_t n;

	if (g->scheme->prepare)
		g->scheme->prepare();
	install_all(g->scheme);
	/* Threshold 0 and no interrupt armed: every delta is a plain loop
	 * iteration. */
	n = gap_loop(g->buf, GAP_LOOP_PROBE, 0, GAP_LOOP_PROBE);
	stats_sort(g->buf, n);
	g->out->loop_median = stats_percentile_sorted(g->buf, n, STATS_P50);
	g->out->threshold = 3 * g->out->loop_median + 16;
	g->timer->start(g->timer, g->vector);
	g->got = gap_loop(g->buf, g->want, g->out->threshold, GAP_MAX_ITERATIONS);
	g->timer->stop(g->timer);
}

/* Every runnable scheme takes a periodic LAPIC timer while a TSC loop
 * runs; the loop's gaps are the full cost as the interrupted code sees
 * it (seed 000). */
static void run_gap_method(struct run_result *r, const struct irqlab_config *c,
			   struct bench_buffers *b)
{
	static struct histogram hist;
	const struct irq_source *timer = 0;
	size_t s, i;

	for (i = 0; i < irq_source_count; i++)
		if (str_eq(irq_sources[i].name, "lapic-periodic"))
			timer = &irq_sources[i];
	for (s = 0; s < dispatch_scheme_count && r->n_gaps < RESULTS_MAX_GAPS; s++) {
		const struct dispatch_scheme *scheme = &dispatch_schemes[s];
		struct gap_result *out = &r->gap[r->n_gaps++];
		struct gap_run g = { scheme, timer, c->int_vector,
				     at_most(c->gap_samples, c->samples),
				     b->metric[0], out, 0 };
		struct fault_info fault;
		const char *why = scheme->unsupported ? scheme->unsupported() : 0;
		uint32_t k;

		*out = (struct gap_result){ 0 };
		fmt_snprintf(out->scheme, sizeof(out->scheme), "%s", scheme->name);
		if (!why && (!timer || mode_active == LAPIC_NONE))
			why = "needs the local APIC timer";
		if (why) {
			out->status = EXP_SKIPPED;
			fmt_snprintf(out->reason, sizeof(out->reason), "%s", why);
			continue;
		}
		irq_ack = ack_for(timer);
		if (guard_run(measure_gaps, &g, &fault)) {
			out->status = EXP_FAILED;
			fault_describe(&fault, out->reason, sizeof(out->reason));
		}
		irq_ack = IRQ_ACK_NONE;
		if (scheme->finish)
			scheme->finish();
		install_all(scheme_find("direct"));
		if (out->status == EXP_FAILED)
			continue;
		if (g.got < g.want) {
			out->status = EXP_TIMEOUT;
			fmt_snprintf(out->reason, sizeof(out->reason),
				     "%u of %u gaps within %llu loop reads", g.got,
				     g.want, (unsigned long long)GAP_MAX_ITERATIONS);
			continue;
		}
		hist_clear(&hist);
		for (k = 0; k < g.got; k++)
			hist_add(&hist, g.buf[k]);
		stats_compute(g.buf, g.got, &out->gaps);
		out->hist_len = (uint16_t)hist_encode(&hist, out->hist,
						     sizeof(out->hist));
		out->status = out->hist_len ? EXP_OK : EXP_FAILED;
		if (!out->hist_len)
			fmt_snprintf(out->reason, sizeof(out->reason),
				     "the histogram needs more than %u bytes",
				     GAP_HIST_BYTES);
		log_printf("gap method %s: %u gaps, median %llu (loop %llu)\n",
			   scheme->name, g.got,
			   (unsigned long long)out->gaps.median,
			   (unsigned long long)out->loop_median);
	}
}

static int run_selftests(struct run_result *r, const struct irqlab_config *c,
			 struct bench_buffers *b)
{
	size_t i;

	for (i = 0; c->selftest_fault && i < sizeof(selftests) / sizeof(selftests[0]);
	     i++) {
		struct plan q = { .scheme = scheme_find(selftests[i].scheme),
				  .source = &irq_sources[0],
				  .vector = c->int_vector,
				  .inject = selftests[i].inject,
				  .samples = c->samples };

		fmt_snprintf(q.name, sizeof(q.name), "%s", selftests[i].name);
		if (run_planned(&q, r, c, b))
			return -1;
	}
	return 0;
}

/* The sources that run in `mode` (and, before the APIC is touched, those
 * that need none). A source that cannot run in any mode this machine has
 * still gets its skipped row, under the mode it wants. */
static int run_sources_of_mode(enum lapic_mode mode, struct run_result *r,
			       const struct irqlab_config *c,
			       struct bench_buffers *b)
{
	size_t i;

	for (i = 0; i < irq_source_count; i++) {
		const struct irq_source *src = &irq_sources[i];
		int here;

		if (mode == LAPIC_NONE)
			here = src->modes == SOURCE_NO_APIC;
		else if (src->modes == SOURCE_EITHER_APIC)
			/* again in x2APIC mode only if that mode came up */
			here = mode == LAPIC_XAPIC || mode_active == LAPIC_X2APIC;
		else
			here = src->modes != SOURCE_NO_APIC &&
			       source_runs_in(src, mode);
		if (here && run_source(src, r, c, b))
			return -1;
	}
	return 0;
}

struct mode_switch {
	enum lapic_mode mode;
	const char *why;
};

static void enable_mode(void *arg)
{
	struct mode_switch *m = arg;

	m->why = lapic_enable(m->mode);
}

/* Under the guard: firmware can lock the APIC in x2APIC mode, and then
 * the write that leaves it raises #GP (SDM vol. 3 §11.12.5). */
static void switch_mode(enum lapic_mode mode)
{
	struct mode_switch m = { mode, 0 };
	struct fault_info fault;

	if (guard_run(enable_mode, &m, &fault)) {
		m.why = fault.vector == VECTOR_GP ?
				"switching the local APIC mode raised #GP (the "
				"firmware may have locked x2APIC mode)" :
				"switching the local APIC mode raised an exception";
		/* The APIC is in an unknown state: nothing may rely on it. */
		mode_active = LAPIC_NONE;
	}
	mode_unavailable[mode] = m.why;
	if (!mode_unavailable[mode])
		mode_active = mode;
	log_printf("local APIC: %s %s%s\n", lapic_name(mode),
		   mode_unavailable[mode] ? "unavailable: " : "enabled",
		   mode_unavailable[mode] ? mode_unavailable[mode] : "");
}

/* The matrix, in order: INT n under every scheme; then in xAPIC mode its
 * self-IPI under every scheme; the entry variants; every scheme in every
 * cache state; then, x2APIC being a one-way switch (FACTS §4), the x2APIC
 * sources; the self-tests last. */
void bench_run_all(struct run_result *r, const struct irqlab_config *c,
		   struct bench_buffers *b)
{
	if (run_sources_of_mode(LAPIC_NONE, r, c, b))
		return;
	switch_mode(LAPIC_XAPIC);
	if (run_sources_of_mode(LAPIC_XAPIC, r, c, b) ||
	    run_entry_variants(r, c, b) || run_cache_states(r, c, b) ||
	    run_cached_level_thrashed(r, c, b))
		return;
	run_gap_method(r, c, b);
	switch_mode(LAPIC_X2APIC);
	if (run_sources_of_mode(LAPIC_X2APIC, r, c, b))
		return;
	run_selftests(r, c, b);
}

struct primitive_run {
	const struct primitive *p;
	uint64_t *blocks;
	uint32_t n;
};

static void time_primitive(void *arg)
{
	struct primitive_run *x = arg;
	uint32_t i;

	(void)x->p->block();	/* warm the code and the stack */
	for (i = 0; i < x->n; i++)
		x->blocks[i] = x->p->block();
}

void bench_run_primitives(struct run_result *r, const struct irqlab_config *c,
			  struct bench_buffers *b)
{
	size_t i;

	_Static_assert(PRIMITIVE_REPS == PRIMITIVE_BLOCK_REPS,
		       "the report divides by the same block size");
	for (i = 0; i < primitive_count && r->n_primitives < RESULTS_MAX_PRIMITIVES;
	     i++) {
		const struct primitive *p = &primitives[i];
		struct primitive_result *out = &r->prim[r->n_primitives++];
		struct primitive_run x = { p, b->floor, c->primitive_blocks };
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
	}
	sources_time_ioapic_sequences(r, b->floor, c->primitive_blocks);
	log_printf("primitives: %u timed\n", r->n_primitives);
}


enum clock_kind bench_detect_clock(const struct machine_info *m)
{
	uint64_t first_short = 0, first_long = 0;
	int exact = 1, trial;

	/* Only QEMU's TCG signature can mean an emulated TSC; KVM and bare
	 * metal give real ticks. */
	if (!str_eq(m->hypervisor, "TCGTCGTCGTCG"))
		return CLOCK_TSC_TICKS;
	/* Under -icount shift=0 the TSC counts instructions: every trial
	 * agrees, and 1024 more NOPs read exactly 1024 more ticks. */
	for (trial = 0; trial < 8; trial++) {
		uint64_t s = tsc_nop_probe_short(), l = tsc_nop_probe_long();

		if (trial == 0) {
			first_short = s;
			first_long = l;
		} else if (s != first_short || l != first_long) {
			exact = 0;
		}
	}
	if (exact && first_long - first_short == NOP_PROBE_DIFFERENCE)
		return CLOCK_ICOUNT;
	return CLOCK_TCG_NOISE;
}
