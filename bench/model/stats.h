/* Order statistics over timing samples. Integer-only: the guest is built
 * without SSE/x87 (interrupt handlers must not clobber the interrupted
 * code's vector registers), and integers keep icount runs bit-identical. */
#ifndef IRQLAB_BENCH_MODEL_STATS_H
#define IRQLAB_BENCH_MODEL_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Percentiles are given in basis points: 5000 is the median, 9900 p99. */
#define STATS_P1 100u
#define STATS_P50 5000u
#define STATS_P90 9000u
#define STATS_P99 9900u
#define STATS_P999 9990u

struct sample_stats {
	uint32_t count;
	uint64_t min;
	uint64_t p1;
	uint64_t median; /* nearest-rank p50: the lower median for even counts */
	uint64_t p90;
	uint64_t p99;    /* nearest-rank p99 */
	uint64_t p999;
	uint64_t max;
	uint64_t mean_milli;   /* arithmetic mean x 1000, rounded down */
	uint64_t stddev_milli; /* population standard deviation x 1000,
				* rounded down; UINT64_MAX when a sample is
				* too large (>= 2^40) for the exact sum */
};

/* Every field of struct sample_stats, once: the handoff's encoder and
 * decoder and both report writers walk this table. */
enum stats_field_kind {
	STATS_FIELD_COUNT,	/* how many samples */
	STATS_FIELD_FIGURE,	/* a sample value: net of the floor in reports */
	STATS_FIELD_MEAN,	/* x 1000; net of 1000 x the floor in reports */
	STATS_FIELD_SPREAD,	/* x 1000, UINT64_MAX when not computed */
};

struct stats_field {
	const char *name;	/* in results.json and summary.txt */
	size_t offset;
	uint8_t kind;		/* enum stats_field_kind */
};

extern const struct stats_field stats_fields[];
extern const size_t stats_field_count;

static inline uint64_t stats_get(const struct sample_stats *s,
				 const struct stats_field *f)
{
	const char *at = (const char *)s + f->offset;

	if (f->kind == STATS_FIELD_COUNT)
		return *(const uint32_t *)(const void *)at;
	return *(const uint64_t *)(const void *)at;
}

static inline void stats_set(struct sample_stats *s,
			     const struct stats_field *f, uint64_t v)
{
	char *at = (char *)s + f->offset;

	if (f->kind == STATS_FIELD_COUNT)
		*(uint32_t *)(void *)at = (uint32_t)v;
	else
		*(uint64_t *)(void *)at = v;
}

/* Largest sample the standard deviation is computed exactly for. */
#define STATS_STDDEV_LIMIT (1ull << 40)

/* floor(sqrt(v)) for 128-bit v. */
uint64_t stats_isqrt(unsigned __int128 v);

/* Sorts `samples` ascending in place (heapsort: no allocation, O(n log n)). */
void stats_sort(uint64_t *samples, size_t n);

/* Nearest-rank percentile of an ascending array: the smallest value with at
 * least bp/10000 of the samples at or below it. Returns 0 for n == 0. */
uint64_t stats_percentile_sorted(const uint64_t *sorted, size_t n, uint32_t bp);

/* A figure net of the instrument floor: raw - floor, which may be negative
 * when noise undercuts the floor, so it is signed. */
int64_t net_of_floor(uint64_t raw, uint64_t floor);

/* How far `value` is from `reference`, in parts per million, signed;
 * saturated where it would overflow (a decoded blob can hold anything),
 * 0 without a reference. */
int64_t ppm_difference(uint64_t value, uint64_t reference);

/* Sorts `samples` in place and fills `out`. n == 0 gives all zeros. */
void stats_compute(uint64_t *samples, size_t n, struct sample_stats *out);

#endif
