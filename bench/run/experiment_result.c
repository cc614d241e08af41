#include "bench/run/experiment_result.h"

#include <stdarg.h>

#include "apic/lapic.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "bench/model/histogram.h"
#include "bench/run/apic_mode.h"
#include "bench/run/counters.h"
#include "bench/run/counters_firmware.h"

static void experiment_fail(struct experiment_result *e, const char *format,
			    ...) __attribute__((format(printf, 2, 3)));

static void experiment_fail(struct experiment_result *e, const char *format,
			    ...)
{
	va_list ap;

	e->status = EXP_FAILED;
	va_start(ap, format);
	fmt_vsnprintf(e->reason, sizeof(e->reason), format, ap);
	va_end(ap);
}

/* Each timed metric's distribution from the buffers m, encoded sparsely
 * for the handoff as metric `first` + its id; one too spread for
 * ROW_HIST_BYTES keeps its percentiles only. */
static void keep_histograms(struct run_result *r, uint32_t row,
			    uint64_t *const *m, unsigned first,
			    uint32_t samples)
{
	static struct histogram h;
	unsigned k;
	uint32_t i;

	for (k = 0; k < ROW_HIST_METRICS && r->n_hists < RESULTS_MAX_ROW_HISTS;
	     k++) {
		struct row_histogram *out = &r->hist[r->n_hists];

		hist_clear(&h);
		for (i = 0; i < samples; i++)
			hist_add(&h, m[k][i]);
		out->len = (uint16_t)hist_encode(&h, out->bytes, ROW_HIST_BYTES);
		if (!out->len)
			continue;
		out->row = (uint8_t)row;
		out->metric = (uint8_t)(first + k);
		r->n_hists++;
	}
}

struct experiment_result *experiment_open(const struct plan_row *p,
					  struct run_result *r, const char *why)
{
	struct experiment_result *e = &r->exp[r->n_experiments++];

	*e = (struct experiment_result){ .id = p->id, .baseline = p->baseline,
					 .vector = p->vector };
	fmt_snprintf(e->name, sizeof(e->name), "%s", p->name);
	e->apic_mode = (uint8_t)apic_mode_active();
	if (why) {
		e->status = EXP_SKIPPED;
		fmt_snprintf(e->reason, sizeof(e->reason), "%s", why);
		log_printf("experiment %s: skipped: %s\n", p->name, why);
	}
	return e;
}

static void experiment_figures(struct run_result *r,
			       struct experiment_result *e,
			       const struct irqlab_config *c,
			       const struct bench_buffers *b, uint32_t samples,
			       unsigned passes)
{
	unsigned k;

	for (k = 0; k < METRIC_COUNT; k++)
		stats_compute(b->metric[k], samples, &e->metric[k]);
	if (c->histograms)
		keep_histograms(r, (uint32_t)(e - r->exp), b->metric, 0, samples);
	if (passes == TSC_PASSES + COUNTED_PASSES && counters_pass_disturbed())
		r->counted_disturbed++;
	else if (passes == TSC_PASSES + COUNTED_PASSES &&
		 r->n_counted < RESULTS_MAX_EXPERIMENTS) {
		struct counted_row *out = &r->counted[r->n_counted++];

		out->row = (uint8_t)(e - r->exp);
		for (k = 0; k < METRIC_COUNT; k++)
			stats_compute(b->counted[k], samples, &out->cycles[k]);
		stats_compute(b->counted[COUNTED_INSTRUCTIONS], samples,
			      &out->instructions);
		if (c->histograms)
			keep_histograms(r, (uint32_t)(e - r->exp), b->counted,
					ROW_HIST_CYCLES, samples);
	}
}

void experiment_close(const struct plan_row *p, struct run_result *r,
		      struct experiment_result *e,
		      const struct irqlab_config *c,
		      const struct bench_buffers *b, const uint32_t *delivered,
		      const char *why, int timed_out, int faulted,
		      unsigned passes)
{
	char quiet[RESULTS_REASON_LEN];
	uint32_t others = 0, expected;
	const char *verdict = 0;
	int lacking = 0;
	unsigned v;

	if (why) {
		unsigned ended = lapic_settle();

		if (ended)
			log_printf("experiment %s: %u interrupt(s) left in "
				   "service, EOI'd for the next row\n",
				   p->name, ended);
		experiment_fail(e, "%s", why);
		if (timed_out)
			e->status = EXP_TIMEOUT;
		if (faulted)
			e->delivered = delivered[p->vector];
		log_printf("experiment %s: %s: %s\n", p->name,
			   exp_status_name(e->status), e->reason);
		return;
	}

	e->delivered = delivered[p->vector];
	if (p->source->verdict)
		verdict = p->source->verdict(p->source, p->lines, e,
					     &lacking);
	/* Every pass: warm-up and samples each. */
	expected = passes * (c->warmup + p->samples) + e->discarded;
	for (v = 0; v < 256; v++)
		if (v != p->vector && v != APIC_SPURIOUS_VECTOR)
			others += delivered[v];
	if (delivered[APIC_SPURIOUS_VECTOR])
		log_printf("experiment %s: %u spurious interrupt(s), not counted\n",
			   p->name, delivered[APIC_SPURIOUS_VECTOR]);
	experiment_figures(r, e, c, b, p->samples, passes);
	/* A source that repeats (sources.h) may raise its vector again
	 * while its handler runs: counted as extra, not a failure. */
	if (p->source->repeats && e->delivered > expected) {
		e->extra = e->delivered - expected;
		e->delivered = expected;
	}
	if (e->delivered != expected)
		experiment_fail(e, "delivered %u interrupts on vector %u, expected %u",
		     e->delivered, p->vector, expected);
	else if (others)
		experiment_fail(e, "%u interrupts arrived on other vectors", others);
	else if (p->source->modes != SOURCE_NO_APIC &&
		 lapic_check_quiet(quiet, sizeof(quiet)))
		experiment_fail(e, "%s", quiet);
	else if (verdict) {
		experiment_fail(e, "%s", verdict);
		if (lacking)
			e->status = EXP_SKIPPED;
	} else
		e->status = EXP_OK;
	log_printf("experiment %s: %s, round trip median %llu (raw)\n", p->name,
		   exp_status_name(e->status),
		   (unsigned long long)e->metric[METRIC_ROUND_TRIP].median);
}
