#include "bench/model/serialize.h"

#include "bench/model/blob_layout.h"
#include "bench/model/range_coder.h"
#include "bench/model/wire.h"

/* The blob: RESULTS_BLOB_VERSION in two bytes, how the encoding follows
 * (enum blob_method) in one, the encoding's length in LEB128, then the
 * encoding, range-coded or as it is. The encoding: the string table, its
 * count in LEB128 and each string as a one-byte length (a field is under
 * 256 bytes) and its bytes; then the run's fields and its lists as
 * bench/model/blob_layout.c lays them out, each list's count in LEB128.
 * Strings are written once, and each field refers to its string by index
 * (bench/model/wire.h): reasons and primitive names repeat. A row
 * travels as its ids, never its name (WIRE_ROW). */

/* WIRE_ROW's flags bit: a byte with the processor follows; the boot
 * CPU's rows, nearly all, cost nothing for it. */
#define ROW_ON_OTHER_CPU 0x80
_Static_assert(SELFTEST_END <= ROW_ON_OTHER_CPU >> 1,
	       "a self-test's id leaves the flags' top bit free");

/* A C integer field of 1, 2, 4 or 8 bytes. */
static uint64_t load(const void *at, unsigned size)
{
	switch (size) {
	case 1:
		return *(const uint8_t *)at;
	case 2:
		return *(const uint16_t *)at;
	case 4:
		return *(const uint32_t *)at;
	default:
		return *(const uint64_t *)at;
	}
}

static void store(void *at, unsigned size, uint64_t v)
{
	switch (size) {
	case 1:
		*(uint8_t *)at = (uint8_t)v;
		break;
	case 2:
		*(uint16_t *)at = (uint16_t)v;
		break;
	case 4:
		*(uint32_t *)at = (uint32_t)v;
		break;
	default:
		*(uint64_t *)at = v;
	}
}

static int fits_field(uint64_t v, unsigned size)
{
	return size >= 8 || v < (1ull << (8 * size));
}

/* A baseline travels as its scheme, variant and cache state: it has its row's
 * source and APIC pass, and a self-test is its own. */
static int baseline_encodable(const struct experiment_result *e)
{
	return e->baseline.source == e->id.source &&
	       e->baseline.x2apic_repeat == e->id.x2apic_repeat &&
	       e->baseline.selftest == e->id.selftest &&
	       e->baseline.cpu == e->id.cpu &&
	       (e->id.selftest == SELFTEST_ABSENT ||
		row_id_eq(&e->baseline, &e->id));
}

/* --- encoding ----------------------------------------------------------- */

static void put_fields(struct writer *w, const void *base,
		       const struct field *f, size_t n)
{
	const char *b = base;
	size_t i, k;

	for (i = 0; i < n; i++, f++) {
		const char *at = b + f->offset;

		switch (f->wire) {
		case WIRE_FIXED:
			wire_put_uint(w, load(at, f->size), f->bytes);
			break;
		case WIRE_VAR:
			wire_put_var(w, load(at, f->size));
			break;
		case WIRE_STRING:
			wire_put_str(w, at, f->size);
			break;
		case WIRE_ROW: {
			const struct experiment_result *e = (const void *)base;

			wire_put_uint(w, e->id.source, 1);
			wire_put_uint(w, e->id.scheme, 1);
			wire_put_uint(w, e->id.variant, 1);
			wire_put_uint(w, e->id.cache, 1);
			wire_put_uint(w, (uint64_t)e->id.x2apic_repeat |
					    (uint64_t)e->id.selftest << 1 |
					    (e->id.cpu ? ROW_ON_OTHER_CPU : 0),
				      1);
			if (e->id.cpu)
				wire_put_uint(w, e->id.cpu, 1);
			wire_put_uint(w, e->baseline.scheme, 1);
			wire_put_uint(w, e->baseline.variant, 1);
			wire_put_uint(w, e->baseline.cache, 1);
			break;
		}
		case WIRE_STATS: {
			uint64_t before = 0;

			for (k = 0; k < stats_field_count; k++) {
				uint64_t v = stats_get((const void *)at,
						       &stats_fields[k]);

				if (stats_fields[k].kind != STATS_FIELD_FIGURE) {
					wire_put_var(w, v);
					continue;
				}
				/* modulo 2^64, so out-of-order figures still
				 * come back exactly */
				wire_put_var(w, v - before);
				before = v;
			}
			break;
		}
		case WIRE_CONFIG:
			for (k = 0; k < config_key_count; k++)
				wire_put_var(w, config_get((const void *)at,
						      &config_keys[k]));
			break;
		case WIRE_BYTES:
			wire_put_bytes(w, at, (size_t)load(b + f[-1].offset, f[-1].size));
			break;
		}
	}
}

