/* The i386 rows, run in the 32-bit protected-mode phase
 * (docs/protected-mode.md). Each trip out of long mode does one job
 * (arch/protected.h); this side decides which, as experiment.c does for
 * long mode: every vector must arrive as itself, the registers must
 * survive, then the samples, in noise batches, through the timed
 * handlers and then the bare ones. */
#include "bench/run/experiment.h"

#include "apic/lapic.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/noise.h"
#include "arch/protected.h"
#include "arch/timing.h"
#include "bench/run/apic_mode.h"
#include "bench/run/counters.h"
#include "bench/run/protected_trigger.h"
#include "bench/run/sources.h"

struct i386_row {
	const struct plan_row *plan;
	const struct irqlab_config *config;
	struct bench_buffers *buf;
	struct experiment_result *out;
	char why[RESULTS_REASON_LEN];
	uint8_t failed, timed_out, faulted;
	uint8_t started;	/* the source's start ran: its stop must */
	uint8_t counted;	/* the counted pass runs (counters_counting) */
	uint8_t passes;		/* passes begun */
};

static void install(const struct i386_row *x, enum handler_kind kind)
{
	if (x->plan->i386_entry)
		i386_install_variant(x->plan->i386_entry, kind);
	else
		i386_install(x->plan->i386, kind);
}

/* One trip; -1 when an exception ended it. */
static int trip(struct i386_row *x, uint32_t job, uint32_t count)
{
	pm.job = job;
	pm.count = count;
	if (pm_run() == 0)
		return 0;
	x->faulted = 1;
	pm_describe_fault(x->why, sizeof(x->why));
	return -1;
}

static int failing(struct i386_row *x)
{
	x->failed = 1;
	return -1;
}

/* Every vector from 32 once, by the row's own source: each must reach
 * the dispatch as itself, once, and nothing else arrive. INT n takes all
 * of 32-255. The local APIC's sources stop below its spurious vector, as
 * long mode's checks do (source_check_vectors): some APICs never end an
 * interrupt on it in service (Bochs's EOI skips it), which would hold
 * off every later one. */
static int sweep_vectors(struct i386_row *x, enum handler_kind kind)
{
	unsigned v, total = 0,
		 last = x->plan->source->kind == SOURCE_RAISED_BY_INSTRUCTION ?
				255 : APIC_SPURIOUS_VECTOR - 1;

	pm_reset_counts();
	protected_trigger_aim(x->plan->source, x->plan->vector);
	if (trip(x, PM_JOB_SWEEP, last + 1 - FIRST_IRQ_VECTOR))
		return -1;
	for (v = 0; v < 256; v++)
		total += pm.delivered[v];
	for (v = FIRST_IRQ_VECTOR; v <= last; v++)
		if (pm.sweep_last[v] != v || pm.delivered[v] != 1) {
			fmt_snprintf(x->why, sizeof(x->why),
				     "%s on vector %u through the %s handlers: "
				     "%u interrupt(s) on it, the last on vector "
				     "%u (0: none arrived in time)",
				     source_name(x->plan->source->id), v,
				     kind == HANDLER_TIMED ? "timed"
				     : kind == HANDLER_BARE ? "bare" : "counted",
				     pm.delivered[v], pm.sweep_last[v]);
			return failing(x);
		}
	if (total != last + 1 - FIRST_IRQ_VECTOR) {
		fmt_snprintf(x->why, sizeof(x->why), "the sweep of %u vectors "
			     "saw %u interrupts", last + 1 - FIRST_IRQ_VECTOR,
			     total);
		return failing(x);
	}
	x->out->vectors_verified += last + 1 - FIRST_IRQ_VECTOR;
	return 0;
}

/* The interrupted code's registers, flags and segment registers must
 * survive INT n. */
static int check_registers(struct i386_row *x, uint8_t vector)
{
	unsigned i;
	uint32_t changed = 0;

	protected_trigger_aim(x->plan->source, vector);
	if (trip(x, PM_JOB_REGISTERS, REGISTER_CHECKS_PER_VECTOR))
		return -1;
	x->out->register_checks += pm.done;
	if (pm.done == REGISTER_CHECKS_PER_VECTOR)
		return 0;
	for (i = 0; i < PM_CHECKED_REGISTERS; i++)
		changed |= (uint32_t)(pm.changed[i] != 0) << i;
	fmt_snprintf(x->why, sizeof(x->why),
		     "registers changed across INT %u in 32-bit protected mode "
		     "(mask 0x%x: bit 0 EAX, 1 EBX, 2 ECX, 3 EDX, 4 ESI, 5 EDI, "
		     "6 EBP, 7 EFLAGS, 8-12 DS ES FS GS SS)", vector, changed);
	return failing(x);
}

static int check(struct i386_row *x, enum handler_kind kind)
{
	install(x, kind);
	if (x->plan->i386_entry)
		return check_registers(x, VARIANT_VECTOR);
	return sweep_vectors(x, kind) || check_registers(x, x->plan->vector) ||
	       check_registers(x, HIGH_CHECK_VECTOR);
}

/* Samples in trips of at most a noise batch into m (by enum metric_id);
 * `keep` 0 for the warm-up. */
