#include "bench/run/cross_cpu.h"

#include "apic/ap_interrupt.h"
#include "apic/lapic.h"
#include "arch/ap.h"
#include "arch/cpu.h"
#include "arch/desc.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/primitives.h"
#include "arch/timing.h"
#include "bench/model/apic_reach.h"
#include "bench/model/cross_cpu.h"
#include "bench/model/histogram.h"
#include "bench/model/stats.h"
#include "bench/run/other_cpus.h"

/* Any vector will do: every vector reaches the same handler on the
 * other processors, and the boot CPU's gate is pointed at it while the
 * boot CPU is a target. */
#define CROSS_VECTOR 0x41
/* The matrix takes the boot CPU and the first CROSS_MAX_CPUS - 1 others
 * the cpus key chose, in topology order; up to 64 of them in the full
 * matrix (128 under cpus = all: cross_full_choice), the others against
 * a few each. */
#define CROSS_MAX_CPUS RESULTS_MAX_MATRIX_CPUS
#define CROSS_WARMUP 10
/* Ping-pong rounds that bound a pair's TSC offset. */
#define SKEW_ROUNDS 256
/* A microsecond between samples: the target is back in its loop, out of
 * its handler, before the next IPI. */
#define SAMPLE_GAP_US 1

#define ICR_ALL_BUT_SELF (3u << 18)	/* destination shorthand 11b */

/* One chosen processor: its APIC id, and its slot among the others, or
 * -1 for the boot CPU. */
struct pick {
	uint32_t apic_id;
	int slot;
	uint8_t core;	/* CPUID.1AH:EAX[31:24]; 0: not hybrid */
};

/* What a sender runs, on the boot CPU or on another, interrupts off. */
struct ack_work {
	int x2apic;
	uint32_t icr_low;		/* vector, delivery, shorthand */
	const uint32_t *dest;		/* APIC ids, sent in turn */
	uint32_t n_dest;
	uint32_t expect;		/* acknowledgements per sample */
	volatile const struct ap_cpu *target;	/* its entry TSC, or NULL */
	uint32_t warmup, n;
	/* A sample's wait, and the longer one a late sample gets. */
	uint64_t gap_ticks, budget_ticks, late_ticks;
	uint64_t *acked, *sent, *entered;
	uint32_t kept, late;
};

/* One more for each sample or round a sender or leader finished: the
 * boot CPU waits for another processor's run as long as it moves
 * (other_cpus_finish). */
static volatile uint32_t progress;

/* Two processors' ping-pong, each field a line of its own. */
struct skew_work {
	volatile uint64_t ping __attribute__((aligned(64)));
	volatile uint64_t pong __attribute__((aligned(64)));
	volatile uint64_t tb;
	uint64_t budget_ticks;
	struct skew_bound bound;
};

/* The boot CPU's line while it is a target: ap_interrupt counts through
 * GS. */
static struct ap_cpu boot_line;

/* Each sample: the acknowledgements cleared, the TSC, the IPI (or one
 * to each destination), then a pause loop until every acknowledgement
 * is in, as Linux's csd_lock_wait spins, and the TSC again. In xAPIC
 * mode each ICR write first waits until the last one's Delivery Status
 * is idle, as Linux's send path does (apic/lapic.h), so one to each
 * destination pays what Linux pays. An acknowledgement not in within
 * the sample's wait is waited for up to OTHER_CPU_LATE_MS more: a
 * target waiting for a host core under an emulator is late, not lost.
 * Such a sample is measured as it was and counted late; one not in by
 * then is lost, and ends the samples. */
static void ack_samples(void *arg)
{
	struct ack_work *w = arg;
	uint32_t i, k;

	w->kept = 0;
	w->late = 0;
	for (i = 0; i < w->warmup + w->n; i++) {
		uint64_t t0, t1, until;

		ap_acks = 0;
		if (w->x2apic)
			weak_wrmsr_fence();
		until = tsc_open() + w->budget_ticks;
		t0 = tsc_open();
		for (k = 0; k < w->n_dest; k++) {
			/* A still-pending ICR would never send: the lost
			 * acknowledgement ends the samples. */
			if (!w->x2apic)
				(void)xapic_icr_wait_idle(
					APIC_ICR_IDLE_POLLS);
			lapic_icr_write(w->x2apic, w->dest[k], w->icr_low);
		}
		while (ap_acks < w->expect && tsc_open() < until)
			__asm__ volatile("pause");
		if (ap_acks < w->expect) {
			until = t0 + w->late_ticks;
			while (ap_acks < w->expect && tsc_open() < until)
				__asm__ volatile("pause");
			w->late += i >= w->warmup && ap_acks >= w->expect;
		}
		t1 = tsc_close();
		progress++;
		if (ap_acks < w->expect)
			return;
		if (i >= w->warmup) {
			w->acked[w->kept] = t1 - t0;
			w->sent[w->kept] = t0;
			w->entered[w->kept] = w->target ? w->target->entry_tsc : 0;
			w->kept++;
		}
		until = tsc_close() + w->gap_ticks;
		while (tsc_close() < until)
			;
	}
}

