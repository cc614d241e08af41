#include "serialize.h"

/* Strings are written once, in a table ahead of the fields, and each
 * field refers to its string by index: scheme, source and variant names
 * repeat in almost every row. */
#define DICT_MAX 512

struct dict {
	const char *s[DICT_MAX];
	uint8_t len[DICT_MAX];
	uint32_t n;
	int full;
};

struct writer {
	uint8_t *p;
	size_t cap, len;
	int overflow;
	struct dict *dict;
	int collecting;	/* first pass: fill the table, write nothing */
};

static void put_bytes(struct writer *w, const void *src, size_t n)
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

static void put_uint(struct writer *w, uint64_t v, unsigned bytes)
{
	uint8_t b[8];
	unsigned i;

	for (i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put_bytes(w, b, bytes);
}

/* Counts and figures as unsigned LEB128: most are small, and the whole
 * run must fit the 16 KiB handoff. */
static void put_var(struct writer *w, uint64_t v)
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
	put_bytes(w, b, n);
}

static int same_string(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* A string field: its index in the table, added there on first use. */
static void put_str(struct writer *w, const char *s, size_t field_size)
{
	struct dict *d = w->dict;
	size_t n = 0;
	uint32_t i;

	while (n + 1 < field_size && s[n])
		n++;
	for (i = 0; i < d->n; i++)
		if (d->len[i] == n && same_string(d->s[i], s, n))
			break;
	if (i == d->n) {
		if (!w->collecting || d->n == DICT_MAX) {
			d->full = 1;	/* only the first pass may add */
			return;
		}
		d->s[d->n] = s;
		d->len[d->n++] = (uint8_t)n;
	}
	put_var(w, i);
}

static void put_stats(struct writer *w, const struct sample_stats *s)
{
	put_var(w, s->count);
	put_var(w, s->min);
	put_var(w, s->p1);
	put_var(w, s->median);
	put_var(w, s->p90);
	put_var(w, s->p99);
	put_var(w, s->p999);
	put_var(w, s->max);
	put_var(w, s->mean_milli);
	put_var(w, s->stddev_milli);
}

#define PUT_STR(w, field) put_str(w, field, sizeof(field))

static void encode_fields(struct writer *w, const struct run_result *r);

size_t results_encode(const struct run_result *r, uint8_t *out, size_t cap)
{
	static struct dict dict;
	struct writer w = { out, cap, 0, 0, &dict, 1 };
	uint32_t i;

	if (r->n_experiments > RESULTS_MAX_EXPERIMENTS ||
	    r->n_primitives > RESULTS_MAX_PRIMITIVES ||
	    r->n_gaps > RESULTS_MAX_GAPS)
		return 0;
	for (i = 0; i < r->n_gaps; i++)
		if (r->gap[i].hist_len > GAP_HIST_BYTES)
			return 0;
	dict.n = 0;
	dict.full = 0;
	encode_fields(&w, r);	/* pass 1: collect the strings */
	if (dict.full)
		return 0;
	w.collecting = 0;
	put_uint(&w, RESULTS_BLOB_VERSION, 2);
	put_var(&w, dict.n);
	for (i = 0; i < dict.n; i++) {
		put_uint(&w, dict.len[i], 1);	/* a field is < 256 bytes */
		put_bytes(&w, dict.s[i], dict.len[i]);
	}
	encode_fields(&w, r);	/* pass 2: the fields */
	return w.overflow || dict.full ? 0 : w.len;
}

static void encode_fields(struct writer *w, const struct run_result *r)
{
	const struct machine_info *m = &r->machine;
	uint32_t i, k;

	put_uint(w, r->run_id, 8);
	put_uint(w, r->run_index, 1);
	PUT_STR(w, m->cpu_vendor);
	PUT_STR(w, m->brand);
	PUT_STR(w, m->hypervisor);
	put_uint(w, m->family, 4);
	put_uint(w, m->model, 4);
	put_uint(w, m->stepping, 4);
	PUT_STR(w, m->fw_vendor);
	put_uint(w, m->fw_revision, 4);
	put_uint(w, m->uefi_revision, 4);
	put_var(w, m->llc_bytes);
	PUT_STR(w, m->system_vendor);
	PUT_STR(w, m->system_product);
	PUT_STR(w, m->system_version);
	put_uint(w, m->madt_found, 1);
	put_uint(w, m->lapic_address, 8);
	put_uint(w, m->ioapic_count, 4);
	put_uint(w, m->lapic_count, 4);
	put_uint(w, r->config.samples, 4);
	put_uint(w, r->config.warmup, 4);
	put_uint(w, r->config.primitive_blocks, 4);
	put_var(w, r->config.cold_samples);
	put_var(w, r->config.thrash_samples);
	put_var(w, r->config.gap_samples);
	put_uint(w, r->config.runs, 1);
	put_uint(w, r->config.unstable_pct, 1);
	put_uint(w, r->tsc_hz, 8);
	put_uint(w, r->tsc_method, 1);
	put_var(w, r->tsc_hz_check);
	put_uint(w, r->tsc_check_method, 1);
	put_uint(w, r->smi_count_watched, 1);
	PUT_STR(w, r->fence_note);
	put_uint(w, r->clock_kind, 1);
	put_stats(w, &r->floor);
	put_uint(w, r->n_experiments, 1);
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];

		PUT_STR(w, e->name);
		PUT_STR(w, e->scheme);
		PUT_STR(w, e->source);
		PUT_STR(w, e->variant);
		PUT_STR(w, e->baseline);
		put_uint(w, e->status, 1);
		put_uint(w, e->vector, 1);
		put_uint(w, e->apic_mode, 1);
		PUT_STR(w, e->reason);
		put_var(w, e->delivered);
		put_var(w, e->vectors_verified);
		put_var(w, e->register_checks);
		put_var(w, e->discarded);
		put_var(w, e->discarded_batches);
		for (k = 0; k < METRIC_COUNT; k++)
			put_stats(w, &e->metric[k]);
	}
	put_uint(w, r->n_primitives, 1);
	for (i = 0; i < r->n_primitives; i++) {
		const struct primitive_result *p = &r->prim[i];

		PUT_STR(w, p->name);
		put_uint(w, p->status, 1);
		PUT_STR(w, p->reason);
		put_stats(w, &p->block);
	}
	put_uint(w, r->n_gaps, 1);
	for (i = 0; i < r->n_gaps; i++) {
		const struct gap_result *g = &r->gap[i];

		PUT_STR(w, g->scheme);
		put_uint(w, g->status, 1);
		PUT_STR(w, g->reason);
		put_var(w, g->loop_median);
		put_var(w, g->threshold);
		put_stats(w, &g->gaps);
		put_var(w, g->hist_len);
		put_bytes(w, g->hist, g->hist_len);
	}
}

