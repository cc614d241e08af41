/* The cross-CPU section's arithmetic (bench/model/cross_cpu.c): the TSC
 * offset bound from ping-pong rounds, the one-way correction and when
 * its bound is too loose to show, each relation's median over a matrix,
 * and what the figures are under each clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/lib/cpuid_bits.h"
#include "bench/model/config.h"
#include "bench/model/cross_cpu.h"

/* B's TSC runs 1000 ticks ahead of A's; each round A reads t0, B reads
 * 40 to 60 ticks later (in A's time), A reads t1 40 ticks after that. */
static void offset_is_bounded_by_the_tightest_rounds(void **state)
{
	struct skew_bound b;
	uint64_t t0 = 5000000;
	int i;

	(void)state;
	skew_bound_init(&b);
	for (i = 0; i < 8; i++, t0 += 1000) {
		uint64_t in_a = t0 + 40 + (uint64_t)(i % 3) * 10;

		skew_bound_add(&b, t0, in_a + 1000, in_a + 40);
	}
	/* tb - t1 = 1000 - 40 every round; tb - t0 = 1000 + 40 at best. */
	assert_int_equal(b.low, 960);
	assert_int_equal(b.high, 1040);
	assert_int_equal(b.rounds, 8);
}

/* The same with B behind A: the bound is negative, and correct. */
static void offset_may_be_negative(void **state)
{
	struct skew_bound b;

	(void)state;
	skew_bound_init(&b);
	skew_bound_add(&b, 10000, 10050 - 3000, 10100);
	assert_int_equal(b.low, -3050);
	assert_int_equal(b.high, -2950);
}

/* A's clock one way, then the other: the rounds contradict each other. */
static void moving_tscs_are_refused(void **state)
{
	struct skew_bound b;
	char why[128];

	(void)state;
	skew_bound_init(&b);
	skew_bound_add(&b, 1000, 1100, 1200);	/* offset in -100 .. 100 */
	skew_bound_add(&b, 2000, 2400, 2250);	/* offset in 150 .. 400 */
	assert_true(b.high < b.low);
	assert_non_null(skew_bound_unusable(&b, 5000, why, sizeof(why)));
	assert_non_null(strstr(why, "moved apart"));
}

static void a_loose_bound_hides_the_figure(void **state)
{
	struct skew_bound b = { .low = 900, .high = 1100, .rounds = 4 };
	char why[128];

	(void)state;
	/* +-100 against a median of 400 (250/1000 is 100): shown. */
	assert_null(skew_bound_unusable(&b, 400, why, sizeof(why)));
	/* against 399: over a quarter, hidden, and the reason says so. */
	assert_non_null(skew_bound_unusable(&b, 399, why, sizeof(why)));
	assert_non_null(strstr(why, "+-100"));
	b.rounds = 0;
	assert_non_null(skew_bound_unusable(&b, 100000, why, sizeof(why)));
}

static void one_way_takes_off_the_middle_of_the_bound(void **state)
{
	struct skew_bound b = { .low = 960, .high = 1040, .rounds = 8 };
	uint32_t clamped = 0;

	(void)state;
	/* Sent at 7000 in A's time, taken at 7300 + 1000 in B's. */
	assert_int_equal(one_way_corrected(7000, 8300, &b, &clamped), 300);
	/* Taken before it was sent, once corrected: 0, and counted. */
	assert_int_equal(one_way_corrected(7000, 7900, &b, &clamped), 0);
	assert_int_equal(clamped, 1);
	/* A negative offset: B's TSC 3000 behind. */
	b = (struct skew_bound){ .low = -3050, .high = -2950, .rounds = 1 };
	assert_int_equal(one_way_corrected(10000, 7200, &b, &clamped), 200);
}

/* A cell of the matrix from processor a to b. */
static void add_cell(struct run_result *r, uint16_t a, uint16_t b,
		     uint8_t relation, uint8_t ack_status, uint32_t ack,
		     uint32_t one_way)
{
	r->cell[r->n_cells++] = (struct matrix_cell){
		.sender = a, .target = b, .relation = relation,
		.ack_status = ack_status, .ack = ack,
		.one_way_status = one_way ? EXP_OK : EXP_SKIPPED,
		.one_way = one_way,
	};
}