static void encode_fields(struct writer *w, const struct run_result *r)
{
	const char *base = (const char *)r;
	size_t l, i;

	put_fields(w, r, blob_run_fields, blob_run_field_count);
	for (l = 0; l < blob_list_count; l++) {
		const struct blob_list *L = &blob_lists[l];
		uint32_t n = (uint32_t)load(base + L->count_offset, 4);

		wire_put_var(w, n);	/* row histograms outnumber a byte */
		for (i = 0; i < n; i++)
			put_fields(w, base + L->items_offset + i * L->item_size,
				   L->fields, L->n_fields);
	}
}

/* Whether each cell of the matrix is a pair of two of its processors,
 * which the decoder holds every blob to. */
static int cells_name_their_cpus(const struct run_result *r)
{
	uint32_t i;

	for (i = 0; i < r->n_cells && i < RESULTS_MAX_CELLS; i++)
		if (r->cell[i].sender >= r->n_matrix_cpus ||
		    r->cell[i].target >= r->n_matrix_cpus ||
		    r->cell[i].sender == r->cell[i].target)
			return 0;
	return 1;
}

/* Whether every count and length fits what the decoder will accept. */
static int encodable(const struct run_result *r)
{
	uint32_t i;

	for (i = 0; i < r->n_experiments && i < RESULTS_MAX_EXPERIMENTS; i++)
		if (!row_id_valid(&r->exp[i].id) ||
		    !row_id_valid(&r->exp[i].baseline) ||
		    !baseline_encodable(&r->exp[i]))
			return 0;
	if (r->n_experiments > RESULTS_MAX_EXPERIMENTS ||
	    r->n_primitives > RESULTS_MAX_PRIMITIVES ||
	    r->n_gaps > RESULTS_MAX_GAPS || r->n_schemes > RESULTS_MAX_SCHEMES)
		return 0;
	for (i = 0; i < r->n_gaps; i++)
		if (r->gap[i].hist_len > GAP_HIST_BYTES)
			return 0;
	if (r->n_hists > RESULTS_MAX_ROW_HISTS ||
	    r->n_counted > RESULTS_MAX_EXPERIMENTS ||
	    r->n_cross > RESULTS_MAX_CROSS ||
	    r->n_cross_hists > RESULTS_MAX_CROSS_HISTS ||
	    r->n_other_cpus > RESULTS_MAX_OTHER_CPUS ||
	    r->n_cpu_clocks > RESULTS_MAX_CPU_CLOCKS)
		return 0;
	for (i = 0; i < r->n_hists; i++)
		if (r->hist[i].len > ROW_HIST_BYTES)
			return 0;
	return r->n_matrix_cpus <= RESULTS_MAX_MATRIX_CPUS &&
	       r->n_cells <= RESULTS_MAX_CELLS && cells_name_their_cpus(r);
}

uint32_t results_fit_histograms(struct run_result *r, uint8_t *scratch,
				size_t cap, size_t *len)
{
	uint32_t dropped = 0;

	while (!results_fit(r, cap) && r->n_hists) {
		r->n_hists--;
		dropped++;
	}
	/* Then the matrix's cells, a whole sender at a time, the last
	 * sender's first, so that the heatmap keeps whole rows (a turn past
	 * the full matrix alternates senders, so it goes cell by cell and
	 * may keep one way of a pair). */
	while (!results_fit(r, cap) && r->n_cells) {
		uint16_t sender = r->cell[r->n_cells - 1].sender;

		while (r->n_cells && r->cell[r->n_cells - 1].sender == sender) {
			r->n_cells--;
			r->cells_dropped++;
		}
	}
	*len = results_encode(r, scratch, cap);
	return dropped;
}

