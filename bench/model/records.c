#include "bench/model/records.h"

#include "arch/lib/fmt.h"
#include "arch/lib/le.h"

/* CRC-32/ISO-HDLC (the zlib one), bitwise: the handoff is a few KiB once
 * per run, so a 1 KiB table is not worth its image size. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t i;
	int bit;

	crc = ~crc;
	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

uint32_t crc32(const void *data, size_t len)
{
	return crc32_update(0, data, len);
}

/* Header layout, all little-endian. */
enum {
	OFF_MAGIC = 0,		/* u32 */
	OFF_VERSION = 4,	/* u16 */
	OFF_HEADER_SIZE = 6,	/* u16 */
	OFF_RUN_ID = 8,		/* u64 */
	OFF_SEQ = 16,		/* u16 */
	OFF_TOTAL = 18,		/* u16 */
	OFF_BLOB_LEN = 20,	/* u32 */
	OFF_BLOB_CRC = 24,	/* u32 */
	OFF_PAYLOAD_LEN = 28,	/* u16 */
	OFF_RESERVED = 30,	/* u16, zero */
	OFF_CRC = 32,		/* u32 over bytes 0..31 and the payload */
};
_Static_assert(OFF_CRC + 4 == RECORD_HEADER_BYTES, "record header layout");

const char *record_status_name(enum record_status s)
{
	switch (s) {
	case RECORD_OK:
		return "ok";
	case RECORD_TRUNCATED:
		return "truncated";
	case RECORD_BAD_MAGIC:
		return "bad magic";
	case RECORD_BAD_VERSION:
		return "unknown record version";
	case RECORD_BAD_CRC:
		return "CRC mismatch";
	case RECORD_BAD_LENGTH:
		return "inconsistent lengths";
	}
	return "unknown";
}

size_t records_needed(size_t blob_len)
{
	size_t n = (blob_len + RECORD_MAX_PAYLOAD - 1) / RECORD_MAX_PAYLOAD;

	if (n == 0)
		n = 1;
	return n <= HANDOFF_MAX_RECORDS ? n : 0;
}

uint64_t handoff_room_needed(size_t blob_len)
{
	/* The records, and one write of the marker: phase B rewrites it
	 * when the records cannot be written. */
	return blob_len +
	       records_needed(blob_len) *
		       (uint64_t)(RECORD_HEADER_BYTES + HANDOFF_VARIABLE_OVERHEAD) +
	       MARKER_MAX_BYTES + HANDOFF_VARIABLE_OVERHEAD +
	       HANDOFF_STORE_RESERVE;
}

uint32_t handoff_records_for(uint64_t free_bytes, uint64_t largest_variable)
{
	uint64_t beyond = free_bytes > HANDOFF_STORE_RESERVE
				  ? free_bytes - HANDOFF_STORE_RESERVE : 0;
	uint64_t share = beyond / 4 * 3, k = HANDOFF_MAX_RECORDS;

	if (beyond - share < largest_variable)
		share = beyond > largest_variable ? beyond - largest_variable : 0;
	while (k > HANDOFF_MIN_RECORDS &&
	       handoff_room_needed(k * RECORD_MAX_PAYLOAD) -
			       HANDOFF_STORE_RESERVE > share)
		k--;
	return (uint32_t)k;
}

static uint32_t record_crc(const uint8_t *rec, size_t payload_len)
{
	uint32_t crc = crc32_update(0, rec, OFF_CRC);

	return crc32_update(crc, rec + RECORD_HEADER_BYTES, payload_len);
}

size_t record_encode(uint8_t *out, uint64_t run_id, uint16_t seq,
		     const uint8_t *blob, size_t blob_len)
{
	size_t total = records_needed(blob_len), off, n, i;

	if (total == 0 || seq >= total)
		return 0;
	off = (size_t)seq * RECORD_MAX_PAYLOAD;
	n = blob_len - off < RECORD_MAX_PAYLOAD ? blob_len - off
						: RECORD_MAX_PAYLOAD;
	le_put(out + OFF_MAGIC, RECORD_MAGIC, 4);
	le_put(out + OFF_VERSION, RECORD_VERSION, 2);
	le_put(out + OFF_HEADER_SIZE, RECORD_HEADER_BYTES, 2);
	le_put(out + OFF_RUN_ID, run_id, 8);
	le_put(out + OFF_SEQ, seq, 2);
	le_put(out + OFF_TOTAL, total, 2);
	le_put(out + OFF_BLOB_LEN, blob_len, 4);
	le_put(out + OFF_BLOB_CRC, crc32(blob, blob_len), 4);
	le_put(out + OFF_PAYLOAD_LEN, n, 2);
	le_put(out + OFF_RESERVED, 0, 2);
	for (i = 0; i < n; i++)
		out[RECORD_HEADER_BYTES + i] = blob[off + i];
	le_put(out + OFF_CRC, record_crc(out, n), 4);
	return RECORD_HEADER_BYTES + n;
}

