#include "experiment.h"

#include "../arch/dispatch/irq.h"
#include "../arch/dispatch/schemes.h"
#include "../arch/exceptions.h"
#include "../efi/log.h"
#include "fmt.h"

/* An interrupt source: how one timed sample is fired. */
struct irq_source {
	const char *name;
	const char *(*unsupported)(void);	/* NULL: always available */
	void (*fire)(uint8_t vector, struct irq_sample *s);
};

static void fire_int(uint8_t vector, struct irq_sample *s)
{
	int_sample_for(vector)(s);
}

static const struct irq_source sources[] = {
	/* Software INT n: no APIC acceptance, no EOI (FACTS §5). */
	{ .name = "int", .fire = fire_int },
};

struct experiment_def {
	const char *name;
	const char *scheme;
	const char *source;
	/* Self-test rows: raise #UD mid-run to prove that an exception
	 * fails only its own experiment. Run only when configured. */
	uint8_t inject_fault;
};

static const struct experiment_def matrix[] = {
	{ .name = "int-direct", .scheme = "direct", .source = "int" },
	{ .name = "selftest-fault", .scheme = "direct", .source = "int",
	  .inject_fault = 1 },
};

static int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static const struct irq_source *source_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(sources) / sizeof(sources[0]); i++)
		if (str_eq(sources[i].name, name))
			return &sources[i];
	return 0;
}

static void copy_name(char *dst, size_t cap, const char *src)
{
	fmt_snprintf(dst, cap, "%s", src);
}

struct experiment_run {
	const struct experiment_def *def;
	const struct dispatch_scheme *scheme;
	const struct irq_source *source;
	const struct irqlab_config *config;
	struct bench_buffers *buf;
	uint8_t vector;
};

/* Runs under guard_run: an exception here abandons this function. */
static void measure(void *arg)
{
	struct experiment_run *x = arg;
	uint64_t *entry = x->buf->metric[METRIC_ENTRY];
	uint64_t *exit = x->buf->metric[METRIC_EXIT];
	uint64_t *round_trip = x->buf->metric[METRIC_ROUND_TRIP];
	struct irq_sample s;
	uint32_t i;

	x->scheme->install(x->vector);
	irq_reset_counts();
	for (i = 0; i < x->config->warmup; i++)
		x->source->fire(x->vector, &s);
	if (x->def->inject_fault)
		__asm__ volatile("ud2");
	for (i = 0; i < x->config->samples; i++) {
		x->source->fire(x->vector, &s);
		entry[i] = irq_timing.entry - s.trigger;
		exit[i] = s.resume - irq_timing.exit;
		round_trip[i] = s.resume - s.trigger;
	}
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

static void run_one(const struct experiment_def *def, struct run_result *r,
		    const struct irqlab_config *c, struct bench_buffers *b)
{
	struct experiment_result *e = &r->exp[r->n_experiments++];
	struct experiment_run x = { .def = def, .config = c, .buf = b,
				    .vector = c->int_vector };
	struct fault_info fault;
	const char *why;
	uint32_t expected = c->warmup + c->samples, others = 0;
	unsigned k, v;

	*e = (struct experiment_result){ .vector = x.vector };
	copy_name(e->name, sizeof(e->name), def->name);
	copy_name(e->scheme, sizeof(e->scheme), def->scheme);
	copy_name(e->source, sizeof(e->source), def->source);
	x.scheme = scheme_find(def->scheme);
	x.source = source_find(def->source);
	if (!x.scheme || !x.source) {
		fail(e, "no %s named in the tables", x.scheme ? "source" : "scheme");
		return;
	}
	why = x.scheme->unsupported ? x.scheme->unsupported() : 0;
	if (!why && x.source->unsupported)
		why = x.source->unsupported();
	if (why) {
		e->status = EXP_SKIPPED;
		copy_name(e->reason, sizeof(e->reason), why);
		return;
	}

	log_printf("experiment %s: %u warm-up + %u samples on vector %u\n",
		   def->name, c->warmup, c->samples, x.vector);
	if (guard_run(measure, &x, &fault)) {
		fail(e, "%s vector %llu, error code 0x%llx, RIP 0x%llx, CR2 0x%llx",
		     exception_name((unsigned)fault.vector),
		     (unsigned long long)fault.vector,
		     (unsigned long long)fault.error_code,
		     (unsigned long long)fault.rip,
		     (unsigned long long)fault.cr2);
		e->delivered = irq_delivered[x.vector];
		log_printf("experiment %s: failed: %s\n", def->name, e->reason);
		return;
	}

	e->delivered = irq_delivered[x.vector];
	for (v = 0; v < 256; v++)
		if (v != x.vector)
			others += irq_delivered[v];
	for (k = 0; k < METRIC_COUNT; k++)
		stats_compute(b->metric[k], c->samples, &e->metric[k]);
	if (e->delivered != expected)
		fail(e, "delivered %u interrupts on vector %u, expected %u",
		     e->delivered, x.vector, expected);
	else if (others)
		fail(e, "%u interrupts arrived on other vectors", others);
	else
		e->status = EXP_OK;
	log_printf("experiment %s: %s, round trip median %llu (raw)\n",
		   def->name, exp_status_name(e->status),
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

void bench_run_all(struct run_result *r, const struct irqlab_config *c,
		   struct bench_buffers *b)
{
	size_t i;

	for (i = 0; i < sizeof(matrix) / sizeof(matrix[0]); i++) {
		if (matrix[i].inject_fault && !c->selftest_fault)
			continue;
		if (r->n_experiments >= RESULTS_MAX_EXPERIMENTS)
			break;
		run_one(&matrix[i], r, c, b);
	}
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
