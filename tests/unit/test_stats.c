/* Statistics against a sort-based oracle (qsort + nearest rank). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "bench/model/stats.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank written the textbook way, in floating point. */
static uint64_t oracle_percentile(const uint64_t *sorted, size_t n, double p)
{
	size_t rank = 0;

	while ((double)rank < p / 100.0 * (double)n - 1e-9)
		rank++;
	if (rank == 0)
		rank = 1;
	return sorted[rank - 1];
}

static void check_against_oracle(const uint64_t *data, size_t n)
{
	uint64_t *mine = malloc(n * sizeof(*mine));
	uint64_t *ref = malloc(n * sizeof(*ref));
	struct sample_stats s;
	long double sum = 0, mean_milli;
	size_t i;

	memcpy(mine, data, n * sizeof(*mine));
	memcpy(ref, data, n * sizeof(*ref));
	qsort(ref, n, sizeof(*ref), cmp_u64);
	stats_compute(mine, n, &s);

	assert_memory_equal(mine, ref, n * sizeof(*ref)); /* sorted in place */
	assert_int_equal(s.count, n);
	assert_int_equal(s.min, ref[0]);
	assert_int_equal(s.max, ref[n - 1]);
	assert_int_equal(s.p1, oracle_percentile(ref, n, 1));
	assert_int_equal(s.median, oracle_percentile(ref, n, 50));
	assert_int_equal(s.p90, oracle_percentile(ref, n, 90));
	assert_int_equal(s.p99, oracle_percentile(ref, n, 99));
	assert_int_equal(s.p999, oracle_percentile(ref, n, 99.9));
	for (i = 0; i < n; i++)
		sum += ref[i];
	mean_milli = sum * 1000 / n;
	/* The mean saturates rather than wraps. */
	assert_int_equal(s.mean_milli, mean_milli >= 18446744073709551615.0L
					       ? UINT64_MAX
					       : (uint64_t)mean_milli);
	if (ref[n - 1] >= STATS_STDDEV_LIMIT) {
		assert_int_equal(s.stddev_milli, UINT64_MAX);
	} else {
		/* population standard deviation around the integer mean the
		 * code uses; long double is exact enough to +-1 */
		long double var = 0, mean = (long double)s.mean_milli / 1000;
		long double want;

		for (i = 0; i < n; i++)
			var += ((long double)ref[i] - mean) * ((long double)ref[i] - mean);
		want = sqrtl(var / n) * 1000;
		assert_true((long double)s.stddev_milli <= want + 1 &&
			    (long double)s.stddev_milli >= want - 1);
	}
	free(mine);
	free(ref);
}

static void random_data_matches_oracle(void **state)
{
	static uint64_t data[10007];
	size_t i, n;

	(void)state;
	srand(12345);
	for (n = 1; n <= sizeof(data) / sizeof(data[0]); n = n * 3 + 1) {
		for (i = 0; i < n; i++)
			data[i] = (uint64_t)(rand() % 5000);
		check_against_oracle(data, n);
	}
}

static void all_equal(void **state)
{
	uint64_t data[1000];
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++)
		data[i] = 52;
	check_against_oracle(data, 1000);
}

static void two_spikes(void **state)
{
	uint64_t data[1000];
	size_t i;

	(void)state;
	for (i = 0; i < 1000; i++)
		data[i] = i % 2 ? 100 : 900;
	check_against_oracle(data, 1000);
}

static void huge_outliers_do_not_wrap_the_mean(void **state)
{
	uint64_t data[100];
	struct sample_stats s;
	size_t i;

	(void)state;
	for (i = 0; i < 100; i++)
		data[i] = 10;
	data[7] = UINT64_MAX / 4;
	data[42] = UINT64_MAX / 4;
	check_against_oracle(data, 100);
	/* (2 * (2^64/4) + 98 * 10) * 1000 / 100 exceeds 64 bits: saturates */
	stats_compute(data, 100, &s);
	assert_int_equal(s.mean_milli, UINT64_MAX);
	assert_int_equal(s.max, UINT64_MAX / 4);
	assert_int_equal(s.median, 10);
}