static void skew_leader(void *arg)
{
	struct skew_work *w = arg;
	uint64_t r;

	for (r = 1; r <= SKEW_ROUNDS; r++) {
		uint64_t t0 = tsc_open(), t1, until = t0 + w->budget_ticks;

		w->ping = r;
		while (w->pong != r && tsc_open() < until)
			;
		t1 = tsc_close();
		progress++;
		if (w->pong != r)
			return;
		skew_bound_add(&w->bound, t0, w->tb, t1);
	}
}

static void skew_follower(void *arg)
{
	struct skew_work *w = arg;
	uint64_t r;

	for (r = 1; r <= SKEW_ROUNDS; r++) {
		uint64_t until = tsc_open() + w->budget_ticks;

		while (w->ping != r && tsc_open() < until)
			;
		if (w->ping != r)
			return;
		w->tb = tsc_open();
		w->pong = r;
	}
}

/* Runs `lead` on a and `follow` on b at once, the boot CPU taking its
 * own part itself; `follow` NULL: b waits as a target, interrupts on.
 * Returns 0, or -1 where another processor did not finish. */
static int run_pair(const struct pick *a, void (*lead)(void *),
		    const struct pick *b, void (*follow)(void *), void *arg)
{
	int bad = 0;

	if (follow && b->slot >= 0)
		other_cpus_run((uint32_t)b->slot, follow, arg);
	if (a->slot >= 0 && b->slot >= 0)
		other_cpus_run_waking((uint32_t)a->slot, lead, arg,
				      other_cpus_own_apic_id());
	else if (a->slot >= 0)
		other_cpus_run((uint32_t)a->slot, lead, arg);
	if (a->slot < 0)
		lead(arg);
	else if (b->slot < 0 && follow)
		follow(arg);
	if (a->slot >= 0 && b->slot >= 0) {
		/* Neither is the boot CPU: it halts until they are done. */
		bad |= other_cpus_finish_halted((uint32_t)a->slot, &progress);
	} else if (a->slot >= 0) {
		/* The boot CPU as the target takes the IPIs while it waits. */
		int takes = !follow;

		if (takes)
			__asm__ volatile("sti" ::: "memory");
		bad |= other_cpus_finish((uint32_t)a->slot, &progress);
		if (takes)
			__asm__ volatile("cli" ::: "memory");
	}
	if (follow && b->slot >= 0)
		bad |= other_cpus_finish((uint32_t)b->slot, &progress);
	return bad ? -1 : 0;
}

/* A row from `a` to `b`; b NULL: to every other processor. */
static struct cross_result *add_row(struct run_result *r, unsigned kind,
				    const struct pick *a, const struct pick *b,
				    unsigned relation)
{
	struct cross_result *c;

	if (r->n_cross >= RESULTS_MAX_CROSS)
		return 0;
	c = &r->cross[r->n_cross++];
	*c = (struct cross_result){
		.kind = (uint8_t)kind, .relation = (uint8_t)relation,
		.apic_mode = (uint8_t)(lapic ? lapic->mode : 0),
		.sender = a ? a->apic_id : 0,
		.target = b ? b->apic_id : CROSS_ALL_TARGETS,
		.targets = 1, .sender_core = a ? a->core : 0,
		.target_core = b ? b->core : 0,
	};
	return c;
}

static void row_skipped(struct cross_result *c, uint8_t status,
			const char *why)
{
	if (!c)
		return;
	c->status = status;
	fmt_snprintf(c->reason, sizeof(c->reason), "%s", why);
}

static void row_figures(struct cross_result *c, uint64_t *samples,
			uint32_t n, uint32_t want, uint32_t late)
{
	if (!c)
		return;
	c->late = late;
	if (n < want) {
		fmt_snprintf(c->reason, sizeof(c->reason), "%u of %u "
			     "acknowledgements came in time; the next was "
			     "lost (none within %u ms)", n, want,
			     OTHER_CPU_LATE_MS);
		c->status = EXP_FAILED;
		return;
	}
	stats_compute(samples, n, &c->time);
	c->status = EXP_OK;
}

