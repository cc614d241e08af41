#include "bench/run/experiment.h"

#include "apic/lapic.h"
#include "arch/cpu.h"
#include "arch/desc.h"
#include "arch/dispatch/irq.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/noise.h"
#include "bench/model/axes.h"
#include "bench/model/pmu.h"
#include "bench/run/counters.h"
#include "bench/run/counters_firmware.h"
#include "arch/timing.h"
#include "bench/run/apic_mode.h"

/* One experiment row while it is measured: its plan, where its figures
 * go, and how far it got. */
struct row_measurement {
	const struct plan_row *plan;
	const struct irqlab_config *config;
	struct bench_buffers *buf;
	struct experiment_result *out;
	struct cache_target target;
	char why[RESULTS_REASON_LEN];
	uint8_t check_failed;
	uint8_t timed_out;
	uint8_t started;	/* the source's start ran: its stop must */
	uint8_t counted;	/* the counted pass runs (counters_counting) */
	uint8_t passes;		/* passes begun: each delivers warm-up +
				 * samples interrupts */
};


static int check_one_vector(struct row_measurement *measuring, uint8_t v)
{
	const struct irq_source *src = measuring->plan->source;
	uint32_t got = irq_delivered[v], others = 0;
	unsigned u;

	/* The APIC's spurious vector is no delivery of anyone's (SDM vol. 3
	 * §11.9): it is counted, never a failure. */
	for (u = 0; u < 256; u++)
		if (u != v && u != APIC_SPURIOUS_VECTOR)
			others += irq_delivered[u];
	/* Exactly one interrupt, on `v`; a source that repeats may raise
	 * it again before its wait closes, on the same vector. */
	if (!irq_arrived || others || got == 0 ||
	    (got > 1 && !src->repeats)) {
		fmt_snprintf(measuring->why, sizeof(measuring->why),
			     "%s on vector %u: %u interrupt(s) on it, %u on "
			     "others, the last on vector %u%s", source_name(src->id), v,
			     got, others, irq_last_vector,
			     irq_arrived ? "" : " (none arrived in time)");
		if (!irq_arrived && src->when_lost) {
			struct text_buf tb;

			tb_continue(&tb, measuring->why,
				    sizeof(measuring->why));
			tb_printf(&tb, "; %s", src->when_lost);
		}
		return -1;
	}
	measuring->out->vectors_verified++;
	return 0;
}

/* Every vector must reach the dispatcher as itself: all of 32-255 by
 * INT n; a sample of them for the other sources, routed afresh for each;
 * a fixed-vector source on its own vector. */
