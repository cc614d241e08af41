#include "bench/model/range_coder.h"

#define PROB_BITS 11
#define PROB_ONE (1u << PROB_BITS)
#define PROB_MOVE 5
#define RANGE_TOP (1u << 24)

/* The model: node k of the byte's tree (1..255) holds the probability,
 * in 1/2048ths, that the next bit is 0. */
struct model {
	uint16_t p[256];
};

static void model_init(struct model *m)
{
	unsigned k;

	for (k = 0; k < 256; k++)
		m->p[k] = PROB_ONE / 2;
}

struct encoder {
	uint64_t low;
	uint32_t range;
	uint8_t cache;
	uint64_t cache_size;
	uint8_t *out;
	size_t cap, len;
	int overflow;
};

static void put(struct encoder *e, uint8_t b)
{
	if (e->len >= e->cap)
		e->overflow = 1;
	else if (e->out)
		e->out[e->len++] = b;
	else
		e->len++;
}

/* Moves the top byte of `low` out; a carry into bytes already decided
 * waits in the cache, with any 0xFF bytes behind it. */
static void shift_low(struct encoder *e)
{
	if ((uint32_t)e->low < 0xFF000000u || (e->low >> 32) != 0) {
		uint8_t carry = (uint8_t)(e->low >> 32);
		uint8_t b = e->cache;

		do {
			put(e, (uint8_t)(b + carry));
			b = 0xFF;
		} while (--e->cache_size != 0);
		e->cache = (uint8_t)(e->low >> 24);
	}
	e->cache_size++;
	e->low = (e->low & 0x00FFFFFFu) << 8;
}

static void encode_bit(struct encoder *e, uint16_t *p, unsigned bit)
{
	uint32_t bound = (e->range >> PROB_BITS) * *p;

	if (bit == 0) {
		e->range = bound;
		*p = (uint16_t)(*p + ((PROB_ONE - *p) >> PROB_MOVE));
	} else {
		e->low += bound;
		e->range -= bound;
		*p = (uint16_t)(*p - (*p >> PROB_MOVE));
	}
	while (e->range < RANGE_TOP) {
		e->range <<= 8;
		shift_low(e);
	}
}

size_t rc_compress(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	struct encoder e = { 0, 0xFFFFFFFFu, 0, 1, out, cap, 0, 0 };
	struct model m;
	size_t i;
	int k;

	model_init(&m);
	for (i = 0; i < n && !e.overflow; i++) {
		unsigned node = 1;

		for (k = 7; k >= 0; k--) {
			unsigned bit = (in[i] >> k) & 1;

			encode_bit(&e, &m.p[node], bit);
			node = node * 2 + bit;
		}
	}
	for (k = 0; k < 5; k++)	/* the last of low, then the cache */
		shift_low(&e);
	return e.overflow ? 0 : e.len;
}

struct decoder {
	uint32_t range, code;
	const uint8_t *in;
	size_t n, pos;
	int ran_out;
};

static uint8_t next(struct decoder *d)
{
	if (d->pos < d->n)
		return d->in[d->pos++];
	d->ran_out = 1;
	return 0;
}

static unsigned decode_bit(struct decoder *d, uint16_t *p)
{
	uint32_t bound = (d->range >> PROB_BITS) * *p;
	unsigned bit;

	if (d->code < bound) {
		d->range = bound;
		*p = (uint16_t)(*p + ((PROB_ONE - *p) >> PROB_MOVE));
		bit = 0;
	} else {
		d->code -= bound;
		d->range -= bound;
		*p = (uint16_t)(*p - (*p >> PROB_MOVE));
		bit = 1;
	}
	while (d->range < RANGE_TOP) {
		d->range <<= 8;
		d->code = d->code << 8 | next(d);
	}
	return bit;
}

int rc_decompress(const uint8_t *in, size_t n, uint8_t *out, size_t out_len)
{
	struct decoder d = { 0xFFFFFFFFu, 0, in, n, 0, 0 };
	struct model m;
	size_t i;
	int k;

	/* The encoder's first byte is its empty cache: always 0. */
	if (next(&d) != 0 || d.ran_out)
		return -1;
	for (k = 0; k < 4; k++)
		d.code = d.code << 8 | next(&d);
	model_init(&m);
	for (i = 0; i < out_len && !d.ran_out; i++) {
		unsigned node = 1;

		for (k = 0; k < 8; k++)
			node = node * 2 + decode_bit(&d, &m.p[node]);
		out[i] = (uint8_t)node;
	}
	if (d.ran_out)
		return -1;
	return d.pos == n ? 0 : 1;
}