/* The first acknowledged pair of each relation that ran ok keeps its
 * distribution for the handoff (docs/cross-cpu.md "In the handoff"). */
static void keep_pair_histogram(struct run_result *r,
				const struct cross_result *c,
				const uint64_t *samples, uint32_t n)
{
	static struct histogram h;
	struct row_histogram *out;
	uint32_t i;

	if (!c || c->status != EXP_OK ||
	    r->n_cross_hists >= RESULTS_MAX_CROSS_HISTS)
		return;
	for (i = 0; i < r->n_cross_hists; i++)
		if (r->cross[r->cross_hist[i].row].relation == c->relation)
			return;
	hist_clear(&h);
	for (i = 0; i < n; i++)
		hist_add(&h, samples[i]);
	out = &r->cross_hist[r->n_cross_hists];
	out->len = (uint16_t)hist_encode(&h, out->bytes, ROW_HIST_BYTES);
	if (!out->len)
		return;
	out->row = (uint8_t)(c - r->cross);
	out->metric = 0;
	r->n_cross_hists++;
}

struct section {
	struct run_result *r;
	struct bench_buffers *b;
	int fault_once;		/* simulate = ap-fault, not yet raised */
	uint32_t samples;
	int x2apic;
	uint64_t budget_ticks, gap_ticks, late_ticks;
	/* The relations whose first ok pair has its rows in full. */
	uint8_t kept_relation[CPU_RELATION_COUNT];
	/* The processors' APIC IDs in topology order, whether each is in
	 * the full matrix, and the boot CPU's index among them. */
	const uint32_t *ids;
	const uint8_t *full;
	uint32_t boot;
};

static uint32_t clamp32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

static struct ack_work work_for(const struct section *s)
{
	return (struct ack_work){
		.x2apic = s->x2apic,
		.icr_low = APIC_ICR_LEVEL_ASSERT | CROSS_VECTOR,
		.warmup = CROSS_WARMUP, .n = s->samples,
		.gap_ticks = s->gap_ticks, .budget_ticks = s->budget_ticks,
		.late_ticks = s->late_ticks,
		.acked = s->b->metric[METRIC_ENTRY],
		.sent = s->b->metric[METRIC_EXIT],
		.entered = s->b->metric[METRIC_ROUND_TRIP],
	};
}

/* simulate = ap-fault: a sender's work that raises #UD, which the
 * other processors' stub records before it parks the processor. */
static void fault_work(void *arg)
{
	(void)arg;
	__asm__ volatile("ud2");
}

/* Why a pair cannot be measured: a processor of it faulted earlier. */
static const char *faulted(const struct pick *a, const struct pick *b,
			   char *why, unsigned cap)
{
	const struct pick *p[2] = { a, b };
	unsigned k;

	for (k = 0; k < 2; k++) {
		uint32_t f = p[k]->slot < 0 ? 0 :
			     other_cpus_fault((uint32_t)p[k]->slot);

		if (f) {
			fmt_snprintf(why, cap, "APIC id %u raised exception "
				     "%u and parked itself", p[k]->apic_id,
				     f - 1);
			return why;
		}
	}
	return 0;
}

/* Why a pair cannot be measured in this APIC mode: the ICR names each
 * end in 8 bits in xAPIC mode, the target of the samples and the other
 * processor of the commands' wake-ups (bench/model/apic_reach.h). */
static const char *unreachable(const struct section *s, const struct pick *a,
			       const struct pick *b, char *why, unsigned cap)
{
	const char *bad = apic_reach_ipi_why(b->apic_id, s->x2apic, why, cap);

	return bad ? bad : apic_reach_ipi_why(a->apic_id, s->x2apic, why, cap);
}

/* A processor parked, halted, again (one that faulted stays where it
 * parked itself). */
static void park(const struct pick *p)
{
	if (p->slot >= 0 && !other_cpus_fault((uint32_t)p->slot))
		(void)other_cpus_hold((uint32_t)p->slot, AP_HALT);
}

/* A pair's two figures as measured, before they go to its cell and,
 * for the first ok pair of its relation, to rows kept in full. */