static int sweep_vectors(struct row_measurement *measuring)
{
	const struct irq_source *src = measuring->plan->source;
	struct irq_sample s;
	unsigned v, i;

	if (src->kind == SOURCE_RAISED_BY_INSTRUCTION) {
		for (v = FIRST_IRQ_VECTOR; v < 256; v++) {
			irq_reset_counts();
			irq_arrived = 0;
			int_trigger((uint8_t)v);
			if (check_one_vector(measuring, (uint8_t)v))
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
			src->start(src, measuring->plan->lines, vector);
		irq_reset_counts();
		irq_arrived = 0;
		src->fire(measuring->plan->lines, vector, &s);
		bad = check_one_vector(measuring, vector);
		if (src->stop)
			src->stop(src, measuring->plan->lines);
		drain_pending_interrupts();
		if (bad)
			return -1;
	}
	return 0;
}

/* int_registers_check's bits (arch/timing.S), in order. */
static const char *const checked_registers[] = {
	"RAX", "RBX", "RCX", "RDX", "RSI", "RDI", "RBP", "R8", "R9", "R10",
	"R11", "R12", "R13", "R14", "R15", "RFLAGS" };

/* The interrupted code's registers and flags must survive; the reason
 * names those that did not. */
static int check_registers(struct row_measurement *measuring, uint8_t vector)
{
	unsigned n, bit;

	for (n = 0; n < REGISTER_CHECKS_PER_VECTOR; n++) {
		uint32_t changed = int_registers_intact(vector);
		char names[96];
		size_t at = 0;

		if (!changed) {
			measuring->out->register_checks++;
			continue;
		}
		names[0] = 0;
		for (bit = 0; bit < 16; bit++)
			if (changed & (1u << bit) && at < sizeof(names))
				at += (size_t)fmt_snprintf(
					names + at, sizeof(names) - at, "%s%s",
					at ? " " : "", checked_registers[bit]);
		fmt_snprintf(measuring->why, sizeof(measuring->why),
			     "registers changed across INT %u: %s", vector,
			     names);
		return -1;
	}
	return 0;
}

/* A file of yours (docs/your-entry.md), through its checked handler:
 * the register check, then the stack as each part left it. An
 * unbalanced stack is named first, since it is the cause where both
 * fail: a part that pops what it did not push also changes a register. */
static int check_yours(struct row_measurement *measuring)
{
	const struct entry_variant *v = measuring->plan->entry;
	long long pushed, popped;
	int registers_lost;

	idt_set_gate(VARIANT_VECTOR, v->checked, 0);
	yours_stack = (struct yours_stack){ 0 };
	registers_lost = check_registers(measuring, VARIANT_VECTOR);
	pushed = (long long)(yours_stack.at_entry - yours_stack.after_entry);
	popped = (long long)(yours_stack.after_exit - yours_stack.before_exit);
	if (yours_stack.after_exit &&
	    yours_stack.after_exit != yours_stack.at_entry) {
		fmt_snprintf(measuring->why, sizeof(measuring->why),
			     "the stack is unbalanced: the entry part pushes "
			     "%lld bytes and the exit part pops %lld, so "
			     "iretq would find RSP %lld bytes off its frame",
			     pushed, popped, pushed - popped);
		return -1;
	}
	return registers_lost;
}

/* Points the row's vector (or every vector) at its handlers of one kind. */
static void install(struct row_measurement *measuring, enum handler_kind kind)
{
	const struct plan_row *p = measuring->plan;

	if (p->entry) {
		idt_set_gate(VARIANT_VECTOR, p->entry->handler[kind], 0);
		if (p->cache)
			cache_target_for_variant(p->entry, kind,
						 &measuring->target);
		return;
	}
	scheme_install_all(p->scheme, kind);
	if (p->cache)
		cache_target_for(p->scheme, p->vector, kind,
				 &measuring->target);
}

/* Every vector reaches the handlers of this kind as itself, and the
 * interrupted code's registers survive them. */
static int check(struct row_measurement *measuring, enum handler_kind kind)
{
	const struct plan_row *p = measuring->plan;

	install(measuring, kind);
	if (p->entry)
		return check_registers(measuring, VARIANT_VECTOR);
	return sweep_vectors(measuring) ||
	       check_registers(measuring, p->vector) ||
	       check_registers(measuring, HIGH_CHECK_VECTOR);
}

/* Prepares what the row measures, once (tear_down undoes it once), and
 * checks both kinds of handler; each pass then only swaps the gates. */
static int set_up_and_check(struct row_measurement *measuring)
{
	const struct plan_row *p = measuring->plan;

	if (p->entry && p->entry->prepare)
		p->entry->prepare();
	if (p->scheme && p->scheme->prepare)
		p->scheme->prepare();
	return (p->entry && p->entry->checked && check_yours(measuring)) ||
	       check(measuring, HANDLER_BARE) ||
	       check(measuring, HANDLER_TIMED) ||
	       (measuring->counted && check(measuring, HANDLER_COUNTED));
}

static void before_sample(const struct row_measurement *measuring)
{
	if (measuring->plan->cache)
		measuring->plan->cache->before_sample(&measuring->target);
	if (measuring->plan->entry && measuring->plan->entry->before_sample)
		measuring->plan->entry->before_sample();
}

void experiment_note_clock_ratio(struct experiment_result *e,
				 const struct clock_reading *before)
{
	struct clock_reading after;
	uint32_t milli;

	if (!counters_ratio_available())
		return;
	counters_read(&after);
	milli = pmu_ratio_milli(after.aperf - before->aperf,
				after.mperf - before->mperf);
	if (!milli)
		return;
	if (!e->clock_ratio_low || milli < e->clock_ratio_low)
		e->clock_ratio_low = milli;
	if (milli > e->clock_ratio_high)
		e->clock_ratio_high = milli;
}

/* One pass: warm-up, then the row's samples in noise batches, through
 * handlers of one kind, into m (by enum metric_id). The timed handlers,
 * and the counted ones, give entry, exit and their own round trip; the
 * bare ones the round trip with no instrument inside. Returns -1 when
 * the row must stop (measuring->why says why). */
static int take_samples(struct row_measurement *measuring,
			enum handler_kind kind, uint64_t *const *m)
{
	const struct plan_row *p = measuring->plan;
	struct irq_sample s;
	uint32_t i, kept, batches_kept = 0;

	measuring->passes++;
	install(measuring, kind);
	for (i = 0; i < measuring->config->warmup; i++) {
		irq_arrived = 0;
		p->source->fire(p->lines, p->vector, &s);
	}
	if (kind == HANDLER_TIMED && p->inject == INJECT_IN_LOOP)
		cpu_ud2();
	if (kind == HANDLER_TIMED && p->inject == INJECT_IN_HANDLER)
		irq_fault_once = 1;
	for (kept = 0; kept < p->samples;) {
		uint32_t batch = p->samples - kept < NOISE_BATCH ?
					 p->samples - kept : NOISE_BATCH;
		uint64_t noise = noise_snapshot();
		/* A batch ends at NOISE_BATCH samples or NOISE_BATCH_MS,
		 * whichever comes first: a periodic SMI then disturbs one
		 * short batch, not nearly every long one. */
		uint64_t batch_end = tsc_close() + wait_budget_ticks /
							 WAIT_BUDGET_MS *
							 NOISE_BATCH_MS;
		struct clock_reading clock_before = { 0, 0 };

		if (counters_ratio_available())
			counters_read(&clock_before);

		if (p->inject_smi && kind == HANDLER_TIMED && kept == 0 &&
		    !measuring->out->discarded)
			noise_inject_smi();	/* the self-test's fake SMI */
		for (i = kept; i < kept + batch; i++) {
			before_sample(measuring);
			irq_arrived = 0;
			p->source->fire(p->lines, p->vector, &s);
			if (!irq_arrived) {
				measuring->timed_out = 1;
				fmt_snprintf(measuring->why,
					     sizeof(measuring->why),
					     "sample %u: the interrupt on vector %u "
					     "did not arrive within %u ms%s%s", i,
					     p->vector, WAIT_BUDGET_MS,
					     p->source->when_lost ? "; " : "",
					     p->source->when_lost ?
						     p->source->when_lost : "");
				return -1;
			}
			if (kind == HANDLER_BARE) {
				m[METRIC_ROUND_TRIP][i] =
					counters_sample_span(s.trigger, s.resume);
			} else {
				m[METRIC_ENTRY][i] =
					counters_sample_span(s.trigger, irq_timing.entry);
				m[METRIC_EXIT][i] =
					counters_sample_span(irq_timing.exit, s.resume);
				m[METRIC_ROUND_TRIP_TIMED][i] =
					counters_sample_span(s.trigger, s.resume);
			}
			if (tsc_close() > batch_end) {
				i++;
				break;
			}
		}
		batch = i - kept;
		if (noise_snapshot() != noise) {
			/* An SMI or NMI landed in this batch: take it again. */
			measuring->out->discarded += batch;
			/* Too noisy once the disturbed batches are both many
			 * and more than the kept ones. */
			if (++measuring->out->discarded_batches >
				    NOISE_MAX_DISCARDS &&
			    measuring->out->discarded_batches > batches_kept) {
				measuring->check_failed = 1;
				fmt_snprintf(measuring->why,
					     sizeof(measuring->why),
					     "%u batches disturbed by SMIs or "
					     "NMIs: the machine is too noisy",
					     measuring->out->discarded_batches);
				return -1;
			}
			continue;
		}
		experiment_note_clock_ratio(measuring->out, &clock_before);
		kept += batch;
		batches_kept++;
	}
	return 0;
}

void experiment_counted_passes(void *row, const struct bench_buffers *b,
			       int (*take)(void *row, enum handler_kind kind,
					   uint64_t *const *m))
{
	uint64_t *const *c = b->counted;
	uint64_t *instructions[METRIC_COUNT] = {
		[METRIC_ROUND_TRIP] = c[COUNTED_INSTRUCTIONS] };

	counters_pass_begins();
	sample_counted = 1;
	counters_select(COUNTER_CYCLES);
	if (take(row, HANDLER_COUNTED, c) == 0 &&
	    take(row, HANDLER_BARE, c) == 0) {
		counters_select(COUNTER_INSTRUCTIONS);
		(void)take(row, HANDLER_BARE, instructions);
	}
	sample_counted = 0;
	(void)counters_pass_ends();
}

static int take_samples_of(void *row, enum handler_kind kind,
			   uint64_t *const *m)
{
	return take_samples(row, kind, m);
}

/* Runs under guard_run: an exception here abandons this function. */
static void measure(void *arg)
{
	struct row_measurement *measuring = arg;
	const struct plan_row *p = measuring->plan;

	if (set_up_and_check(measuring)) {
		measuring->check_failed = 1;
		return;
	}
	if (p->source->start)
		p->source->start(p->source, p->lines, p->vector);
	measuring->started = 1;
	irq_reset_counts();
	if (take_samples(measuring, HANDLER_TIMED, measuring->buf->metric) ||
	    take_samples(measuring, HANDLER_BARE, measuring->buf->metric) ||
	    !measuring->counted)
		return;
	experiment_counted_passes(measuring, measuring->buf, take_samples_of);
}

/* Puts the machine back as the next experiment expects it. */
static void tear_down(const struct plan_row *p,
		      const struct row_measurement *measuring)
{
	if (measuring->started && p->source->stop)
		p->source->stop(p->source, p->lines);
	if (measuring->started)
		drain_pending_interrupts();
	if (p->entry && p->entry->finish)
		p->entry->finish();
	scheme_rest(p->scheme);
	irq_fault_once = 0;
	sample_counted = 0;
}

static const char *unsupported(const struct plan_row *p)
{
	const char *why = 0;

	if (!source_runs_now(p->source))
		return source_mode_reason(p->source);
	if (p->source->unsupported && (why = p->source->unsupported(p->source,
							      p->lines)))
		return why;

	if (p->scheme && p->scheme->unsupported)
		why = p->scheme->unsupported();
	if (!why && p->entry && p->entry->unsupported)
		why = p->entry->unsupported();
	if (!why && p->cache && p->cache->unsupported)
		why = p->cache->unsupported();
	return why;
}

/* One floor: `probe` floor_samples times after a warm-up, its raw
 * deltas (the TSC's), or with `counted` each taken modulo the counters'
 * width. */
void experiment_floor(uint64_t (*probe)(void), int counted,
		     const struct irqlab_config *c, struct bench_buffers *b,
		     struct sample_stats *out)
{
	uint32_t i;

	for (i = 0; i < c->warmup && i < c->floor_samples; i++)
		(void)probe();
	for (i = 0; i < c->floor_samples; i++)
		b->floor[i] = counted ? counters_span(probe()) : probe();
	stats_compute(b->floor, c->floor_samples, out);
}

/* The fault, and where a file of yours faulted, which of its parts and
 * how far in. */
static void describe_fault(const struct plan_row *p,
			   const struct fault_info *f, char *out, size_t cap)
{
	const struct entry_variant *v = p->entry;
	const char *rip = (const char *)(uintptr_t)f->rip;
	const char *part = 0, *from = 0;
	size_t at;

	if (v && v->checked && rip >= v->entry_part[0] &&
	    rip < v->entry_part[1])
		part = "entry", from = v->entry_part[0];
	else if (v && v->checked && rip >= v->exit_part[0] &&
		 rip < v->exit_part[1])
		part = "exit", from = v->exit_part[0];
	if (part) {
		at = (size_t)fmt_snprintf(out, cap, "%s's %s part, at +0x%llx: ",
					  variant_name(v->id), part,
					  (unsigned long long)(rip - from));
		if (at < cap)
			fault_describe(f, out + at, (unsigned)(cap - at));
		return;
	}
	fault_describe(f, out, (unsigned)cap);
}

void experiment_run(const struct plan_row *p, struct run_result *r,
		    const struct irqlab_config *c, struct bench_buffers *b)
{
	struct experiment_result *e = experiment_open(p, r, unsupported(p));
	struct row_measurement measuring = {
		.plan = p, .config = c, .buf = b, .out = e,
		.counted = (uint8_t)counters_counting() };
	struct fault_info fault;
	int faulted;

	if (e->status == EXP_SKIPPED)
		return;

	log_printf("experiment %s: %u warm-up + %u samples on vector %u\n",
		   p->name, c->warmup, p->samples, p->vector);
	irq_ack = source_ack_now(p->source);
	faulted = guard_run(measure, &measuring, &fault);
	tear_down(p, &measuring);
	irq_ack = IRQ_ACK_NONE;
	if (faulted)
		describe_fault(p, &fault, measuring.why, sizeof(measuring.why));
	experiment_close(p, r, e, c, b, irq_delivered,
			 faulted || measuring.check_failed || measuring.timed_out
				 ? measuring.why : NULL,
			 measuring.timed_out, faulted, measuring.passes);
}