/* The encoding, uncompressed, into `out`. Returns its length, or 0. */
static size_t encode_raw(const struct run_result *r, uint8_t *out, size_t cap)
{
	static struct dict dict;
	struct writer w = { out, cap, 0, 0, &dict, 1 };
	uint32_t i;

	if (!encodable(r))
		return 0;
	dict.n = 0;
	dict.full = 0;
	encode_fields(&w, r);	/* pass 1: collect the strings */
	if (dict.full)
		return 0;
	w.collecting = 0;
	wire_put_var(&w, dict.n);
	for (i = 0; i < dict.n; i++) {
		wire_put_uint(&w, dict.len[i], 1);	/* a field is < 256 bytes */
		wire_put_bytes(&w, dict.s[i], dict.len[i]);
	}
	encode_fields(&w, r);	/* pass 2: the fields */
	return w.overflow || dict.full ? 0 : w.len;
}

/* The blob's header for an encoding of `raw_len` bytes sent by `method`;
 * returns its length, or 0 when `cap` is too small. */
static size_t put_header(uint8_t *out, size_t cap, unsigned method,
			 size_t raw_len)
{
	struct writer w = { out, cap, 0, 0, 0, 0 };

	wire_put_uint(&w, RESULTS_BLOB_VERSION, 2);
	wire_put_uint(&w, method, 1);
	wire_put_var(&w, raw_len);
	return w.overflow ? 0 : w.len;
}

static uint8_t raw[RESULTS_RAW_MAX];

/* The encoding in `raw` (raw_len bytes), stored as it is. */
static size_t put_stored(size_t raw_len, uint8_t *out, size_t cap)
{
	size_t head = put_header(out, cap, BLOB_STORED, raw_len), i;

	if (head == 0 || raw_len > cap - head)
		return 0;
	for (i = 0; i < raw_len; i++)
		out[head + i] = raw[i];
	return head + raw_len;
}

size_t results_encode(const struct run_result *r, uint8_t *out, size_t cap)
{
	size_t raw_len = encode_raw(r, raw, sizeof(raw));
	size_t head, packed;

	if (raw_len == 0)
		return 0;
	head = put_header(out, cap, BLOB_RANGE_CODED, raw_len);
	packed = head ? rc_compress(raw, raw_len, out + head, cap - head) : 0;
	if (packed && packed < raw_len)
		return head + packed;
	return put_stored(raw_len, out, cap);
}

size_t results_encode_stored(const struct run_result *r, uint8_t *out,
			     size_t cap)
{
	size_t raw_len = encode_raw(r, raw, sizeof(raw));

	return raw_len ? put_stored(raw_len, out, cap) : 0;
}

int results_fit(const struct run_result *r, size_t cap)
{
	size_t raw_len = encode_raw(r, raw, sizeof(raw));
	uint8_t head[16];
	size_t head_len;

	if (raw_len == 0)
		return 0;
	head_len = put_header(head, sizeof(head), BLOB_STORED, raw_len);
	if (head_len > cap)
		return 0;
	/* as it is, or compressed: results_encode's two choices */
	return raw_len <= cap - head_len ||
	       rc_compress(raw, raw_len, NULL, cap - head_len) != 0;
}

/* --- decoding ----------------------------------------------------------- */