struct pair_outcome {
	uint8_t ack_status, one_way_status;
	uint8_t ack_why, one_way_why;	/* enum cell_why */
	char reason[RESULTS_REASON_LEN];	/* the ack's, in full */
	char one_way_reason[RESULTS_REASON_LEN];
	struct skew_bound skew;
	uint32_t kept, late;
	uint32_t clamped;
};

static void pair_fails(struct pair_outcome *o, uint8_t status,
		       enum cell_why why, const char *reason)
{
	o->ack_status = o->one_way_status = status;
	o->ack_why = o->one_way_why = (uint8_t)why;
	fmt_snprintf(o->reason, sizeof(o->reason), "%s", reason);
	fmt_snprintf(o->one_way_reason, sizeof(o->one_way_reason), "%s",
		     reason);
}

/* The samples of ipi-ack in w->acked, then, where the TSC allows, the
 * one-way figures corrected in place of them. */
static void pair_figures(struct pair_outcome *o, struct ack_work *w,
			 struct sample_stats *ack, struct sample_stats *one)
{
	uint32_t i;
	const char *bad;

	o->kept = w->kept;
	o->late = w->late;
	if (w->kept < w->n) {
		char why[RESULTS_REASON_LEN];

		fmt_snprintf(why, sizeof(why), "%u of %u acknowledgements "
			     "came in time; the next was lost (none within %u "
			     "ms)", w->kept, w->n, OTHER_CPU_LATE_MS);
		pair_fails(o, EXP_FAILED, CELL_WHY_LOST, why);
		return;
	}
	stats_compute(w->acked, w->kept, ack);
	o->ack_status = EXP_OK;
	if (!cpu_has(X86_FEATURE_INVARIANT_TSC)) {
		o->one_way_status = EXP_SKIPPED;
		o->one_way_why = CELL_WHY_NOT_INVARIANT;
		fmt_snprintf(o->one_way_reason, sizeof(o->one_way_reason),
			     "%s", cell_why_text(CELL_WHY_NOT_INVARIANT));
		return;
	}
	for (i = 0; i < w->kept; i++)
		w->sent[i] = one_way_corrected(w->sent[i], w->entered[i],
					       &o->skew, &o->clamped);
	stats_compute(w->sent, w->kept, one);
	o->one_way_status = EXP_OK;
	if ((bad = skew_bound_unusable(&o->skew, one->median,
				       o->one_way_reason,
				       sizeof(o->one_way_reason)))) {
		o->one_way_status = EXP_SKIPPED;
		o->one_way_why = (uint8_t)skew_bound_why(&o->skew, one->median);
	} else if (o->clamped) {
		o->one_way_status = EXP_SKIPPED;
		o->one_way_why = CELL_WHY_CLAMPED;
		fmt_snprintf(o->one_way_reason, sizeof(o->one_way_reason),
			     "%s", cell_why_text(CELL_WHY_CLAMPED));
	}
}

/* Measures one ordered pair into *o: the TSC offset, then the
 * acknowledged IPIs, whose arrival at the target also makes the one-way
 * figures. */
static void run_one_pair(struct section *s, const struct pick *a,
			 const struct pick *b, struct pair_outcome *o,
			 struct sample_stats *ack, struct sample_stats *one)
{
	static struct skew_work skew;
	struct ack_work w = work_for(s);
	char why[RESULTS_REASON_LEN];

	if (faulted(a, b, why, sizeof(why))) {
		pair_fails(o, EXP_FAILED, CELL_WHY_FAULTED, why);
		return;
	}
	if (unreachable(s, a, b, why, sizeof(why))) {
		pair_fails(o, EXP_SKIPPED, CELL_WHY_UNREACHABLE, why);
		return;
	}
	/* Only the pair runs; the others stay parked, halted, so that an
	 * emulator's host cores serve these two. The sender spins through
	 * its whole row, parked after it. */
	if ((a->slot >= 0 && other_cpus_hold((uint32_t)a->slot, AP_SPIN)) ||
	    (b->slot >= 0 && other_cpus_hold((uint32_t)b->slot, AP_SPIN))) {
		fmt_snprintf(why, sizeof(why), "APIC id %u did not take the "
			     "command to run", a->slot >= 0 &&
			     !other_cpus_up((uint32_t)a->slot) ? a->apic_id
							       : b->apic_id);
		pair_fails(o, EXP_FAILED, CELL_WHY_NO_COMMAND, why);
		park(b);
		return;
	}
	/* A round's wait is the late bound: a slow round only widens its
	 * interval, which the others narrow. Without an invariant TSC the
	 * one-way figures are not made, and neither is their bound. */
	skew = (struct skew_work){ .budget_ticks = s->late_ticks };
	skew_bound_init(&skew.bound);
	if (cpu_has(X86_FEATURE_INVARIANT_TSC) &&
	    run_pair(a, skew_leader, b, skew_follower, &skew))
		skew.bound.rounds = 0;
	o->skew = skew.bound;

