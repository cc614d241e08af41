/* The log-linear histogram against a sorted-array oracle. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/histogram.h"
#include "bench/model/stats.h"

static struct histogram h, d;

static void buckets_tile_the_number_line(void **state)
{
	unsigned i;

	(void)state;
	assert_int_equal(hist_lower(0), 0);
	for (i = 0; i + 1 < HIST_BUCKETS; i++) {
		assert_true(hist_lower(i) <= hist_upper(i));
		assert_int_equal(hist_upper(i) + 1, hist_lower(i + 1));
		assert_int_equal(hist_index(hist_lower(i)), i);
		assert_int_equal(hist_index(hist_upper(i)), i);
	}
	assert_int_equal(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
	assert_int_equal(hist_upper(HIST_BUCKETS - 1), UINT64_MAX);
}

static void exact_below_64_and_within_3_percent_above(void **state)
{
	uint64_t v;

	(void)state;
	for (v = 0; v < HIST_EXACT; v++)
		assert_int_equal(hist_lower(hist_index(v)), v);
	for (v = 64; v < 1000000; v = v * 3 / 2 + 1) {
		unsigned i = hist_index(v);

		/* a bucket is at most 1/32 of its lower bound wide */
		assert_true((hist_upper(i) - hist_lower(i)) * 32 <= hist_lower(i));
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void percentiles_match_the_oracle_bucket(void **state)
{
	static uint64_t data[5000];
	static const uint32_t bps[] = { 1, 100, 5000, 9000, 9900, 9990, 10000 };
	unsigned i, k;

	(void)state;
	srand(7);
	hist_clear(&h);
	for (i = 0; i < 5000; i++) {
		/* mostly small, a long tail */
		data[i] = (uint64_t)(rand() % 40) + (i % 97 == 0 ? rand() % 100000 : 0);
		hist_add(&h, data[i]);
	}
	qsort(data, 5000, sizeof(data[0]), cmp_u64);
	for (k = 0; k < sizeof(bps) / sizeof(bps[0]); k++) {
		uint64_t exact = stats_percentile_sorted(data, 5000, bps[k]);

		assert_int_equal(hist_percentile(&h, bps[k]),
				 hist_lower(hist_index(exact)));
	}
	assert_int_equal(h.total, 5000);
}

static void two_ranges_share_one_histogram(void **state)
{
	unsigned i;

	(void)state;
	hist_clear(&h);
	for (i = 0; i < 100; i++) {
		hist_add(&h, i);
		hist_add(&h, i * 1000);
	}
	assert_int_equal(h.total, 200);
	assert_int_equal(h.counts[hist_index(0)], 2);	/* 0 from both */
	assert_int_equal(hist_percentile(&h, 10000), hist_lower(hist_index(99000)));
}

static void encoding_round_trips_and_is_compact(void **state)
{
	uint8_t buf[4096];
	size_t n, cut;

	(void)state;
	hist_clear(&h);
	hist_add(&h, 52);
	hist_add(&h, 52);
	hist_add(&h, 1234567);
	hist_add(&h, UINT64_MAX);
	n = hist_encode(&h, buf, sizeof(buf));
	assert_true(n > 0 && n < 16);
	assert_int_equal(hist_decode(buf, n, &d), 0);
	assert_memory_equal(&h, &d, sizeof(h));
	for (cut = 0; cut < n; cut++)
		assert_int_equal(hist_decode(buf, cut, &d), -1);
	assert_int_equal(hist_encode(&h, buf, n - 1), 0);
	hist_clear(&h);
	n = hist_encode(&h, buf, sizeof(buf));
	assert_int_equal(n, 1);	/* empty: just the zero count */
}

static void inconsistent_encodings_are_refused(void **state)
{
	static const uint8_t repeated_index[] = { 2, 5, 1, 0, 1 };
	static const uint8_t zero_count[] = { 1, 5, 0 };
	static const uint8_t past_the_end[] = { 1, 0xff, 0x7f, 1 };
	static const uint8_t trailing[] = { 1, 5, 1, 9 };

	(void)state;
	assert_int_equal(hist_decode(repeated_index, sizeof(repeated_index), &d), -1);
	assert_int_equal(hist_decode(zero_count, sizeof(zero_count), &d), -1);
	assert_int_equal(hist_decode(past_the_end, sizeof(past_the_end), &d), -1);
	assert_int_equal(hist_decode(trailing, sizeof(trailing), &d), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets_tile_the_number_line),
		cmocka_unit_test(exact_below_64_and_within_3_percent_above),
		cmocka_unit_test(percentiles_match_the_oracle_bucket),
		cmocka_unit_test(two_ranges_share_one_histogram),
		cmocka_unit_test(encoding_round_trips_and_is_compact),
		cmocka_unit_test(inconsistent_encodings_are_refused),
	};

	return cmocka_run_group_tests_name("histogram", tests, NULL, NULL);
}