static int run_samples(struct i386_row *x, enum handler_kind kind,
		       uint64_t *const *m, uint32_t want, int keep)
{
	uint32_t kept = 0, i;

	while (kept < want) {
		uint32_t batch = want - kept < NOISE_BATCH ? want - kept
							    : NOISE_BATCH;
		uint64_t noise = noise_snapshot();
		struct clock_reading clock_before = { 0, 0 };

		if (counters_ratio_available())
			counters_read(&clock_before);
		if (trip(x, PM_JOB_SAMPLES, batch))
			return -1;
		if (pm.timed_out) {
			x->timed_out = 1;
			fmt_snprintf(x->why, sizeof(x->why),
				     "sample %u: the interrupt on vector %u did "
				     "not arrive within %u ms", kept + pm.done,
				     x->plan->vector, WAIT_BUDGET_MS);
			return -1;
		}
		if (!keep) {
			kept += batch;
			continue;
		}
		if (noise_snapshot() != noise) {
			x->out->discarded += batch;
			if (++x->out->discarded_batches > NOISE_MAX_DISCARDS) {
				fmt_snprintf(x->why, sizeof(x->why),
					     "%u batches disturbed by SMIs or "
					     "NMIs: the machine is too noisy",
					     x->out->discarded_batches);
				return failing(x);
			}
			continue;
		}
		for (i = 0; i < batch; i++) {
			const struct pm_sample *s = &pm.samples[i];

			if (kind == HANDLER_BARE) {
				m[METRIC_ROUND_TRIP][kept + i] =
					counters_sample_span(s->trigger, s->resume);
				continue;
			}
			m[METRIC_ENTRY][kept + i] = counters_sample_span(s->trigger, s->entry);
			m[METRIC_EXIT][kept + i] = counters_sample_span(s->exit, s->resume);
			m[METRIC_ROUND_TRIP_TIMED][kept + i] =
				counters_sample_span(s->trigger, s->resume);
		}
		experiment_note_clock_ratio(x->out, &clock_before);
		kept += batch;
	}
	return 0;
}

static int take_samples(struct i386_row *x, enum handler_kind kind,
			uint64_t *const *m)
{
	const struct plan_row *p = x->plan;

	x->passes++;
	install(x, kind);
	protected_trigger_aim(p->source, p->vector);
	if (run_samples(x, kind, m, x->config->warmup, 0))
		return -1;
	if (kind == HANDLER_TIMED && p->inject == INJECT_IN_HANDLER)
		pm.fault_once = 1;
	return run_samples(x, kind, m, p->samples, 1);
}

static int take_samples_of(void *row, enum handler_kind kind,
			   uint64_t *const *m)
{
	return take_samples(row, kind, m);
}

/* Under guard_run: an exception in long mode abandons this function;
 * one in the 32-bit phase ends its trip (x->faulted). */
static void measure(void *arg)
{
	struct i386_row *x = arg;
	const struct irq_source *src = x->plan->source;

	/* The timer's divider and LVT; its loops set the vector again. */
	if (src->start)
		src->start(src, x->plan->lines, x->plan->vector);
	x->started = 1;
	if (check(x, HANDLER_BARE) || check(x, HANDLER_TIMED))
		return;
	/* The counted handlers' timestamps read the counter in the sweep
	 * too: it is chosen first. */
	if (x->counted) {
		counters_select(COUNTER_CYCLES);
		if (check(x, HANDLER_COUNTED))
			return;
	}
	pm_reset_counts();
	if (take_samples(x, HANDLER_TIMED, x->buf->metric) ||
	    take_samples(x, HANDLER_BARE, x->buf->metric) || !x->counted)
		return;
	experiment_counted_passes(x, x->buf, take_samples_of);
}

static const char *unsupported(const struct plan_row *p)
{
	const char *why;

	if (!source_runs_now(p->source))
		return source_mode_reason(p->source);
	if (p->source->unsupported && (why = p->source->unsupported(p->source,
							      p->lines)))
		return why;
	/* The 32-bit loops write the local APIC by a 32-bit physical
	 * address: a page relocated above 4 GiB would be another one. */
	if (p->source->kind != SOURCE_RAISED_BY_INSTRUCTION &&
	    (uint64_t)(uintptr_t)lapic_mmio >= (1ull << 32))
		return "the local APIC's registers lie above 4 GiB "
		       "(IA32_APIC_BASE), beyond a 32-bit address";
	return i386_unsupported(p->i386);
}

void i386_experiment_run(const struct plan_row *p, struct run_result *r,
			 const struct irqlab_config *c,
			 struct bench_buffers *b)
{
	struct experiment_result *e = experiment_open(p, r, unsupported(p));
	struct i386_row x = { .plan = p, .config = c, .buf = b, .out = e,
			      .counted = (uint8_t)counters_counting() };
	struct fault_info fault;
	int guarded;

	if (e->status == EXP_SKIPPED)
		return;
	log_printf("experiment %s: %u warm-up + %u samples on vector %u, in "
		   "32-bit protected mode\n", p->name, c->warmup, p->samples,
		   p->vector);
	guarded = guard_run(measure, &x, &fault);
	pm.fault_once = 0;
	sample_counted = 0;
	if (x.started && p->source->stop)
		p->source->stop(p->source, p->lines);
	if (x.started)
		drain_pending_interrupts();
	if (guarded)
		fault_describe(&fault, x.why, sizeof(x.why));
	experiment_close(p, r, e, c, b, pm.delivered,
			 guarded || x.faulted || x.failed || x.timed_out ?
				 x.why : NULL,
			 x.timed_out, guarded || x.faulted, x.passes);
}