	w.dest = &b->apic_id;
	w.n_dest = 1;
	w.expect = 1;
	w.target = b->slot < 0 ? &boot_line : &ap_cpus[b->slot];
	if (run_pair(a, s->fault_once && a->slot >= 0 ? fault_work
						       : ack_samples,
		     b, 0, &w)) {
		if (!faulted(a, b, why, sizeof(why)))
			fmt_snprintf(why, sizeof(why), "the sender, APIC id "
				     "%u, did not finish its samples",
				     a->apic_id);
		pair_fails(o, EXP_FAILED, s->fault_once ? CELL_WHY_FAULTED
							: CELL_WHY_UNFINISHED,
			   why);
		s->fault_once = 0;
		park(b);
		return;
	}
	park(b);
	pair_figures(o, &w, ack, one);
}

/* The pair's cell; and, where it is the first of its relation whose
 * ipi-ack ran ok, both its rows in full, the ack's with its
 * distribution (docs/cross-cpu.md "In the handoff"). */
static void measure_pair(struct section *s, const struct pick *a,
			 uint16_t ai, const struct pick *b, uint16_t bi)
{
	static struct pair_outcome o;
	struct sample_stats ack = { 0 }, one = { 0 };
	unsigned relation = topology_relation(&s->r->machine.topology,
					      a->apic_id, b->apic_id);
	struct matrix_cell *c;
	struct cross_result *row;

	o = (struct pair_outcome){ 0 };
	skew_bound_init(&o.skew);
	run_one_pair(s, a, b, &o, &ack, &one);
	if (s->r->n_cells < RESULTS_MAX_CELLS) {
		c = &s->r->cell[s->r->n_cells++];
		*c = (struct matrix_cell){
			.sender = ai, .target = bi,
			.relation = (uint8_t)relation,
			.ack_status = o.ack_status,
			.one_way_status = o.one_way_status,
			.ack_why = o.ack_why, .one_way_why = o.one_way_why,
			.late = (uint16_t)(o.late > UINT16_MAX ? UINT16_MAX
							       : o.late),
			.ack = o.ack_status == EXP_OK ? clamp32(ack.median) : 0,
			.one_way = o.one_way_status == EXP_OK ?
					   clamp32(one.median) : 0,
			/* Only where the one-way figures were made: a
			 * bound that corrected nothing costs the handoff
			 * bytes and tells the reader nothing. */
			.offset_plus_minus =
				o.one_way_why != CELL_WHY_NOT_INVARIANT &&
						o.ack_status == EXP_OK &&
						o.skew.rounds &&
						o.skew.low <= o.skew.high ?
					clamp32((uint64_t)(o.skew.high -
							   o.skew.low) / 2) :
					0,
		};
	}
	if (o.ack_status != EXP_OK || s->kept_relation[relation])
		return;
	s->kept_relation[relation] = 1;
	row = add_row(s->r, CROSS_ACK, a, b, relation);
	if (row) {
		row->status = EXP_OK;
		row->late = o.late;
		row->time = ack;
		keep_pair_histogram(s->r, row, s->b->metric[METRIC_ENTRY],
				    o.kept);
	}
	row = add_row(s->r, CROSS_ONE_WAY, a, b, relation);
	if (row) {
		row->late = o.late;
		row->skew_low = o.skew.low;
		row->skew_high = o.skew.high;
		row->status = o.one_way_status;
		if (o.one_way_status == EXP_OK)
			row->time = one;
		else
			fmt_snprintf(row->reason, sizeof(row->reason), "%s",
				     o.one_way_reason);
	}
}

/* A row from the boot CPU that waits for `started` acks a sample,
 * sending to the first n_dest of `dest`. */
static void broadcast_row(const struct section *s, unsigned kind,
			  uint32_t shorthand, const uint32_t *dest,
			  uint32_t n_dest, uint32_t started,
			  const struct pick *boot, unsigned farthest)
{
	struct ack_work w = work_for(s);
	struct cross_result *c = add_row(s->r, kind, boot, 0, farthest);

	w.icr_low |= shorthand;
	w.dest = dest;
	w.n_dest = n_dest;
	w.expect = started;
	ack_samples(&w);
	if (c)
		c->targets = started;
	row_figures(c, w.acked, w.kept, w.n, w.late);
}

