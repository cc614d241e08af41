#include "bench/model/wire.h"

#include "arch/lib/fmt.h"
#include "arch/lib/le.h"

void wire_put_bytes(struct writer *w, const void *src, size_t n)
{
	const uint8_t *s = src;
	size_t i;

	if (w->collecting)
		return;
	if (w->overflow || n > w->cap - w->len) {
		w->overflow = 1;
		return;
	}
	for (i = 0; i < n; i++)
		w->p[w->len++] = s[i];
}

void wire_put_uint(struct writer *w, uint64_t v, unsigned bytes)
{
	uint8_t b[8];

	le_put(b, v, bytes);
	wire_put_bytes(w, b, bytes);
}

/* Counts and figures as unsigned LEB128: most are small, and the whole
 * run must fit a handoff sized to the store. */
void wire_put_var(struct writer *w, uint64_t v)
{
	uint8_t b[10];
	unsigned n = 0;

	do {
		b[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		if (v)
			b[n] |= 0x80;
		n++;
	} while (v);
	wire_put_bytes(w, b, n);
}

/* A string field: its index in the table, added there on first use. */
void wire_put_str(struct writer *w, const char *s, size_t field_size)
{
	struct dict *d = w->dict;
	size_t n = 0;
	uint32_t i;

	while (n + 1 < field_size && s[n])
		n++;
	for (i = 0; i < d->n; i++)
		if (d->len[i] == n && bytes_eq(d->s[i], s, n))
			break;
	if (i == d->n) {
		if (!w->collecting || d->n == DICT_MAX) {
			d->full = 1;	/* only the first pass may add */
			return;
		}
		d->s[d->n] = s;
		d->len[d->n++] = (uint8_t)n;
	}
	wire_put_var(w, i);
}

uint64_t wire_get_uint(struct reader *r, unsigned bytes)
{
	uint64_t v;

	if (r->truncated || bytes > r->len - r->pos) {
		r->truncated = 1;
		return 0;
	}
	v = le_get(r->p + r->pos, bytes);
	r->pos += bytes;
	return v;
}

/* Reads the string table that precedes the fields. */
int wire_get_string_table(struct reader *r)
{
	uint64_t n = wire_get_var(r), i;

	if (n > DICT_MAX)
		return 0;
	r->n_strings = (uint32_t)n;
	for (i = 0; i < n && !r->truncated; i++) {
		size_t len = (size_t)wire_get_uint(r, 1);

		if (len > r->len - r->pos) {
			r->truncated = 1;
			break;
		}
		r->at[i] = (uint32_t)r->pos;
		r->len_of[i] = (uint8_t)len;
		r->pos += len;
	}
	return 1;
}

/* A string field by its table index. Returns 0 when the index is not in
 * the table or the string does not fit the field. */
int wire_get_str(struct reader *r, char *dst, size_t field_size)
{
	uint64_t index = wire_get_var(r);
	size_t n, i;

	dst[0] = '\0';
	if (r->truncated)
		return 1;
	if (index >= r->n_strings)
		return 0;
	n = r->len_of[index];
	if (n + 1 > field_size)
		return 0;
	for (i = 0; i < n; i++)
		dst[i] = (char)r->p[r->at[index] + i];
	dst[n] = '\0';
	return 1;
}

/* Unsigned LEB128 of at most 64 bits; anything longer is corrupt. */
uint64_t wire_get_var(struct reader *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	for (;;) {
		uint8_t b;

		if (r->truncated || r->pos >= r->len) {
			r->truncated = 1;
			return 0;
		}
		b = r->p[r->pos++];
		if (shift == 63 && (b & 0x7e)) {
			r->overlong = 1;
			return 0;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
		shift += 7;
		if (shift > 63) {
			r->overlong = 1;
			return 0;
		}
	}
}
