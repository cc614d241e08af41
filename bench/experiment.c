#include "experiment.h"

#include "../arch/dispatch/irq.h"
#include "../arch/dispatch/schemes.h"
#include "../arch/primitives.h"
#include "../arch/exceptions.h"
#include "../efi/log.h"
#include "fmt.h"

/* Interrupts per register-integrity check vector; the check runs on the
 * configured vector and on 255, whose push imm8 sign-extends. */
#define REGISTER_CHECKS_PER_VECTOR 256
#define HIGH_CHECK_VECTOR 255

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

struct experiment_run {
	const struct dispatch_scheme *scheme;
	const struct irq_source *source;
	const struct irqlab_config *config;
	struct bench_buffers *buf;
	struct experiment_result *out;
	uint8_t vector;
	uint8_t inject;
	const char *check_failure;	/* set by a correctness check */
	char why[RESULTS_REASON_LEN];
};

static void install_all(const struct dispatch_scheme *s)
{
	unsigned v;

	for (v = FIRST_IRQ_VECTOR; v < 256; v++)
		scheme_install(s, (uint8_t)v);
}

/* Every vector must reach the dispatcher as itself. */
static int sweep_vectors(struct experiment_run *x)
{
	unsigned v;

	for (v = FIRST_IRQ_VECTOR; v < 256; v++) {
		irq_reset_counts();
		int_trigger((uint8_t)v);
		if (irq_delivered[irq_last_vector] != 1 || irq_last_vector != v) {
			fmt_snprintf(x->why, sizeof(x->why),
				     "INT %u was dispatched as vector %u", v,
				     irq_last_vector);
			return -1;
		}
		x->out->vectors_verified++;
	}
	return 0;
}

/* The interrupted code's registers and flags must survive. */
static int check_registers(struct experiment_run *x)
{
	const uint8_t vectors[2] = { x->vector, HIGH_CHECK_VECTOR };
	unsigned i, n;

	for (i = 0; i < 2; i++)
		for (n = 0; n < REGISTER_CHECKS_PER_VECTOR; n++) {
			uint32_t changed = int_registers_intact(vectors[i]);

			if (changed) {
				fmt_snprintf(x->why, sizeof(x->why),
					     "registers changed across INT %u "
					     "(mask 0x%x: bit 0 RAX .. 14 R15, 15 RFLAGS)",
					     vectors[i], changed);
				return -1;
			}
			x->out->register_checks++;
		}
	return 0;
}

/* Runs under guard_run: an exception here abandons this function. */
static void measure(void *arg)
{
	struct experiment_run *x = arg;
	uint64_t *entry = x->buf->metric[METRIC_ENTRY];
	uint64_t *exit = x->buf->metric[METRIC_EXIT];
	uint64_t *round_trip = x->buf->metric[METRIC_ROUND_TRIP];
	struct irq_sample s;
	uint32_t i;

	if (x->scheme->prepare)
		x->scheme->prepare();
	install_all(x->scheme);
	if (sweep_vectors(x) || check_registers(x)) {
		x->check_failure = x->why;
		return;
	}
	irq_reset_counts();
	for (i = 0; i < x->config->warmup; i++)
		x->source->fire(x->vector, &s);
	if (x->inject == INJECT_IN_LOOP)
		__asm__ volatile("ud2");
	if (x->inject == INJECT_IN_HANDLER)
		irq_fault_once = 1;
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

static void run_one(const char *name, const struct dispatch_scheme *scheme,
		    const struct irq_source *source, uint8_t inject,
		    struct run_result *r, const struct irqlab_config *c,
		    struct bench_buffers *b)
{
	struct experiment_result *e = &r->exp[r->n_experiments++];
	struct experiment_run x = { .scheme = scheme, .source = source,
				    .config = c, .buf = b, .out = e,
				    .vector = c->int_vector, .inject = inject };
	const struct dispatch_scheme *fallback = scheme_find("direct");
	struct fault_info fault;
	const char *why;
	uint32_t expected = c->warmup + c->samples, others = 0;
	unsigned k, v;
	int faulted;

	*e = (struct experiment_result){ .vector = x.vector };
	fmt_snprintf(e->name, sizeof(e->name), "%s", name);
	fmt_snprintf(e->scheme, sizeof(e->scheme), "%s", scheme->name);
	fmt_snprintf(e->source, sizeof(e->source), "%s", source->name);
	why = scheme->unsupported ? scheme->unsupported() : 0;
	if (!why && source->unsupported)
		why = source->unsupported();
	if (why) {
		e->status = EXP_SKIPPED;
		fmt_snprintf(e->reason, sizeof(e->reason), "%s", why);
		log_printf("experiment %s: skipped: %s\n", name, why);
		return;
	}

	log_printf("experiment %s: %u warm-up + %u samples on vector %u\n",
		   name, c->warmup, c->samples, x.vector);
	faulted = guard_run(measure, &x, &fault);
	/* Put the machine back as the next experiment expects it. */
	if (scheme->finish)
		scheme->finish();
	install_all(fallback);
	irq_fault_once = 0;

	if (faulted) {
		fail(e, "%s vector %llu, error code 0x%llx, RIP 0x%llx, CR2 0x%llx",
		     exception_name((unsigned)fault.vector),
		     (unsigned long long)fault.vector,
		     (unsigned long long)fault.error_code,
		     (unsigned long long)fault.rip,
		     (unsigned long long)fault.cr2);
		e->delivered = irq_delivered[x.vector];
		log_printf("experiment %s: failed: %s\n", name, e->reason);
		return;
	}
	if (x.check_failure) {
		fail(e, "%s", x.check_failure);
		log_printf("experiment %s: failed: %s\n", name, e->reason);
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
	log_printf("experiment %s: %s, round trip median %llu (raw)\n", name,
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

void bench_run_all(struct run_result *r, const struct irqlab_config *c,
		   struct bench_buffers *b)
{
	size_t s, i;

	for (i = 0; i < sizeof(sources) / sizeof(sources[0]); i++)
		for (s = 0; s < dispatch_scheme_count; s++) {
			char name[RESULTS_NAME_LEN];

			if (r->n_experiments >= RESULTS_MAX_EXPERIMENTS)
				return;
			fmt_snprintf(name, sizeof(name), "%s-%s",
				     sources[i].name, dispatch_schemes[s].name);
			run_one(name, &dispatch_schemes[s], &sources[i],
				INJECT_NONE, r, c, b);
		}
	for (i = 0; c->selftest_fault && i < sizeof(selftests) / sizeof(selftests[0]);
	     i++) {
		if (r->n_experiments >= RESULTS_MAX_EXPERIMENTS)
			return;
		run_one(selftests[i].name, scheme_find(selftests[i].scheme),
			&sources[0], selftests[i].inject, r, c, b);
	}
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
			fmt_snprintf(out->reason, sizeof(out->reason),
				     "%s vector %llu, error code 0x%llx, RIP 0x%llx",
				     exception_name((unsigned)fault.vector),
				     (unsigned long long)fault.vector,
				     (unsigned long long)fault.error_code,
				     (unsigned long long)fault.rip);
			continue;
		}
		stats_compute(b->floor, x.n, &out->block);
		out->status = EXP_OK;
	}
	log_printf("primitives: %u timed\n", r->n_primitives);
}

static int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
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