/* The boot CPU to every other that runs, at once and one by one, each
 * of them spinning for these rows and parked again after. */
static void measure_broadcasts(const struct section *s,
			       const struct pick *boot)
{
	static uint32_t dest[AP_MAX_CPUS];
	char why[RESULTS_REASON_LEN];
	unsigned farthest = CPU_RELATION_SELF;
	uint32_t slot, n = 0;

	/* Each is a destination of the second row: all must be named. */
	for (slot = 0; slot < other_cpus_slots(); slot++)
		if (other_cpus_up(slot) &&
		    apic_reach_ipi_why(other_cpus_apic_id(slot), s->x2apic, why,
				       sizeof(why))) {
			row_skipped(add_row(s->r, CROSS_BROADCAST_ACK, boot, 0,
					    CPU_RELATION_UNKNOWN),
				    EXP_SKIPPED, why);
			row_skipped(add_row(s->r, CROSS_UNICAST_ACK_EACH, boot,
					    0, CPU_RELATION_UNKNOWN),
				    EXP_SKIPPED, why);
			return;
		}
	for (slot = 0; slot < other_cpus_slots(); slot++) {
		unsigned rel;

		if (!other_cpus_up(slot) || other_cpus_fault(slot) ||
		    other_cpus_hold(slot, AP_SPIN))
			continue;
		rel = topology_relation(&s->r->machine.topology,
					boot->apic_id, other_cpus_apic_id(slot));
		dest[n++] = other_cpus_apic_id(slot);
		if (rel > farthest)
			farthest = rel;
	}
	/* One IPI with the all-excluding-self shorthand, whose destination
	 * the ICR ignores; then one to each. */
	broadcast_row(s, CROSS_BROADCAST_ACK, ICR_ALL_BUT_SELF, dest, 1, n,
		      boot, farthest);
	broadcast_row(s, CROSS_UNICAST_ACK_EACH, 0, dest, n, n, boot,
		      farthest);
	for (slot = 0; slot < other_cpus_slots(); slot++)
		if (other_cpus_up(slot) && !other_cpus_fault(slot))
			(void)other_cpus_hold(slot, AP_HALT);
}

size_t cross_cpu_handoff_reserve(const struct irqlab_config *c)
{
	return cross_handoff_reserve(other_cpus_started() + 1,
				     cross_full_most(c->cpus));
}

/* Ascending APIC ID, which is topology order: an ID's package bits lie
 * above its last-level cache's, its cache's above its core's, and its
 * core's above its thread's (SDM vol. 3A §9.9.1). */
static void sort_by_apic_id(struct pick *p, uint32_t n)
{
	uint32_t i, j;

	for (i = 1; i < n; i++) {
		struct pick t = p[i];

		for (j = i; j > 0 && p[j - 1].apic_id > t.apic_id; j--)
			p[j] = p[j - 1];
		p[j] = t;
	}
}

/* The processors the matrix takes, in topology order: the boot CPU and
 * every started one (cpus = auto or all), or each the cpus key names
 * by its MADT index, up to
 * CROSS_MAX_CPUS; those chosen past that are counted in
 * r->matrix_left_out. Returns how many it took. */
static uint32_t choose_cpus(struct run_result *r,
			    const struct irqlab_config *c, struct pick *picks,
			    struct pick *boot)
{
	static struct pick chosen[AP_MAX_CPUS + 1];
	uint32_t n = 0, slot, i, taken;

	*boot = (struct pick){ other_cpus_own_apic_id(), -1,
			       (uint8_t)(cpu_core_type() >>
					 CPUID_1A_EAX_CORE_TYPE_SHIFT) };
	for (slot = 0; slot < other_cpus_slots() && n < AP_MAX_CPUS; slot++) {
		uint32_t index = other_cpus_index(slot);

		if (other_cpus_ok(slot) &&
		    /* bit 0: auto, which all's bits hold too */
		    ((c->cpus & 1) ||
		     (index < 31 && (c->cpus >> (index + 1)) & 1)))
			chosen[n++] = (struct pick){
				other_cpus_apic_id(slot), (int)slot,
				(uint8_t)(ap_cpus[slot].core_type >>
					  CPUID_1A_EAX_CORE_TYPE_SHIFT) };
	}
	sort_by_apic_id(chosen, n);
	picks[0] = *boot;
	for (i = 0, taken = 1; i < n && taken < CROSS_MAX_CPUS; i++)
		picks[taken++] = chosen[i];
	r->matrix_left_out = n + 1 - taken;
	sort_by_apic_id(picks, taken);
	return taken;
}