enum record_status record_decode(const uint8_t *rec, size_t len,
				 struct record_view *v)
{
	if (len < RECORD_HEADER_BYTES)
		return RECORD_TRUNCATED;
	if (le_get(rec + OFF_MAGIC, 4) != RECORD_MAGIC)
		return RECORD_BAD_MAGIC;
	if (le_get(rec + OFF_VERSION, 2) != RECORD_VERSION ||
	    le_get(rec + OFF_HEADER_SIZE, 2) != RECORD_HEADER_BYTES)
		return RECORD_BAD_VERSION;
	v->run_id = le_get(rec + OFF_RUN_ID, 8);
	v->seq = (uint16_t)le_get(rec + OFF_SEQ, 2);
	v->total = (uint16_t)le_get(rec + OFF_TOTAL, 2);
	v->blob_len = (uint32_t)le_get(rec + OFF_BLOB_LEN, 4);
	v->blob_crc = (uint32_t)le_get(rec + OFF_BLOB_CRC, 4);
	v->payload_len = (uint16_t)le_get(rec + OFF_PAYLOAD_LEN, 2);
	v->payload = rec + RECORD_HEADER_BYTES;
	if (v->payload_len > len - RECORD_HEADER_BYTES)
		return RECORD_TRUNCATED;
	if (record_crc(rec, v->payload_len) != (uint32_t)le_get(rec + OFF_CRC, 4))
		return RECORD_BAD_CRC;
	/* The CRC held, so these are as written: check they agree. */
	if (len != RECORD_HEADER_BYTES + (size_t)v->payload_len ||
	    le_get(rec + OFF_RESERVED, 2) != 0 || v->total == 0 ||
	    v->seq >= v->total || records_needed(v->blob_len) != v->total ||
	    (size_t)v->seq * RECORD_MAX_PAYLOAD + v->payload_len > v->blob_len ||
	    (v->seq + 1u < v->total && v->payload_len != RECORD_MAX_PAYLOAD))
		return RECORD_BAD_LENGTH;
	return RECORD_OK;
}

static void set_fate(struct handoff_item *it, enum record_fate fate,
		     const char *why)
{
	it->fate = (uint8_t)fate;
	fmt_snprintf(it->why, sizeof(it->why), "%s", why);
}

/* Tries to reassemble run `run_id` from the valid items. Returns NULL on
 * success or the reason it is not usable. */
static const char *assemble_run(const struct record_view *views,
				const uint8_t *valid, size_t n, uint64_t run_id,
				uint8_t *blob, size_t cap, size_t *blob_len)
{
	const struct record_view *first = 0;
	uint8_t have[HANDOFF_MAX_RECORDS] = { 0 };	/* per seq */
	size_t i, k;

	for (i = 0; i < n; i++) {
		const struct record_view *v = &views[i];

		if (!valid[i] || v->run_id != run_id)
			continue;
		if (!first)
			first = v;
		if (v->total != first->total || v->blob_len != first->blob_len ||
		    v->blob_crc != first->blob_crc)
			return "records of one run disagree";
		if (have[v->seq])
			return "duplicate sequence number";
		have[v->seq] = 1;
	}
	if (!first)
		return "no records";
	for (k = 0; k < first->total; k++)
		if (!have[k])
			return "incomplete: records missing";
	if (first->blob_len > cap)
		return "blob larger than buffer";
	for (i = 0; i < n; i++) {
		const struct record_view *v = &views[i];

		if (!valid[i] || v->run_id != run_id)
			continue;
		for (k = 0; k < v->payload_len; k++)
			blob[(size_t)v->seq * RECORD_MAX_PAYLOAD + k] = v->payload[k];
	}
	if (crc32(blob, first->blob_len) != first->blob_crc)
		return "reassembled blob CRC mismatch";
	*blob_len = first->blob_len;
	return 0;
}