struct reader {
	const uint8_t *p;
	size_t len, pos;
	int truncated;
	int overlong;	/* a number too large for its field */
	/* the string table: where each string starts, and its length */
	uint32_t n_strings;
	uint32_t at[DICT_MAX];
	uint8_t len_of[DICT_MAX];
};

static uint64_t get_uint(struct reader *r, unsigned bytes)
{
	uint64_t v = 0;
	unsigned i;

	if (r->truncated || bytes > r->len - r->pos) {
		r->truncated = 1;
		return 0;
	}
	for (i = 0; i < bytes; i++)
		v |= (uint64_t)r->p[r->pos++] << (8 * i);
	return v;
}

static uint64_t get_var(struct reader *r);

/* Reads the string table that precedes the fields. */
static int get_string_table(struct reader *r)
{
	uint64_t n = get_var(r), i;

	if (n > DICT_MAX)
		return 0;
	r->n_strings = (uint32_t)n;
	for (i = 0; i < n && !r->truncated; i++) {
		size_t len = (size_t)get_uint(r, 1);

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
static int get_str(struct reader *r, char *dst, size_t field_size)
{
	uint64_t index = get_var(r);
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
static uint64_t get_var(struct reader *r)
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

static uint32_t get_var32(struct reader *r)
{
	uint64_t v = get_var(r);

	if (v > UINT32_MAX)
		r->overlong = 1;
	return (uint32_t)v;
}

static void get_stats(struct reader *r, struct sample_stats *s)
{
	s->count = get_var32(r);
	s->min = get_var(r);
	s->p1 = get_var(r);
	s->median = get_var(r);
	s->p90 = get_var(r);
	s->p99 = get_var(r);
	s->p999 = get_var(r);
	s->max = get_var(r);
	s->mean_milli = get_var(r);
	s->stddev_milli = get_var(r);
}

#define GET_STR(r, field) get_str(r, field, sizeof(field))

enum decode_status results_decode(const uint8_t *in, size_t len,
				  struct run_result *out)
{
	static struct reader r;
	struct machine_info *m = &out->machine;
	int fits = 1;
	uint32_t i, k;

	r = (struct reader){ .p = in, .len = len };
	*out = (struct run_result){ 0 };
	if (get_uint(&r, 2) != RESULTS_BLOB_VERSION)
		return r.truncated ? DECODE_TRUNCATED : DECODE_BAD_VERSION;
	if (!get_string_table(&r))
		return DECODE_BAD_VALUE;
	out->run_id = get_uint(&r, 8);
	out->run_index = (uint8_t)get_uint(&r, 1);
	fits &= GET_STR(&r, m->cpu_vendor);
	fits &= GET_STR(&r, m->brand);
	fits &= GET_STR(&r, m->hypervisor);
	m->family = (uint32_t)get_uint(&r, 4);
	m->model = (uint32_t)get_uint(&r, 4);
	m->stepping = (uint32_t)get_uint(&r, 4);
	fits &= GET_STR(&r, m->fw_vendor);
	m->fw_revision = (uint32_t)get_uint(&r, 4);
	m->uefi_revision = (uint32_t)get_uint(&r, 4);
	m->llc_bytes = get_var(&r);
	fits &= GET_STR(&r, m->system_vendor);
	fits &= GET_STR(&r, m->system_product);
	fits &= GET_STR(&r, m->system_version);
	m->madt_found = (uint8_t)get_uint(&r, 1);
	m->lapic_address = get_uint(&r, 8);
	m->ioapic_count = (uint32_t)get_uint(&r, 4);
	m->lapic_count = (uint32_t)get_uint(&r, 4);
	out->config.samples = (uint32_t)get_uint(&r, 4);
	out->config.warmup = (uint32_t)get_uint(&r, 4);
	out->config.primitive_blocks = (uint32_t)get_uint(&r, 4);
	out->config.cold_samples = get_var32(&r);
	out->config.thrash_samples = get_var32(&r);
	out->config.gap_samples = get_var32(&r);
	out->config.runs = (uint8_t)get_uint(&r, 1);
	out->config.unstable_pct = (uint8_t)get_uint(&r, 1);
	out->tsc_hz = get_uint(&r, 8);
	out->tsc_method = (uint8_t)get_uint(&r, 1);
	out->tsc_hz_check = get_var(&r);
	out->tsc_check_method = (uint8_t)get_uint(&r, 1);
	out->smi_count_watched = (uint8_t)get_uint(&r, 1);
	fits &= GET_STR(&r, out->fence_note);
	out->clock_kind = (uint8_t)get_uint(&r, 1);
	get_stats(&r, &out->floor);
	out->n_experiments = (uint32_t)get_uint(&r, 1);
	if (r.truncated)
		return DECODE_TRUNCATED;
	if (!fits || r.overlong || out->n_experiments > RESULTS_MAX_EXPERIMENTS ||
	    out->tsc_method >= TSC_METHOD_COUNT ||
	    out->tsc_check_method >= TSC_METHOD_COUNT ||
	    out->clock_kind >= CLOCK_KIND_COUNT)
		return DECODE_BAD_VALUE;
	for (i = 0; i < out->n_experiments; i++) {
		struct experiment_result *e = &out->exp[i];

		fits &= GET_STR(&r, e->name);
		fits &= GET_STR(&r, e->scheme);
		fits &= GET_STR(&r, e->source);
		fits &= GET_STR(&r, e->variant);
		fits &= GET_STR(&r, e->baseline);
		e->status = (uint8_t)get_uint(&r, 1);
		e->vector = (uint8_t)get_uint(&r, 1);
		e->apic_mode = (uint8_t)get_uint(&r, 1);
		fits &= GET_STR(&r, e->reason);
		e->delivered = get_var32(&r);
		e->vectors_verified = (uint16_t)get_var32(&r);
		e->register_checks = get_var32(&r);
		e->discarded = get_var32(&r);
		e->discarded_batches = get_var32(&r);
		for (k = 0; k < METRIC_COUNT; k++)
			get_stats(&r, &e->metric[k]);
		if (r.truncated)
			return DECODE_TRUNCATED;
		if (!fits || r.overlong || e->status >= EXP_STATUS_COUNT ||
		    e->apic_mode > 2)
			return DECODE_BAD_VALUE;
	}
	out->n_primitives = (uint32_t)get_uint(&r, 1);
	if (r.truncated)
		return DECODE_TRUNCATED;
	if (out->n_primitives > RESULTS_MAX_PRIMITIVES)
		return DECODE_BAD_VALUE;
	for (i = 0; i < out->n_primitives; i++) {
		struct primitive_result *p = &out->prim[i];

		fits &= GET_STR(&r, p->name);
		p->status = (uint8_t)get_uint(&r, 1);
		fits &= GET_STR(&r, p->reason);
		get_stats(&r, &p->block);
		if (r.truncated)
			return DECODE_TRUNCATED;
		if (!fits || r.overlong || p->status >= EXP_STATUS_COUNT)
			return DECODE_BAD_VALUE;
	}
	out->n_gaps = (uint32_t)get_uint(&r, 1);
	if (r.truncated)
		return DECODE_TRUNCATED;
	if (out->n_gaps > RESULTS_MAX_GAPS)
		return DECODE_BAD_VALUE;
	for (i = 0; i < out->n_gaps; i++) {
		struct gap_result *g = &out->gap[i];
		uint64_t n;

		fits &= GET_STR(&r, g->scheme);
		g->status = (uint8_t)get_uint(&r, 1);
		fits &= GET_STR(&r, g->reason);
		g->loop_median = get_var(&r);
		g->threshold = get_var(&r);
		get_stats(&r, &g->gaps);
		n = get_var(&r);
		if (r.truncated)
			return DECODE_TRUNCATED;
		if (!fits || r.overlong || g->status >= EXP_STATUS_COUNT ||
		    n > GAP_HIST_BYTES)
			return DECODE_BAD_VALUE;
		if (n > r.len - r.pos)
			return DECODE_TRUNCATED;
		g->hist_len = (uint16_t)n;
		for (k = 0; k < n; k++)
			g->hist[k] = r.p[r.pos++];
	}
	return r.pos == len ? DECODE_OK : DECODE_TRAILING;
}

const char *decode_status_name(enum decode_status s)
{
	switch (s) {
	case DECODE_OK:
		return "ok";
	case DECODE_TRUNCATED:
		return "truncated";
	case DECODE_BAD_VERSION:
		return "unknown format version";
	case DECODE_BAD_VALUE:
		return "value out of range";
	case DECODE_TRAILING:
		return "trailing bytes";
	}
	return "unknown";
}