static void each_relation_has_the_median_of_its_pairs(void **state)
{
	static struct run_result r;
	uint32_t pairs;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.n_matrix_cpus = 4;
	add_cell(&r, 0, 1, CPU_RELATION_SAME_LLC, EXP_OK, 300, 50);
	add_cell(&r, 1, 0, CPU_RELATION_SAME_LLC, EXP_OK, 100, 0);
	add_cell(&r, 2, 3, CPU_RELATION_SAME_LLC, EXP_OK, 200, 0);
	add_cell(&r, 0, 2, CPU_RELATION_OTHER_PACKAGE, EXP_OK, 900, 0);
	add_cell(&r, 2, 0, CPU_RELATION_OTHER_PACKAGE, EXP_OK, 700, 0);
	add_cell(&r, 1, 3, CPU_RELATION_OTHER_PACKAGE, EXP_FAILED, 1, 0);
	/* a broadcast row, whose figures are its own */
	r.cross[0] = (struct cross_result){
		.kind = CROSS_BROADCAST_ACK, .status = EXP_OK,
		.relation = CPU_RELATION_OTHER_PACKAGE,
		.target = CROSS_ALL_TARGETS, .time = { .median = 4000 },
	};
	r.n_cross = 1;
	assert_int_equal(cross_relation_median(&r, CROSS_ACK,
					       CPU_RELATION_SAME_LLC, &pairs),
			 200);
	assert_int_equal(pairs, 3);
	/* The lower median of two; the failed pair is not a figure. */
	assert_int_equal(cross_relation_median(&r, CROSS_ACK,
					       CPU_RELATION_OTHER_PACKAGE,
					       &pairs), 700);
	assert_int_equal(pairs, 2);
	assert_int_equal(cross_relation_median(&r, CROSS_ACK,
					       CPU_RELATION_SMT_SIBLING,
					       &pairs), 0);
	assert_int_equal(pairs, 0);
	/* one-way: the one pair whose figure was made */
	assert_int_equal(cross_relation_median(&r, CROSS_ONE_WAY,
					       CPU_RELATION_SAME_LLC, &pairs),
			 50);
	assert_int_equal(pairs, 1);
	assert_int_equal(cross_relation_median(&r, CROSS_BROADCAST_ACK,
					       CPU_RELATION_OTHER_PACKAGE,
					       &pairs), 4000);
	assert_int_equal(pairs, 1);
}

/* The median over a full matrix's 4,032 pairs is the lower median, as a
 * sort would give it, whatever order the cells come in. */
static void a_full_matrix_has_its_exact_median(void **state)
{
	static struct run_result r;
	uint32_t pairs, i, seed = 2463534242u, rounds;

	(void)state;
	for (rounds = 0; rounds < 3; rounds++) {
		static uint32_t sorted[RESULTS_MAX_CELLS];
		uint32_t n = RESULTS_MAX_CELLS - rounds; /* even and odd */

		memset(&r, 0, sizeof(r));
		r.n_matrix_cpus = RESULTS_FULL_MATRIX_CPUS;
		for (i = 0; i < n; i++) {
			seed ^= seed << 13;
			seed ^= seed >> 17;
			seed ^= seed << 5;
			/* many repeats, as one-bucket figures repeat */
			add_cell(&r, (uint16_t)(i / 63), (uint16_t)(i % 63 + 1),
				 CPU_RELATION_SAME_PACKAGE, EXP_OK,
				 rounds == 2 ? 500 + seed % 7 : seed % 100000,
				 0);
			sorted[i] = r.cell[i].ack;
		}
		/* an insertion sort, the plain way */
		for (i = 1; i < n; i++) {
			uint32_t v = sorted[i], j = i;

			for (; j > 0 && sorted[j - 1] > v; j--)
				sorted[j] = sorted[j - 1];
			sorted[j] = v;
		}
		assert_int_equal(cross_relation_median(&r, CROSS_ACK,
						       CPU_RELATION_SAME_PACKAGE,
						       &pairs),
				 sorted[(n - 1) / 2]);
		assert_int_equal(pairs, n);
	}
}

/* A pair takes a quarter of a row's samples, at least 20 (a row's own
 * where fewer), and the section at most 140,000 over its pairs: 2,500
 * each for 8 processors, as before the matrix grew, 583 for 16, 34 for
 * 64; never more than 140,000 in all up to 64 processors. */
static void the_samples_shrink_as_the_pairs_grow(void **state)
{
	uint32_t cpus;

	(void)state;
	assert_int_equal(cross_samples_per_pair(10000, 12), 2500);
	assert_int_equal(cross_samples_per_pair(10000, 56), 2500);
	assert_int_equal(cross_samples_per_pair(10000, 240), 583);
	assert_int_equal(cross_samples_per_pair(10000, 4032), 34);
	assert_int_equal(cross_samples_per_pair(40, 12), 20);
	assert_int_equal(cross_samples_per_pair(12, 12), 12);
	for (cpus = 2; cpus <= RESULTS_FULL_MATRIX_CPUS; cpus++) {
		uint32_t pairs = cpus * (cpus - 1);

		assert_true((uint64_t)pairs *
				    cross_samples_per_pair(100000, pairs) <=
			    CROSS_SECTION_SAMPLES);
		assert_true(cross_samples_per_pair(100000, pairs) >=
			    CROSS_MIN_SAMPLES);
	}
}

