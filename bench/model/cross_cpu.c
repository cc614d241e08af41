#include "bench/model/cross_cpu.h"

#include "arch/lib/fmt.h"

void skew_bound_init(struct skew_bound *b)
{
	b->low = INT64_MIN;
	b->high = INT64_MAX;
	b->rounds = 0;
}

void skew_bound_add(struct skew_bound *b, uint64_t t0, uint64_t tb,
		    uint64_t t1)
{
	int64_t low = (int64_t)(tb - t1), high = (int64_t)(tb - t0);

	if (low > b->low)
		b->low = low;
	if (high < b->high)
		b->high = high;
	b->rounds++;
}

const char *skew_bound_unusable(const struct skew_bound *b, uint64_t median,
				char *why, unsigned cap)
{
	uint64_t width;

	if (!b->rounds) {
		fmt_snprintf(why, cap, "the TSC offset was not measured");
		return why;
	}
	if (b->high < b->low) {
		fmt_snprintf(why, cap, "the two TSCs moved apart while their "
			     "offset was measured (%lld above %lld)",
			     (long long)b->low, (long long)b->high);
		return why;
	}
	width = (uint64_t)(b->high - b->low);
	if (width / 2 * 1000 > median * ONE_WAY_MAX_HALF_WIDTH_PERMILLE) {
		fmt_snprintf(why, cap, "the TSC offset is known to +-%llu "
			     "ticks, over %u/1000 of the one-way median %llu",
			     (unsigned long long)(width / 2),
			     ONE_WAY_MAX_HALF_WIDTH_PERMILLE,
			     (unsigned long long)median);
		return why;
	}
	return 0;
}

const char *target_wakeups_past_bound(uint32_t wakeups, uint32_t took,
				      char *why, unsigned cap)
{
	if ((uint64_t)wakeups * TARGET_WAKEUPS_PER_INTERRUPTS <= took)
		return 0;
	fmt_snprintf(why, cap, "the target woke %u times with no interrupt "
		     "or new command, over 1 per %u of its %u interrupts: it "
		     "did not wait", wakeups, TARGET_WAKEUPS_PER_INTERRUPTS,
		     took);
	return why;
}

uint64_t one_way_corrected(uint64_t sent, uint64_t entered,
			   const struct skew_bound *b, uint32_t *clamped)
{
	/* The middle of low .. high, without overflowing their sum. */
	int64_t middle = b->low / 2 + b->high / 2 + (b->low % 2 + b->high % 2) / 2;
	int64_t delta = (int64_t)(entered - sent) - middle;

	if (delta < 0) {
		(*clamped)++;
		return 0;
	}
	return (uint64_t)delta;
}

/* A row cross_median takes: of the kind, ok, and matching every field
 * asked for (-1: any). */
struct cross_filter {
	unsigned kind;
	int relation, sender_core, target_core;
};

static int cross_matches(const struct cross_result *c,
			 const struct cross_filter *f)
{
	return c->kind == f->kind && c->status == EXP_OK &&
	       (f->relation < 0 || c->relation == f->relation) &&
	       (f->sender_core < 0 || c->sender_core == f->sender_core) &&
	       (f->target_core < 0 || c->target_core == f->target_core);
}

static uint64_t cross_median(const struct run_result *r,
			     const struct cross_filter *f, uint32_t *pairs)
{
	uint64_t m[RESULTS_MAX_CROSS];
	uint32_t i, j, n = 0;

	for (i = 0; i < r->n_cross && i < RESULTS_MAX_CROSS; i++) {
		const struct cross_result *c = &r->cross[i];

		if (!cross_matches(c, f))
			continue;
		/* insertion: the matrix is small */
		for (j = n; j > 0 && m[j - 1] > c->time.median; j--)
			m[j] = m[j - 1];
		m[j] = c->time.median;
		n++;
	}
	*pairs = n;
	return n ? m[(n - 1) / 2] : 0;
}

uint64_t cross_relation_median(const struct run_result *r, unsigned kind,
			       unsigned relation, uint32_t *pairs)
{
	struct cross_filter f = { kind, (int)relation, -1, -1 };

	return cross_median(r, &f, pairs);
}

uint64_t cross_core_median(const struct run_result *r, unsigned kind,
			   unsigned sender_core, unsigned target_core,
			   uint32_t *pairs)
{
	struct cross_filter f = { kind, -1, (int)sender_core,
				  (int)target_core };

	return cross_median(r, &f, pairs);
}

int cross_hybrid(const struct run_result *r)
{
	uint32_t i;

	for (i = 0; i < r->n_cross && i < RESULTS_MAX_CROSS; i++)
		if (r->cross[i].sender_core || r->cross[i].target_core)
			return 1;
	return 0;
}

const char *cross_figures_meaning(unsigned clock_kind)
{
	switch (clock_kind) {
	case CLOCK_TSC_TICKS:
		return "TSC ticks, raw: the instrument's floor is not taken "
		       "off";
	case CLOCK_ICOUNT:
		return "scheduler artefacts, not latencies: under -icount "
		       "QEMU runs the vCPUs one after another, so a figure "
		       "between two of them says where it switched; only the "
		       "counts are checked";
	case CLOCK_TCG_NOISE:
		return "noise: plain TCG's host time between vCPU threads, "
		       "never cycles";
	default:
		return "the emulator's TSC between its processors, a path "
		       "length at best, never cycles";
	}
}

int cross_figures_are_latencies(unsigned clock_kind)
{
	return clock_kind == CLOCK_TSC_TICKS;
}

int row_figures_not_latencies(const struct run_result *r,
			      const struct experiment_result *e)
{
	return source_between_cpus(e->id.source) &&
	       !cross_figures_are_latencies(r->clock_kind);
}
