/* Log-linear histograms: exact one-tick buckets below HIST_EXACT, then 32
 * buckets per power of two (about 3% wide), so a histogram is both exact
 * where interrupt costs sit on fast machines and bounded for outliers.
 * Histograms of the same layout merge by adding counts, and encode
 * sparsely for the handoff. */
#ifndef IRQLAB_BENCH_MODEL_HISTOGRAM_H
#define IRQLAB_BENCH_MODEL_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#define HIST_EXACT 64
#define HIST_SUB_BITS 5
#define HIST_SUBS (1u << HIST_SUB_BITS)
/* powers of two from 2^6 to 2^63, 32 buckets each */
#define HIST_BUCKETS (HIST_EXACT + (64 - 6) * HIST_SUBS)

struct histogram {
	uint64_t total;
	uint32_t counts[HIST_BUCKETS];
};

unsigned hist_index(uint64_t value);
/* The smallest and largest value bucket `index` holds. */
uint64_t hist_lower(unsigned index);
uint64_t hist_upper(unsigned index);

void hist_clear(struct histogram *h);
void hist_add(struct histogram *h, uint64_t value);
/* The lower bound of the bucket holding the nearest-rank percentile
 * (basis points); exact below HIST_EXACT. 0 for an empty histogram. */
uint64_t hist_percentile(const struct histogram *h, uint32_t bp);

/* Sparse encoding: the number of non-empty buckets, then for each the
 * index gap from the previous one and the count, all LEB128. Returns the
 * length, or 0 if `cap` is too small. */
size_t hist_encode(const struct histogram *h, uint8_t *out, size_t cap);
/* Returns 0, or -1 for a truncated or inconsistent encoding. */
int hist_decode(const uint8_t *in, size_t len, struct histogram *h);

#endif