/* A hybrid CPU: the pairs from performance to efficiency cores apart,
 * each end's core type that of its matrix processor. */
#define CORE CORE_TYPE_CORE
#define ATOM CORE_TYPE_ATOM
static void each_core_type_pair_has_its_median(void **state)
{
	static struct run_result r;
	/* processors 0, 1 performance cores; 2, 3 efficiency cores */
	static const uint16_t ends[][3] = {
		{ 0, 1, 100 }, { 0, 2, 180 }, { 1, 3, 160 },
		{ 2, 0, 150 }, { 2, 3, 220 },
	};
	uint32_t i, pairs;

	(void)state;
	memset(&r, 0, sizeof(r));
	assert_false(cross_hybrid(&r));
	r.n_matrix_cpus = 4;
	for (i = 0; i < 4; i++)
		r.matrix_cpu[i] = (struct matrix_cpu){ i, i < 2 ? CORE : ATOM, 1 };
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		add_cell(&r, ends[i][0], ends[i][1],
			 CPU_RELATION_SAME_PACKAGE, EXP_OK, ends[i][2], 0);
	assert_true(cross_hybrid(&r));
	assert_int_equal(cross_core_median(&r, CROSS_ACK, CORE, ATOM, &pairs),
			 160);
	assert_int_equal(pairs, 2);
	assert_int_equal(cross_core_median(&r, CROSS_ACK, ATOM, ATOM, &pairs),
			 220);
	assert_int_equal(cross_core_median(&r, CROSS_ONE_WAY, ATOM, ATOM,
					   &pairs), 0);
	assert_int_equal(pairs, 0);
}

/* Past 64 processors: 64 of them, spread evenly over the topology
 * order, the boot CPU among them in place of its nearest, make the full
 * matrix; each other is measured against the boot CPU and the first
 * processor of each relation, and a pair of two such processors is
 * measured in the turn of the first. A 2-package machine of 128: two
 * threads a core (smt_shift 1), 16 cores a cache (llc_shift 5), two
 * caches a package (package_shift 6). */
static void past_64_the_full_matrix_spreads_and_the_rest_take_partners(
	void **state)
{
	static const struct topology t = { .known = 1, .smt_shift = 1,
					   .llc_shift = 5, .package_shift = 6 };
	static uint32_t ids[128];
	static uint8_t full[200];
	uint16_t partner[CPU_RELATION_COUNT];
	uint32_t i, n, m;

	(void)state;
	for (i = 0; i < 128; i++)
		ids[i] = i;
	assert_int_equal(
		cross_full_choice(40, 7, RESULTS_FULL_MATRIX_CPUS, full), 40);
	for (i = 0; i < 40; i++)
		assert_true(full[i]);
	assert_int_equal(
		cross_full_choice(128, 0, RESULTS_FULL_MATRIX_CPUS, full), 64);
	for (i = 0, n = 0; i < 128; i++)
		n += full[i];
	assert_int_equal(n, 64);
	assert_true(full[0] && full[2] && full[64] && full[126]);
	assert_false(full[1] || full[127]);
	/* a boot CPU the spread misses takes its nearest one's place */
	assert_int_equal(
		cross_full_choice(128, 5, RESULTS_FULL_MATRIX_CPUS, full), 64);
	assert_true(full[5]);
	assert_false(full[4] && full[6]);
	for (i = 0, n = 0; i < 128; i++)
		n += full[i];
	assert_int_equal(n, 64);
	/* processor 65 (package 1, cache 2): the boot CPU 0, its sibling
	 * 64, cache-mate 66, package-mate 96 (first in the other cache),
	 * and 0 is already there for the other package */
	(void)cross_full_choice(128, 0, RESULTS_FULL_MATRIX_CPUS, full);
	m = cross_partners(&t, ids, 128, 65, 0, partner);
	assert_int_equal(m, 4);
	assert_int_equal(partner[0], 0);
	assert_int_equal(partner[1], 64);
	assert_int_equal(partner[2], 66);
	assert_int_equal(partner[3], 96);
	/* 64 is in the full matrix, so 65's pair with it is 65's own */
	assert_false(cross_pair_measured_before(&t, ids, 128, full, 0, 65,
						64));
	/* with only the boot CPU in the full matrix, 2 comes before its
	 * sibling 3 and takes it as a partner: their pair is 2's, not 3's */
	memset(full, 0, sizeof(full));
	full[0] = 1;
	assert_true(cross_pair_measured_before(&t, ids, 128, full, 0, 3, 2));
	assert_false(cross_pair_measured_before(&t, ids, 128, full, 0, 2, 3));
	assert_false(cross_pair_measured_before(&t, ids, 128, full, 0, 3, 0));
	/* 3 takes 0, its sibling 2, 32 in the package's other cache, and 64
	 * in the other package (0, first of its cache, already there) */
	m = cross_partners(&t, ids, 128, 3, 0, partner);
	assert_int_equal(m, 4);
	assert_int_equal(partner[1], 2);
	assert_int_equal(partner[3], 64);
	/* the bound: 64 x 63, and 2 cells a relation's partner for each
	 * processor past them */
	assert_int_equal(cross_cell_bound(128, RESULTS_FULL_MATRIX_CPUS),
			 64 * 63 + 64 * 2 * CPU_RELATION_COUNT);
	assert_int_equal(cross_cell_bound(8, RESULTS_FULL_MATRIX_CPUS), 56);
	/* cpus = all: the 128 all in the full matrix, and of 200, 128
	 * spread over them (every processor at 200 * k / 128) */
	assert_int_equal(cross_full_most(CONFIG_ALL), RESULTS_ALL_MATRIX_CPUS);
	assert_int_equal(cross_full_most(1), RESULTS_FULL_MATRIX_CPUS);
	assert_int_equal(cross_full_most(1u << 1 | 1u << 4),
			 RESULTS_FULL_MATRIX_CPUS);
	assert_int_equal(cross_full_choice(128, 0, RESULTS_ALL_MATRIX_CPUS,
					   full), 128);
	for (i = 0, n = 0; i < 128; i++)
		n += full[i];
	assert_int_equal(n, 128);
	assert_int_equal(cross_cell_bound(128, RESULTS_ALL_MATRIX_CPUS),
			 128 * 127);
	assert_int_equal(cross_full_choice(200, 0, RESULTS_ALL_MATRIX_CPUS,
					   full), 128);
	for (i = 0, n = 0; i < 200; i++)
		n += full[i];
	assert_int_equal(n, 128);
	assert_true(full[0] && full[1] && !full[2] && full[3] && full[198] &&
		    !full[199]);
	assert_int_equal(cross_cell_bound(200, RESULTS_ALL_MATRIX_CPUS),
			 128 * 127 + 72 * 2 * CPU_RELATION_COUNT);
}