/* Reads the fields into `base`. Returns DECODE_OK, or why not. */
static enum decode_status get_fields(struct reader *r, void *base,
				     const struct field *f, size_t n)
{
	char *b = base;
	int fits = 1;
	size_t i, k;

	for (i = 0; i < n; i++, f++) {
		char *at = b + f->offset;
		uint64_t v = 0;

		switch (f->wire) {
		case WIRE_FIXED:
			v = wire_get_uint(r, f->bytes);
			break;
		case WIRE_VAR:
			v = wire_get_var(r);
			break;
		case WIRE_STRING:
			fits &= wire_get_str(r, at, f->size);
			continue;
		case WIRE_ROW: {
			struct experiment_result *e = (void *)base;
			uint64_t flags;

			e->id.source = (uint8_t)wire_get_uint(r, 1);
			e->id.scheme = (uint8_t)wire_get_uint(r, 1);
			e->id.variant = (uint8_t)wire_get_uint(r, 1);
			e->id.cache = (uint8_t)wire_get_uint(r, 1);
			flags = wire_get_uint(r, 1);
			e->id.x2apic_repeat = (uint8_t)(flags & 1);
			e->id.selftest = (uint8_t)((flags & ~ROW_ON_OTHER_CPU) >> 1);
			e->id.cpu = flags & ROW_ON_OTHER_CPU ?
					    (uint8_t)wire_get_uint(r, 1) : 0;
			e->baseline = e->id;
			e->baseline.scheme = (uint8_t)wire_get_uint(r, 1);
			e->baseline.variant = (uint8_t)wire_get_uint(r, 1);
			e->baseline.cache = (uint8_t)wire_get_uint(r, 1);
			if (r->truncated)
				continue;
			if (!row_id_valid(&e->id) || !row_id_valid(&e->baseline) ||
			    (e->id.selftest != SELFTEST_ABSENT &&
			     !row_id_eq(&e->baseline, &e->id)))
				return DECODE_BAD_VALUE;
			row_name(&e->id, e->name, sizeof(e->name));
			continue;
		}
		case WIRE_STATS:
			for (k = 0, v = 0; k < stats_field_count; k++) {
				uint64_t s = wire_get_var(r);

				/* a figure is its step from the one before, v */
				if (stats_fields[k].kind == STATS_FIELD_FIGURE) {
					v += s;
					s = v;
				}

				if (stats_fields[k].kind == STATS_FIELD_COUNT &&
				    s > UINT32_MAX)
					r->overlong = 1;
				stats_set((void *)at, &stats_fields[k], s);
			}
			continue;
		case WIRE_CONFIG:
			for (k = 0; k < config_key_count; k++) {
				uint64_t c = wire_get_var(r);

				if (c > UINT32_MAX)
					r->overlong = 1;
				config_set((void *)at, &config_keys[k], (uint32_t)c);
			}
			continue;
		case WIRE_BYTES:
			v = load(b + f[-1].offset, f[-1].size);
			if (r->truncated)
				return DECODE_TRUNCATED;
			if (v > f->size)
				return DECODE_BAD_VALUE;
			if (v > r->len - r->pos)
				return DECODE_TRUNCATED;
			for (k = 0; k < v; k++)
				at[k] = (char)r->p[r->pos++];
			continue;
		}
		if (!fits_field(v, f->size))
			r->overlong = 1;
		if (f->limit && v >= f->limit && !r->truncated)
			return DECODE_BAD_VALUE;
		store(at, f->size, v);
	}
	if (r->truncated)
		return DECODE_TRUNCATED;
	return fits && !r->overlong ? DECODE_OK : DECODE_BAD_VALUE;
}

enum decode_status results_decode(const uint8_t *in, size_t len,
				  struct run_result *out)
{
	static struct reader r;
	enum decode_status status;
	char *base = (char *)out;
	uint64_t method, raw_len;
	size_t l;
	uint32_t i;

	r = (struct reader){ .p = in, .len = len };
	*out = (struct run_result){ 0 };
	if (wire_get_uint(&r, 2) != RESULTS_BLOB_VERSION)
		return r.truncated ? DECODE_TRUNCATED : DECODE_BAD_VERSION;
	method = wire_get_uint(&r, 1);
	raw_len = wire_get_var(&r);
	if (r.truncated)
		return DECODE_TRUNCATED;
	if (method >= BLOB_METHOD_END || raw_len > RESULTS_RAW_MAX || r.overlong)
		return DECODE_BAD_VALUE;
	if (method == BLOB_RANGE_CODED) {
		int left = rc_decompress(in + r.pos, len - r.pos, raw,
					 (size_t)raw_len);

		if (left < 0)
			return DECODE_TRUNCATED;
		if (left > 0)
			return DECODE_TRAILING;
		r = (struct reader){ .p = raw, .len = (size_t)raw_len };
	} else {
		if (raw_len > len - r.pos)
			return DECODE_TRUNCATED;
		if (raw_len < len - r.pos)
			return DECODE_TRAILING;
		r = (struct reader){ .p = in + r.pos, .len = (size_t)raw_len };
	}
	if (!wire_get_string_table(&r))
		return DECODE_BAD_VALUE;
	status = get_fields(&r, out, blob_run_fields,
			    blob_run_field_count);
	if (status != DECODE_OK)
		return status;
	for (l = 0; l < blob_list_count; l++) {
		const struct blob_list *L = &blob_lists[l];
		uint64_t n = wire_get_var(&r);

		if (r.truncated)
			return DECODE_TRUNCATED;
		if (n > L->max)
			return DECODE_BAD_VALUE;
		store(base + L->count_offset, 4, n);
		for (i = 0; i < (uint32_t)n; i++) {
			status = get_fields(&r, base + L->items_offset +
							i * L->item_size,
					    L->fields, L->n_fields);
			if (status != DECODE_OK)
				return status;
		}
	}
	if (r.pos != r.len)
		return DECODE_TRAILING;
	return cells_name_their_cpus(out) ? DECODE_OK : DECODE_BAD_VALUE;
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