/* Processor i past the full matrix, against each of its partners
 * (cross_partners), both ways: its own cells first, then each
 * partner's one to it; a pair an earlier such processor measured with
 * it is left out (cross_pair_measured_before). */
static void measure_past_full(struct section *s, const struct pick *picks,
			      uint32_t n, uint32_t i)
{
	static uint16_t partner[CPU_RELATION_COUNT];
	uint32_t k, m = cross_partners(&s->r->machine.topology, s->ids, n, i,
				       s->boot, partner);

	for (k = 0; k < m; k++)
		if (!cross_pair_measured_before(&s->r->machine.topology,
						s->ids, n, s->full, s->boot, i,
						partner[k]))
			measure_pair(s, &picks[i], (uint16_t)i,
				     &picks[partner[k]], partner[k]);
	park(&picks[i]);
	for (k = 0; k < m; k++)
		if (!cross_pair_measured_before(&s->r->machine.topology,
						s->ids, n, s->full, s->boot, i,
						partner[k])) {
			measure_pair(s, &picks[partner[k]], partner[k],
				     &picks[i], (uint16_t)i);
			park(&picks[partner[k]]);
		}
}

/* Processor i's turn in the matrix: in the full matrix, its row to
 * every other of it; past it, its pairs with its partners. A relation
 * not yet kept keeps its first ok pair in full. Returns 0, or -1 where
 * `fits` says the run no longer fits with it: the turn is then taken
 * back whole. */
static int measure_turn(struct section *s, const struct pick *picks,
			uint32_t n, uint32_t i,
			int (*fits)(const struct run_result *r))
{
	struct run_result *r = s->r;
	uint32_t j, n_cells = r->n_cells, n_cross = r->n_cross,
		    n_hists = r->n_cross_hists;
	uint8_t kept[CPU_RELATION_COUNT];

	__builtin_memcpy(kept, s->kept_relation, sizeof(kept));
	if (s->full[i]) {
		for (j = 0; j < n; j++)
			if (i != j && s->full[j])
				measure_pair(s, &picks[i], (uint16_t)i,
					     &picks[j], (uint16_t)j);
		park(&picks[i]);
	} else {
		measure_past_full(s, picks, n, i);
	}
	if (!fits || fits(r))
		return 0;
	r->n_cells = n_cells;
	r->n_cross = n_cross;
	r->n_cross_hists = n_hists;
	__builtin_memcpy(s->kept_relation, kept, sizeof(kept));
	return -1;
}