static void only_hardware_figures_are_latencies(void **state)
{
	(void)state;
	assert_non_null(strstr(cross_figures_meaning(CLOCK_ICOUNT),
			       "scheduler artefacts"));
	assert_non_null(strstr(cross_figures_meaning(CLOCK_TCG_NOISE),
			       "never cycles"));
	assert_non_null(strstr(cross_figures_meaning(CLOCK_TSC_TICKS),
			       "TSC ticks"));
	assert_non_null(strstr(cross_figures_meaning(CLOCK_EMULATOR),
			       "never cycles"));
}

/* A halted or MWAITing target may wake without an interrupt once per
 * 100 interrupts it took; one more fails the row, with both counts in
 * the reason, which fits the results' reason field. */
static void target_wakeups_are_bounded_per_hundred_interrupts(void **state)
{
	char why[RESULTS_REASON_LEN];

	(void)state;
	assert_null(target_wakeups_past_bound(0, 0, why, sizeof(why)));
	assert_null(target_wakeups_past_bound(0, 420, why, sizeof(why)));
	assert_null(target_wakeups_past_bound(4, 420, why, sizeof(why)));
	assert_non_null(target_wakeups_past_bound(5, 420, why, sizeof(why)));
	assert_string_equal(why, "the target woke 5 times with no interrupt "
			    "or new command, over 1 per 100 of its 420 "
			    "interrupts: it did not wait");
	assert_non_null(target_wakeups_past_bound(1, 0, why, sizeof(why)));
	assert_non_null(target_wakeups_past_bound(4294967295u, 4294967295u,
						  why, sizeof(why)));
	assert_non_null(strstr(why, "it did not wait"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(offset_is_bounded_by_the_tightest_rounds),
		cmocka_unit_test(offset_may_be_negative),
		cmocka_unit_test(moving_tscs_are_refused),
		cmocka_unit_test(a_loose_bound_hides_the_figure),
		cmocka_unit_test(one_way_takes_off_the_middle_of_the_bound),
		cmocka_unit_test(each_relation_has_the_median_of_its_pairs),
		cmocka_unit_test(a_full_matrix_has_its_exact_median),
		cmocka_unit_test(the_samples_shrink_as_the_pairs_grow),
		cmocka_unit_test(each_core_type_pair_has_its_median),
		cmocka_unit_test(
			past_64_the_full_matrix_spreads_and_the_rest_take_partners),
		cmocka_unit_test(only_hardware_figures_are_latencies),
		cmocka_unit_test(target_wakeups_are_bounded_per_hundred_interrupts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
