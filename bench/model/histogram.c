#include "bench/model/histogram.h"

static unsigned log2_floor(uint64_t v)
{
	unsigned n = 0;

	while (v >>= 1)
		n++;
	return n;
}

unsigned hist_index(uint64_t v)
{
	unsigned e;

	if (v < HIST_EXACT)
		return (unsigned)v;
	e = log2_floor(v);	/* 6 .. 63 */
	return HIST_EXACT + (e - 6) * HIST_SUBS +
	       (unsigned)((v >> (e - HIST_SUB_BITS)) & (HIST_SUBS - 1));
}

uint64_t hist_lower(unsigned i)
{
	unsigned e, sub;

	if (i < HIST_EXACT)
		return i;
	e = (i - HIST_EXACT) / HIST_SUBS + 6;
	sub = (i - HIST_EXACT) % HIST_SUBS;
	return (1ull << e) + ((uint64_t)sub << (e - HIST_SUB_BITS));
}

uint64_t hist_upper(unsigned i)
{
	return i + 1 < HIST_BUCKETS ? hist_lower(i + 1) - 1 : UINT64_MAX;
}

void hist_clear(struct histogram *h)
{
	unsigned i;

	h->total = 0;
	for (i = 0; i < HIST_BUCKETS; i++)
		h->counts[i] = 0;
}

void hist_add(struct histogram *h, uint64_t v)
{
	h->counts[hist_index(v)]++;
	h->total++;
}

uint64_t hist_percentile(const struct histogram *h, uint32_t bp)
{
	uint64_t rank, seen = 0;
	unsigned i;

	if (!h->total)
		return 0;
	if (bp > 10000)
		bp = 10000;
	rank = (bp * h->total + 9999) / 10000;
	if (!rank)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->counts[i];
		if (seen >= rank)
			return hist_lower(i);
	}
	return hist_lower(HIST_BUCKETS - 1);
}

static size_t put_var(uint8_t *out, size_t cap, size_t len, uint64_t v)
{
	do {
		if (len >= cap)
			return 0;
		out[len++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return len;
}

size_t hist_encode(const struct histogram *h, uint8_t *out, size_t cap)
{
	unsigned i, nonempty = 0, prev = 0;
	size_t len;

	for (i = 0; i < HIST_BUCKETS; i++)
		nonempty += h->counts[i] != 0;
	len = put_var(out, cap, 0, nonempty);
	for (i = 0; i < HIST_BUCKETS && len; i++) {
		if (!h->counts[i])
			continue;
		len = put_var(out, cap, len, i - prev);
		if (len)
			len = put_var(out, cap, len, h->counts[i]);
		prev = i;
	}
	return len;
}

static int get_var(const uint8_t *in, size_t len, size_t *pos, uint64_t *v)
{
	unsigned shift = 0;

	*v = 0;
	while (*pos < len && shift < 64) {
		uint8_t b = in[(*pos)++];

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
		shift += 7;
	}
	return -1;
}

int hist_decode(const uint8_t *in, size_t len, struct histogram *h)
{
	uint64_t n, gap, count, index = 0;
	size_t pos = 0;
	uint64_t k;

	hist_clear(h);
	if (get_var(in, len, &pos, &n) || n > HIST_BUCKETS)
		return -1;
	for (k = 0; k < n; k++) {
		if (get_var(in, len, &pos, &gap) || get_var(in, len, &pos, &count))
			return -1;
		/* indexes strictly increase after the first; counts > 0 */
		if ((k > 0 && gap == 0) || gap >= HIST_BUCKETS ||
		    index + gap >= HIST_BUCKETS || !count || count > UINT32_MAX)
			return -1;
		index += gap;
		h->counts[index] = (uint32_t)count;
		h->total += count;
	}
	return pos == len ? 0 : -1;
}
