/* libFuzzer harness for phase C's parsing: whatever bytes sit in the
 * variable store (another tool's leftovers, a half-written record, flash
 * rot) must be refused cleanly, never crash or be shown as results.
 * Two modes, chosen by the first byte:
 *  - even: the rest is cut into as many raw records as phase C reads (up
 *    to HANDOFF_SCAN_RECORDS, of any length up to twice a record's, so
 *    oversize ones too) at positions it chooses itself (exercises the
 *    record checks);
 *  - odd: the rest is a results blob, encoded into valid records, one of
 *    which may be dropped; reassembly must give back exactly the blob, or
 *    refuse when a record is missing (exercises reassembly); and the rest
 *    goes to the blob decoder, its range decoder first
 *    (tests/fuzz/corpus/handoff/icount-run-blob: a blob of version 23 so,
 *    the full matrix under -icount with its histograms).
 * Whatever decodes, from records or from the raw bytes, goes through
 * every report writer, and is joined as a later part onto the last run
 * that decoded (results_join_part), as phase C joins a run in parts. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/model/records.h"
#include "bench/report/report.h"
#include "bench/model/serialize.h"

static void encoded_round_trip(uint8_t flags, const uint8_t *blob, size_t len)
{
	static uint8_t rec[HANDOFF_MAX_RECORDS][RECORD_MAX_BYTES];
	static uint8_t out[HANDOFF_MAX_BLOB];
	struct handoff_item items[HANDOFF_MAX_RECORDS];
	size_t total = records_needed(len), n = 0, seq, out_len;
	size_t drop = (flags >> 1) % (HANDOFF_MAX_RECORDS + 1);
	uint64_t run_id;

	if (total == 0)
		return;
	for (seq = total; seq-- > 0;) {	/* newest first: out of order */
		if (seq == drop)
			continue;
		memset(&items[n], 0, sizeof(items[n]));
		items[n].data = rec[n];
		items[n].len = record_encode(rec[n], flags, (uint16_t)seq, blob, len);
		n++;
	}
	if (handoff_select(items, n, out, sizeof(out), &out_len, &run_id)) {
		if (drop < total || out_len != len || memcmp(out, blob, len) ||
		    run_id != flags)
			abort();
	} else if (drop >= total) {
		abort();	/* a complete, valid run was refused */
	}
}

/* Every writer phase C and the rescue tool run, and the join of a part. */
static void report_and_join(const struct run_result *r)
{
	static char text[64 * 1024];
	static struct run_result earlier;
	static int have_earlier;
	struct text_buf tb;

	tb_init(&tb, text, sizeof(text));
	report_json(&tb, r, NULL);
	tb_init(&tb, text, sizeof(text));
	report_summary(&tb, r, NULL);
	tb_init(&tb, text, sizeof(text));
	report_end_screen(&tb, r, "\\EFI\\irqlab\\results\\x");
	if (have_earlier) {
		struct run_result *joined = malloc(sizeof(*joined));

		if (!joined)
			abort();
		*joined = earlier;
		if (results_join_part(joined, r) == 0) {
			tb_init(&tb, text, sizeof(text));
			report_json(&tb, joined, NULL);
		}
		free(joined);
	}
	earlier = *r;
	have_earlier = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t blob[HANDOFF_MAX_BLOB];
	static struct run_result r;
	static struct handoff_item items[HANDOFF_SCAN_RECORDS];
	size_t n = 0, pos = 0, blob_len;
	uint64_t run_id;

	if (size && (data[0] & 1)) {
		encoded_round_trip(data[0], data + 1, size - 1);
		/* The blob decoder on the rest: a blob's first byte, its
		 * version, may be odd. */
		if (results_decode(data + 1, size - 1, &r) == DECODE_OK)
			report_and_join(&r);
		return 0;
	}
	pos = size ? 1 : 0;
	/* Each record: a 2-byte length, then that many bytes. */
	while (n < HANDOFF_SCAN_RECORDS && pos + 2 <= size) {
		size_t len = (size_t)(data[pos] | data[pos + 1] << 8) %
			     (2 * RECORD_MAX_BYTES + 1);

		pos += 2;
		if (len > size - pos)
			len = size - pos;
		memset(&items[n], 0, sizeof(items[n]));
		items[n].data = data + pos;
		items[n].len = len;
		n++;
		pos += len;
	}
	if (handoff_select(items, n, blob, sizeof(blob), &blob_len, &run_id) &&
	    results_decode(blob, blob_len, &r) == DECODE_OK)
		report_and_join(&r);
	/* The blob decoder alone, on raw input. */
	if (results_decode(data, size, &r) == DECODE_OK)
		report_and_join(&r);
	return 0;
}