int handoff_select(struct handoff_item *items, size_t n, uint8_t *blob,
		   size_t cap, size_t *blob_len, uint64_t *run_id)
{
	static struct record_view views[HANDOFF_SCAN_RECORDS];
	static uint8_t valid[HANDOFF_SCAN_RECORDS];
	uint64_t tried_below = UINT64_MAX;
	size_t i;

	if (n > sizeof(views) / sizeof(views[0])) {
		for (i = 0; i < n; i++)
			set_fate(&items[i], FATE_CORRUPT, "too many records");
		return 0;
	}
	for (i = 0; i < n; i++) {
		enum record_status s = record_decode(items[i].data, items[i].len,
						     &views[i]);
		valid[i] = s == RECORD_OK;
		if (valid[i])
			set_fate(&items[i], FATE_STALE, "");
		else
			set_fate(&items[i], FATE_CORRUPT, record_status_name(s));
	}
	/* Newest run first; a run that cannot be assembled is stale and the
	 * next older one is tried. */
	for (;;) {
		uint64_t newest = 0;
		int found = 0;
		const char *why;

		for (i = 0; i < n; i++)
			if (valid[i] && views[i].run_id < tried_below &&
			    (!found || views[i].run_id > newest)) {
				newest = views[i].run_id;
				found = 1;
			}
		if (!found)
			return 0;
		why = assemble_run(views, valid, n, newest, blob, cap, blob_len);
		for (i = 0; i < n; i++) {
			if (!valid[i] || views[i].run_id != newest)
				continue;
			if (why)
				set_fate(&items[i], FATE_STALE, why);
			else
				set_fate(&items[i], FATE_USED, "");
		}
		if (!why) {
			*run_id = newest;
			/* Valid records of older runs are superseded. */
			for (i = 0; i < n; i++)
				if (valid[i] && views[i].run_id < newest)
					set_fate(&items[i], FATE_STALE,
						 "superseded by a newer run");
			return 1;
		}
		tried_below = newest;
	}
}

const char *record_fate_name(unsigned fate)
{
	switch (fate) {
	case FATE_USED:
		return "used";
	case FATE_CORRUPT:
		return "corrupt";
	case FATE_STALE:
		return "stale";
	}
	return "unknown";
}

void handoff_report_fill(struct handoff_report *h,
			 const struct handoff_item *items,
			 const char *const *names, size_t n)
{
	size_t i;

	*h = (struct handoff_report){ 0 };
	for (i = 0; i < n; i++) {
		if (items[i].fate == FATE_USED) {
			h->records_used++;
			continue;
		}
		if (h->n_discarded < HANDOFF_MAX_DISCARDS) {
			typeof(h->discarded[0]) *d = &h->discarded[h->n_discarded++];

			fmt_snprintf(d->name, sizeof(d->name), "%s", names[i]);
			d->fate = items[i].fate;
			fmt_snprintf(d->why, sizeof(d->why), "%s", items[i].why);
		}
	}
}

/* Marker layout: magic (4), version (1), state (1), run index (1), part
 * (1), first row (2), run id (8), why's length (1), why, then the CRC-32
 * of everything before it (4). */
size_t marker_encode(uint8_t *out, const struct run_marker *m)
{
	size_t n = 0, len;

	while (n < MARKER_WHY_LEN - 1 && m->why[n])
		n++;
	le_put(out, MARKER_MAGIC, 4);
	out[4] = MARKER_VERSION;
	out[5] = m->state;
	out[6] = m->run_index;
	out[7] = m->part;
	le_put(out + 8, m->first_row, 2);
	le_put(out + 10, m->run_id, 8);
	out[18] = (uint8_t)n;
	for (len = 0; len < n; len++)
		out[MARKER_HEADER_BYTES + len] = (uint8_t)m->why[len];
	len = MARKER_HEADER_BYTES + n;
	le_put(out + len, crc32(out, len), 4);
	return len + 4;
}

int marker_decode(const uint8_t *in, size_t len, struct run_marker *m)
{
	size_t n, i;

	if (len < MARKER_HEADER_BYTES + 4 || le_get(in, 4) != MARKER_MAGIC ||
	    in[4] != MARKER_VERSION)
		return -1;
	n = in[18];
	if (n >= MARKER_WHY_LEN || len != MARKER_HEADER_BYTES + n + 4 ||
	    le_get(in + MARKER_HEADER_BYTES + n, 4) !=
		    crc32(in, MARKER_HEADER_BYTES + n) ||
	    in[5] == 0 || in[5] >= MARKER_STATE_END)
		return -1;
	*m = (struct run_marker){
		.state = in[5], .run_index = in[6], .part = in[7],
		.first_row = (uint16_t)le_get(in + 8, 2),
		.run_id = le_get(in + 10, 8),
	};
	for (i = 0; i < n; i++)
		m->why[i] = (char)in[MARKER_HEADER_BYTES + i];
	m->why[n] = '\0';
	return 0;
}

const char *marker_state_name(unsigned state)
{
	return state == MARKER_MEASURING    ? "measuring"
	       : state == MARKER_NOT_STORED ? "not-stored"
					    : "?";
}
