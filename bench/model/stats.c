#include "bench/model/stats.h"

#define STATS_FIELD(field, name, kind)                                      \
	{ name, offsetof(struct sample_stats, field), kind }

const struct stats_field stats_fields[] = {
	STATS_FIELD(count, "samples", STATS_FIELD_COUNT),
	STATS_FIELD(min, "min", STATS_FIELD_FIGURE),
	STATS_FIELD(p1, "p1", STATS_FIELD_FIGURE),
	STATS_FIELD(median, "median", STATS_FIELD_FIGURE),
	STATS_FIELD(p90, "p90", STATS_FIELD_FIGURE),
	STATS_FIELD(p99, "p99", STATS_FIELD_FIGURE),
	STATS_FIELD(p999, "p99.9", STATS_FIELD_FIGURE),
	STATS_FIELD(max, "max", STATS_FIELD_FIGURE),
	STATS_FIELD(mean_milli, "mean", STATS_FIELD_MEAN),
	STATS_FIELD(stddev_milli, "stddev", STATS_FIELD_SPREAD),
};
const size_t stats_field_count = sizeof(stats_fields) / sizeof(stats_fields[0]);
_Static_assert(sizeof(stats_fields) / sizeof(stats_fields[0]) ==
		       (sizeof(struct sample_stats) - 8) / 8 + 1,
	       "every field of struct sample_stats is in stats_fields");

static void sift_down(uint64_t *a, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;
		uint64_t tmp;

		if (child >= n)
			return;
		if (child + 1 < n && a[child + 1] > a[child])
			child++;
		if (a[root] >= a[child])
			return;
		tmp = a[root];
		a[root] = a[child];
		a[child] = tmp;
		root = child;
	}
}

void stats_sort(uint64_t *a, size_t n)
{
	size_t i;

	if (n < 2)
		return;
	for (i = n / 2; i-- > 0;)
		sift_down(a, i, n);
	for (i = n - 1; i > 0; i--) {
		uint64_t tmp = a[0];
		a[0] = a[i];
		a[i] = tmp;
		sift_down(a, 0, i);
	}
}

uint64_t stats_percentile_sorted(const uint64_t *sorted, size_t n, uint32_t bp)
{
	uint64_t rank;

	if (n == 0)
		return 0;
	if (bp > 10000)
		bp = 10000;
	/* rank = ceil(bp * n / 10000), at least 1 */
	rank = ((uint64_t)bp * n + 9999) / 10000;
	if (rank == 0)
		rank = 1;
	return sorted[rank - 1];
}

void stats_compute(uint64_t *samples, size_t n, struct sample_stats *out)
{
	uint64_t sum_hi = 0, sum_lo = 0;
	size_t i;

	*out = (struct sample_stats){ 0 };
	if (n == 0)
		return;
	stats_sort(samples, n);
	out->count = (uint32_t)n;
	out->min = samples[0];
	out->max = samples[n - 1];
	out->p1 = stats_percentile_sorted(samples, n, STATS_P1);
	out->median = stats_percentile_sorted(samples, n, STATS_P50);
	out->p90 = stats_percentile_sorted(samples, n, STATS_P90);
	out->p99 = stats_percentile_sorted(samples, n, STATS_P99);
	out->p999 = stats_percentile_sorted(samples, n, STATS_P999);

	/* 128-bit sum in two words, so huge outliers cannot wrap it. */
	for (i = 0; i < n; i++) {
		uint64_t before = sum_lo;
		sum_lo += samples[i];
		if (sum_lo < before)
			sum_hi++;
	}
	{
		/* mean_milli = sum * 1000 / n, done as long division on the
		 * 128-bit sum so no intermediate overflows. */
		unsigned __int128 sum = ((unsigned __int128)sum_hi << 64) | sum_lo;
		unsigned __int128 milli = sum * 1000u / n;
		out->mean_milli = milli > UINT64_MAX ? UINT64_MAX : (uint64_t)milli;
	}
	/* Second pass, in milli units around the mean: with samples below
	 * 2^40 each squared deviation is below 2^100, and a million of them
	 * below 2^120, so the 128-bit sum cannot wrap. */
	if (out->max >= STATS_STDDEV_LIMIT) {
		out->stddev_milli = UINT64_MAX;
		return;
	}
	{
		unsigned __int128 squares = 0;

		for (i = 0; i < n; i++) {
			__int128 dev = (__int128)samples[i] * 1000 -
				       (__int128)out->mean_milli;

			squares += (unsigned __int128)(dev * dev);
		}
		out->stddev_milli = stats_isqrt(squares / n);
	}
}

uint64_t stats_isqrt(unsigned __int128 v)
{
	/* Bitwise square root: no floating point in the guest. */
	unsigned __int128 result = 0, bit = (unsigned __int128)1 << 126;

	while (bit > v)
		bit >>= 2;
	while (bit) {
		if (v >= result + bit) {
			v -= result + bit;
			result = (result >> 1) + bit;
		} else {
			result >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)result;
}

int64_t net_of_floor(uint64_t raw, uint64_t floor)
{
	return (int64_t)(raw - floor);
}

int64_t ppm_difference(uint64_t value, uint64_t reference)
{
	uint64_t d = value > reference ? value - reference : reference - value;
	unsigned __int128 q;
	int64_t ppm;

	if (!reference)
		return 0;
	q = (unsigned __int128)d * 1000000u / reference;
	ppm = q > (unsigned __int128)INT64_MAX ? INT64_MAX : (int64_t)q;
	return value >= reference ? ppm : -ppm;
}
