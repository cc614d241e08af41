#include "bench/model/cross_cpu.h"

#include "arch/lib/fmt.h"
#include "bench/model/config.h"

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

enum cell_why skew_bound_why(const struct skew_bound *b, uint64_t median)
{
	if (!b->rounds)
		return CELL_WHY_OFFSET_UNMEASURED;
	if (b->high < b->low)
		return CELL_WHY_OFFSET_APART;
	if ((uint64_t)(b->high - b->low) / 2 * 1000 >
	    median * ONE_WAY_MAX_HALF_WIDTH_PERMILLE)
		return CELL_WHY_OFFSET_WIDE;
	return CELL_WHY_NONE;
}

const char *skew_bound_unusable(const struct skew_bound *b, uint64_t median,
				char *why, unsigned cap)
{
	switch (skew_bound_why(b, median)) {
	case CELL_WHY_NONE:
		return 0;
	case CELL_WHY_OFFSET_APART:
		fmt_snprintf(why, cap, "the two TSCs moved apart while their "
			     "offset was measured (%lld above %lld)",
			     (long long)b->low, (long long)b->high);
		return why;
	case CELL_WHY_OFFSET_WIDE:
		fmt_snprintf(why, cap, "the TSC offset is known to +-%llu "
			     "ticks, over %u/1000 of the one-way median %llu",
			     (unsigned long long)(b->high - b->low) / 2,
			     ONE_WAY_MAX_HALF_WIDTH_PERMILLE,
			     (unsigned long long)median);
		return why;
	default:
		fmt_snprintf(why, cap, "%s",
			     cell_why_text(CELL_WHY_OFFSET_UNMEASURED));
		return why;
	}
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

/* What cross_median takes: figures of the kind, ok, matching every
 * field asked for (-1: any). */
struct cross_filter {
	unsigned kind;
	int relation, sender_core, target_core;
};

static int cross_matches(const struct cross_filter *f, unsigned status,
			 unsigned relation, unsigned sender_core,
			 unsigned target_core)
{
	return status == EXP_OK &&
	       (f->relation < 0 || relation == (unsigned)f->relation) &&
	       (f->sender_core < 0 || sender_core == (unsigned)f->sender_core) &&
	       (f->target_core < 0 || target_core == (unsigned)f->target_core);
}

uint32_t cross_samples_per_pair(uint32_t row_samples, uint32_t pairs)
{
	uint32_t n = row_samples / CROSS_SAMPLES_DIVISOR;

	if (pairs && n > CROSS_SECTION_SAMPLES / pairs)
		n = CROSS_SECTION_SAMPLES / pairs;
	if (n < CROSS_MIN_SAMPLES)
		n = row_samples < CROSS_MIN_SAMPLES ? row_samples
						    : CROSS_MIN_SAMPLES;
	return n;
}

uint32_t cross_full_most(uint32_t cpus_key)
{
	return cpus_key == CONFIG_ALL ? RESULTS_ALL_MATRIX_CPUS
				      : RESULTS_FULL_MATRIX_CPUS;
}

uint32_t cross_full_choice(uint32_t n, uint32_t boot, uint32_t most,
			   uint8_t *full)
{
	uint32_t i, k, nearest = 0;

	for (i = 0; i < n; i++)
		full[i] = n <= most;
	if (n <= most)
		return n;
	for (k = 0; k < most; k++) {
		i = (uint32_t)((uint64_t)k * n / most);
		full[i] = 1;
		if ((i > boot ? i - boot : boot - i) <
		    (nearest > boot ? nearest - boot : boot - nearest))
			nearest = i;
	}
	if (boot < n && !full[boot]) {
		full[nearest] = 0;
		full[boot] = 1;
	}
	return most;
}

uint32_t cross_partners(const struct topology *t, const uint32_t *ids,
			uint32_t n, uint32_t p, uint32_t boot, uint16_t *out)
{
	uint32_t m = 0, q, k;
	unsigned rel;

	if (boot != p && boot < n)
		out[m++] = (uint16_t)boot;
	for (rel = CPU_RELATION_SMT_SIBLING; rel < CPU_RELATION_COUNT; rel++)
		for (q = 0; q < n; q++) {
			if (q == p ||
			    topology_relation(t, ids[p], ids[q]) != rel)
				continue;
			for (k = 0; k < m && out[k] != q; k++)
				;
			if (k == m)
				out[m++] = (uint16_t)q;
			break;
		}
	return m;
}

int cross_pair_measured_before(const struct topology *t, const uint32_t *ids,
			       uint32_t n, const uint8_t *full, uint32_t boot,
			       uint32_t p, uint32_t q)
{
	uint16_t partner[CPU_RELATION_COUNT];
	uint32_t k, m;

	if (q >= p || full[q])
		return 0;
	m = cross_partners(t, ids, n, q, boot, partner);
	for (k = 0; k < m; k++)
		if (partner[k] == p)
			return 1;
	return 0;
}

uint32_t cross_cell_bound(uint32_t cpus, uint32_t most)
{
	uint32_t n = cpus > RESULTS_MAX_MATRIX_CPUS ? RESULTS_MAX_MATRIX_CPUS
						    : cpus;
	uint32_t full = n > most ? most : n;

	return full * (full ? full - 1 : 0) +
	       (n - full) * 2 * CPU_RELATION_COUNT;
}

size_t cross_handoff_reserve(uint32_t cpus, uint32_t most)
{
	if (cpus < 2)
		return 64;
	return 64 + (size_t)cross_cell_bound(cpus, most) * CROSS_CELL_BYTES +
	       RESULTS_MAX_CROSS * CROSS_ROW_BYTES +
	       RESULTS_MAX_CROSS_HISTS * (ROW_HIST_BYTES + 8);
}

int cross_row_is_kept_pair(const struct cross_result *c)
{
	return (c->kind == CROSS_ACK || c->kind == CROSS_ONE_WAY) &&
	       c->target != CROSS_ALL_TARGETS && c->sender != c->target;
}

/* Whether a kind's figures are the matrix's, one per pair, rather than
 * the broadcast rows'. */
static int kind_in_matrix(unsigned kind)
{
	return kind == CROSS_ACK || kind == CROSS_ONE_WAY;
}

/* The ok figures the filter takes, in m[] unsorted: the matrix's cells
 * for a pair's kinds, the rows for the broadcasts. */
static uint32_t cross_figures(const struct run_result *r,
			      const struct cross_filter *f, uint64_t *m)
{
	uint32_t i, n = 0;

	if (kind_in_matrix(f->kind)) {
		for (i = 0; i < r->n_cells && i < RESULTS_MAX_CELLS; i++) {
			const struct matrix_cell *c = &r->cell[i];
			int ack = f->kind == CROSS_ACK;

			if (c->sender < RESULTS_MAX_MATRIX_CPUS &&
			    c->target < RESULTS_MAX_MATRIX_CPUS &&
			    cross_matches(f, ack ? c->ack_status
						 : c->one_way_status,
					  c->relation,
					  r->matrix_cpu[c->sender].core,
					  r->matrix_cpu[c->target].core))
				m[n++] = ack ? c->ack : c->one_way;
		}
		return n;
	}
	for (i = 0; i < r->n_cross && i < RESULTS_MAX_CROSS; i++) {
		const struct cross_result *c = &r->cross[i];

		if (c->kind == f->kind &&
		    cross_matches(f, c->status, c->relation, c->sender_core,
				  c->target_core))
			m[n++] = c->time.median;
	}
	return n;
}

/* The lower median of m[0..n), n > 0, which it reorders: Wirth's
 * selection (Algorithms + Data Structures = Programs, §2.3.4), whose
 * partitions keep a[k] in the part that is searched on. */
static uint64_t lower_median(uint64_t *a, uint32_t n)
{
	int32_t l = 0, r = (int32_t)n - 1, k = ((int32_t)n - 1) / 2;

	while (l < r) {
		uint64_t x = a[k], t;
		int32_t i = l, j = r;

		do {
			while (a[i] < x)
				i++;
			while (x < a[j])
				j--;
			if (i <= j) {
				t = a[i];
				a[i] = a[j];
				a[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < k)
			l = i;
		if (k < i)
			r = j;
	}
	return a[k];
}

static uint64_t cross_median(const struct run_result *r,
			     const struct cross_filter *f, uint32_t *pairs)
{
	static uint64_t m[RESULTS_MAX_CELLS];
	uint32_t n = cross_figures(r, f, m);

	*pairs = n;
	return n ? lower_median(m, n) : 0;
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

	for (i = 0; i < r->n_matrix_cpus && i < RESULTS_MAX_MATRIX_CPUS; i++)
		if (r->matrix_cpu[i].core)
			return 1;
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