void bench_run_cross_cpu(struct run_result *r, const struct irqlab_config *c,
			 struct bench_buffers *b,
			 int (*fits)(const struct run_result *r))
{
	static struct pick picks[CROSS_MAX_CPUS];
	static uint8_t full[CROSS_MAX_CPUS];
	static uint32_t ids[CROSS_MAX_CPUS];
	uint32_t n_full, most, bound;
	struct pick boot;
	struct idt_gate_bytes saved, saved_wake;
	struct section s = { .r = r, .b = b };
	uint32_t n, i, first;
	uint64_t gs_base, t0 = tsc_open();
	const char *why = other_cpus_unavailable();

	n = choose_cpus(r, c, picks, &boot);
	if (!why && !lapic)
		why = "the local APIC is not enabled";
	if (!why && n == 1)
		why = "the cpus key chooses no processor that started but the "
		      "boot CPU";
	/* Every one parked, halted; each pair's two then run while the
	 * rest stay so. */
	if (!why && (why = other_cpus_wake_parked()))
		other_cpus_sleep("cross-cpu");
	if (why) {
		row_skipped(add_row(r, CROSS_ACK, &boot, &boot,
				    CPU_RELATION_UNKNOWN), EXP_SKIPPED, why);
		log_printf("cross-CPU rows: skipped: %s\n", why);
		/* A part that was to go on with the matrix leaves it to the
		 * next, up to the last part allowed; a run whose matrix
		 * never finished says from which sender. */
		if (r->matrix_resume)
			r->matrix_next_sender = r->matrix_resume;
		return;
	}
	s.fault_once = config_simulates(c, SIMULATE_AP_FAULT);
	for (i = 0; i < n; i++)
		ids[i] = picks[i].apic_id;
	for (s.boot = 0; s.boot < n && picks[s.boot].slot >= 0; s.boot++)
		;
	most = cross_full_most(c->cpus);
	n_full = cross_full_choice(n, s.boot, most, full);
	bound = cross_cell_bound(n, most);
	s.ids = ids;
	s.full = full;
	s.samples = cross_samples_per_pair(c->samples, bound);
	s.x2apic = lapic->mode == LAPIC_X2APIC;
	s.budget_ticks = wait_budget_ticks;
	s.late_ticks = r->tsc_hz / 1000 * OTHER_CPU_LATE_MS;
	s.gap_ticks = r->tsc_hz / 1000000 * SAMPLE_GAP_US;
	ap_reply_x2apic = (uint32_t)s.x2apic;
	ap_reply_ack_only = 1;
	r->matrix_samples = s.samples;
	r->n_matrix_cpus = n;
	for (i = 0; i < n; i++)
		r->matrix_cpu[i] = (struct matrix_cpu){ picks[i].apic_id,
							picks[i].core,
							full[i] };

	/* The boot CPU as a target: its gate and GS for the handler the
	 * others run. */
	__builtin_memcpy(&saved, idt_gate_entry(CROSS_VECTOR), sizeof(saved));
	idt_set_gate(CROSS_VECTOR, (const void *)ap_interrupt, 0);
	/* And its wake-ups while two others run (other_cpus_finish_halted). */
	__builtin_memcpy(&saved_wake, idt_gate_entry(WAKE_VECTOR),
			 sizeof(saved_wake));
	idt_set_gate(WAKE_VECTOR, (const void *)ap_wake, 0);
	gs_base = rdmsr(MSR_GS_BASE);
	wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)&boot_line);

	log_printf("cross-CPU rows: %u processors, %u of them in the full "
		   "matrix, %u ordered pairs at most, %u samples each, %s\n",
		   n, n_full, bound, s.samples, s.x2apic ? "x2apic" : "xapic");
	if (r->matrix_left_out)
		log_printf("cross-CPU rows: %u more processor(s) chosen, past "
			   "the matrix's %u, are left out of it\n",
			   r->matrix_left_out, CROSS_MAX_CPUS);
	if (cpu_has(X86_FEATURE_TSC_ADJUST))
		for (i = 0; i < n; i++)
			if (picks[i].slot >= 0)
				log_printf("cross-CPU rows: APIC id %u: "
					   "IA32_TSC_ADJUST %lld\n",
					   picks[i].apic_id,
					   (long long)ap_cpus[picks[i].slot]
						   .tsc_adjust);
	/* A part that resumes the matrix: from its sender on, its rows
	 * kept in full and its broadcasts left to part 1. */
	first = r->matrix_resume ? r->matrix_resume - 1u : 0;
	if (r->matrix_resume)
		__builtin_memset(s.kept_relation, 1, sizeof(s.kept_relation));
	else
		measure_broadcasts(&s, &boot);
	/* A part's first turn is taken whatever it takes only where the
	 * part measured nothing else, so that every part moves the matrix
	 * on; where it measured rows, those keep their room. */
	for (i = first; i < n; i++) {
		if (measure_turn(&s, picks, n, i,
				 i > first || r->n_experiments ? fits : NULL)) {
			r->matrix_next_sender = (uint16_t)(i + 1);
			log_printf("cross-CPU rows: part %u: the matrix fills the "
				   "handoff; its senders from %u on go to part "
				   "%u, after a reset\n", r->part, i,
				   r->part + 1u);
			break;
		}
		log_printf("cross-CPU rows: %s %u of %u, APIC id %u, done "
			   "after %llu ms\n", full[i] ? "sender" : "past the full "
			   "matrix, processor", i + 1, n, picks[i].apic_id,
			   (unsigned long long)(r->tsc_hz ? (tsc_close() - t0) *
							    1000 / r->tsc_hz
							  : 0));
	}

	wrmsr(MSR_GS_BASE, gs_base);
	idt_gate_swap(CROSS_VECTOR, &saved);
	idt_gate_swap(WAKE_VECTOR, &saved_wake);
	other_cpus_sleep("cross-cpu");
	r->cross_ticks = tsc_close() - t0;
	log_printf("cross-CPU rows: %u pairs and %u rows in full, in %llu "
		   "ms\n", r->n_cells, r->n_cross,
		   (unsigned long long)(r->tsc_hz ? r->cross_ticks * 1000 /
							    r->tsc_hz : 0));
}