static void single_sample(void **state)
{
	uint64_t one = 77;
	struct sample_stats s;

	(void)state;
	stats_compute(&one, 1, &s);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.min, 77);
	assert_int_equal(s.median, 77);
	assert_int_equal(s.p99, 77);
	assert_int_equal(s.max, 77);
	assert_int_equal(s.mean_milli, 77000);
}

static void no_samples_gives_zeros(void **state)
{
	struct sample_stats s;

	(void)state;
	memset(&s, 0xff, sizeof(s));
	stats_compute(NULL, 0, &s);
	assert_int_equal(s.count, 0);
	assert_int_equal(s.max, 0);
	assert_int_equal(stats_percentile_sorted(NULL, 0, STATS_P50), 0);
}

static void median_is_the_lower_one_for_even_counts(void **state)
{
	uint64_t data[4] = { 40, 10, 30, 20 };
	struct sample_stats s;

	(void)state;
	stats_compute(data, 4, &s);
	assert_int_equal(s.median, 20);
	assert_int_equal(s.p99, 40);
}

static void sorted_and_reversed_inputs(void **state)
{
	uint64_t data[513];
	size_t i;

	(void)state;
	for (i = 0; i < 513; i++)
		data[i] = i;
	check_against_oracle(data, 513);
	for (i = 0; i < 513; i++)
		data[i] = 513 - i;
	check_against_oracle(data, 513);
}

static void integer_square_root(void **state)
{
	static const uint64_t roots[] = { 0, 1, 2, 3, 1000, 65535, 4294967295u,
					  4294967296ull, 3037000499ull,
					  UINT64_MAX };
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		unsigned __int128 sq = (unsigned __int128)roots[i] * roots[i];

		assert_int_equal(stats_isqrt(sq), roots[i]);
		if (roots[i])
			assert_int_equal(stats_isqrt(sq - 1), roots[i] - 1);
	}
}

static void known_standard_deviation(void **state)
{
	uint64_t data[8] = { 2, 4, 4, 4, 5, 5, 7, 9 };	/* mean 5, sd 2 */
	struct sample_stats s;

	(void)state;
	stats_compute(data, 8, &s);
	assert_int_equal(s.mean_milli, 5000);
	assert_int_equal(s.stddev_milli, 2000);
}

static void ppm_differences_are_signed_and_never_overflow(void **state)
{
	(void)state;
	assert_int_equal(ppm_difference(2401000000ull, 2400000000ull), 416);
	assert_int_equal(ppm_difference(2100000000ull, 2400000000ull), -125000);
	assert_int_equal(ppm_difference(5, 0), 0);
	/* What a decoded blob may hold: saturated, not undefined. */
	assert_true(ppm_difference(UINT64_MAX, 1) == INT64_MAX);
	assert_true(ppm_difference(1, UINT64_MAX) == -999999);
	assert_true(ppm_difference(0x4000000000000000ull, 3) == INT64_MAX);
	assert_true(ppm_difference(3, 0x4000000000000000ull) == -999999);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ppm_differences_are_signed_and_never_overflow),
		cmocka_unit_test(integer_square_root),
		cmocka_unit_test(known_standard_deviation),
		cmocka_unit_test(random_data_matches_oracle),
		cmocka_unit_test(all_equal),
		cmocka_unit_test(two_spikes),
		cmocka_unit_test(huge_outliers_do_not_wrap_the_mean),
		cmocka_unit_test(single_sample),
		cmocka_unit_test(no_samples_gives_zeros),
		cmocka_unit_test(median_is_the_lower_one_for_even_counts),
		cmocka_unit_test(sorted_and_reversed_inputs),
	};

	return cmocka_run_group_tests_name("stats", tests, NULL, NULL);
}
