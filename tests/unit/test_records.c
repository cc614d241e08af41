/* Handoff records: encode, decode, and phase C's choice of what to trust. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/records.h"

#define MAX_ITEMS 64

struct store {
	uint8_t rec[MAX_ITEMS][RECORD_MAX_BYTES];
	struct handoff_item item[MAX_ITEMS];
	size_t n;
};

static void fill_blob(uint8_t *blob, size_t len, unsigned seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		blob[i] = (uint8_t)(i * 31 + seed);
}

/* Appends every record of a blob to the store. */
static size_t add_run(struct store *s, uint64_t run_id, const uint8_t *blob,
		      size_t len)
{
	size_t total = records_needed(len), seq;

	for (seq = 0; seq < total; seq++) {
		size_t n = record_encode(s->rec[s->n], run_id, (uint16_t)seq,
					 blob, len);
		assert_true(n > 0 && n <= RECORD_MAX_BYTES);
		s->item[s->n] = (struct handoff_item){ .data = s->rec[s->n], .len = n };
		s->n++;
	}
	return total;
}

static void crc32_matches_the_zlib_check_value(void **state)
{
	(void)state;
	/* The standard check input for CRC-32/ISO-HDLC. */
	assert_int_equal(crc32("123456789", 9), 0xcbf43926);
	assert_int_equal(crc32("", 0), 0);
}

static void round_trip_at_every_boundary(void **state)
{
	static const size_t sizes[] = {
		0, 1, RECORD_MAX_PAYLOAD - 1, RECORD_MAX_PAYLOAD,
		RECORD_MAX_PAYLOAD + 1, 3 * RECORD_MAX_PAYLOAD + 17,
		HANDOFF_MAX_BLOB,
	};
	static uint8_t blob[HANDOFF_MAX_BLOB], out[HANDOFF_MAX_BLOB];
	static struct store s;
	size_t i, len;
	uint64_t run_id;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(&s, 0, sizeof(s));
		fill_blob(blob, sizes[i], (unsigned)i);
		add_run(&s, 20261130120000ull + i, blob, sizes[i]);
		assert_true(s.n <= HANDOFF_MAX_RECORDS);
		assert_int_equal(handoff_select(s.item, s.n, out, sizeof(out),
						&len, &run_id), 1);
		assert_int_equal(len, sizes[i]);
		assert_int_equal(run_id, 20261130120000ull + i);
		assert_memory_equal(out, blob, len);
		assert_int_equal(s.item[0].fate, FATE_USED);
	}
}

static void records_stay_within_the_pstore_limits(void **state)
{
	(void)state;
	assert_int_equal(records_needed(HANDOFF_MAX_BLOB), HANDOFF_MAX_RECORDS);
	assert_int_equal(records_needed(HANDOFF_MAX_BLOB + 1), 0);
	assert_true(RECORD_MAX_BYTES <= 1024);
	/* the names past the largest handoff stay for records a firmware
	 * would not delete */
	assert_true(HANDOFF_MAX_RECORDS < HANDOFF_NAME_LIMIT);
}

/* The handoff's size follows the store's free room: the most records
 * whose room beyond the 5 KiB reserve is at most three quarters of what
 * is free beyond it, and leaves the store's largest variable room too,
 * between 8 and 64 (docs/uefi-variables.md "The handoff's size"). */
static void the_handoff_is_sized_to_the_store(void **state)
{
	uint64_t free_bytes;

	(void)state;
	/* A record's cost: 988 bytes of results, its 36-byte header and the
	 * store's 128; once, the marker's rewrite (183 + 128). */
	assert_int_equal(handoff_room_needed(17 * RECORD_MAX_PAYLOAD),
			 17 * 1152 + 311 + HANDOFF_STORE_RESERVE);
	/* OVMF's 4 MB store as phase A finds it (its largest variable
	 * 0x8400 bytes): the most there is */
	assert_int_equal(handoff_records_for(245172, 0x8400),
			 HANDOFF_MAX_RECORDS);
	/* OVMF's 2 MB store, fresh: 40788 bytes at its end alone, its largest
	 * variable 0x2000; (40788 - 5120) / 4 * 3 = 26751 >= 22 * 1152 + 311,
	 * and the 8917 bytes left hold the largest variable */
	assert_int_equal(handoff_records_for(40788, 0x2000), 22);
	/* ... and as phase A finds it: 45780 with its deleted variables,
	 * (45780 - 5120) / 4 * 3 = 30495 >= 26 * 1152 + 311 */
	assert_int_equal(handoff_records_for(45780, 0x2000), 26);
	/* the edge: 22 records' room, 25655, is three quarters of 34208 */
	assert_int_equal(handoff_records_for(34208 + 5120, 0x2000), 22);
	assert_int_equal(handoff_records_for(34207 + 5120, 0x2000), 21);
	/* where a quarter is less than the largest variable, the firmware
	 * keeps its largest variable's room: 30000 beyond the reserve and a
	 * largest variable of 0x2000 leave 21808, 18 records' room */
	assert_int_equal(handoff_records_for(30000 + 5120, 0x2000), 18);
	assert_int_equal(handoff_records_for(30000 + 5120, 0), 19);
	/* a store with less has the least, which phase A then refuses
	 * where even that does not fit */
	assert_int_equal(handoff_records_for(0, 0x2000), HANDOFF_MIN_RECORDS);
	assert_int_equal(handoff_records_for(12000, 0x2000), HANDOFF_MIN_RECORDS);
	for (free_bytes = 0; free_bytes < 400000; free_bytes += 97) {
		uint32_t k = handoff_records_for(free_bytes, 0x2000);
		uint64_t beyond = free_bytes > HANDOFF_STORE_RESERVE
					  ? free_bytes - HANDOFF_STORE_RESERVE : 0;
		uint64_t share = beyond / 4 * 3;

		if (beyond - share < 0x2000)
			share = beyond > 0x2000 ? beyond - 0x2000 : 0;

		assert_true(k >= HANDOFF_MIN_RECORDS && k <= HANDOFF_MAX_RECORDS);
		if (k > HANDOFF_MIN_RECORDS)
			assert_true(handoff_room_needed(k * RECORD_MAX_PAYLOAD) -
					    HANDOFF_STORE_RESERVE <= share);
		if (k < HANDOFF_MAX_RECORDS)
			assert_true(handoff_room_needed((k + 1) *
							RECORD_MAX_PAYLOAD) -
					    HANDOFF_STORE_RESERVE > share);
		assert_true(handoff_records_for(free_bytes + 97, 0x2000) >= k);
	}
}

static void out_of_order_records_reassemble(void **state)
{
	static uint8_t blob[3000], out[HANDOFF_MAX_BLOB];
	static struct store s;
	struct handoff_item tmp;
	size_t len;
	uint64_t run_id;

	(void)state;
	memset(&s, 0, sizeof(s));
	fill_blob(blob, sizeof(blob), 7);
	assert_int_equal(add_run(&s, 1, blob, sizeof(blob)), 4);
	tmp = s.item[0];
	s.item[0] = s.item[3];
	s.item[3] = tmp;
	tmp = s.item[1];
	s.item[1] = s.item[2];
	s.item[2] = tmp;
	assert_int_equal(handoff_select(s.item, s.n, out, sizeof(out), &len,
					&run_id), 1);
	assert_memory_equal(out, blob, sizeof(blob));
}

static void every_single_bit_flip_is_caught(void **state)
{
	static uint8_t blob[1500], rec[RECORD_MAX_BYTES];
	struct record_view v;
	size_t n, byte;
	int bit;

	(void)state;
	fill_blob(blob, sizeof(blob), 3);
	n = record_encode(rec, 99, 1, blob, sizeof(blob));
	assert_int_equal(record_decode(rec, n, &v), RECORD_OK);
	for (byte = 0; byte < n; byte++)
		for (bit = 0; bit < 8; bit++) {
			rec[byte] ^= (uint8_t)(1u << bit);
			assert_int_not_equal(record_decode(rec, n, &v), RECORD_OK);
			rec[byte] ^= (uint8_t)(1u << bit);
		}
}

static void truncated_records_are_rejected(void **state)
{
	static uint8_t blob[500], rec[RECORD_MAX_BYTES];
	struct record_view v;
	size_t n, cut;

	(void)state;
	fill_blob(blob, sizeof(blob), 1);
	n = record_encode(rec, 5, 0, blob, sizeof(blob));
	for (cut = 0; cut < n; cut++)
		assert_int_not_equal(record_decode(rec, cut, &v), RECORD_OK);
	assert_int_equal(record_decode(rec, 10, &v), RECORD_TRUNCATED);
	assert_int_equal(record_decode(rec, n - 1, &v), RECORD_TRUNCATED);
}

static void wrong_version_and_magic_are_named(void **state)
{
	static uint8_t blob[10], rec[RECORD_MAX_BYTES];
	struct record_view v;
	size_t n;

	(void)state;
	n = record_encode(rec, 5, 0, blob, sizeof(blob));
	rec[4] = RECORD_VERSION + 1;
	assert_int_equal(record_decode(rec, n, &v), RECORD_BAD_VERSION);
	rec[4] = RECORD_VERSION;
	rec[0] ^= 0xff;
	assert_int_equal(record_decode(rec, n, &v), RECORD_BAD_MAGIC);
}

static void a_missing_record_makes_the_run_stale(void **state)
{
	static uint8_t blob[2500], out[HANDOFF_MAX_BLOB];
	static struct store s;
	size_t len, i;
	uint64_t run_id;

	(void)state;
	memset(&s, 0, sizeof(s));
	fill_blob(blob, sizeof(blob), 2);
	add_run(&s, 1, blob, sizeof(blob));
	s.n--;	/* lose the last record */
	assert_int_equal(handoff_select(s.item, s.n, out, sizeof(out), &len,
					&run_id), 0);
	for (i = 0; i < s.n; i++) {
		assert_int_equal(s.item[i].fate, FATE_STALE);
		assert_string_equal(s.item[i].why, "incomplete: records missing");
	}
}

static void a_corrupt_record_is_reported_and_the_run_not_used(void **state)
{
	static uint8_t blob[2500], out[HANDOFF_MAX_BLOB];
	static struct store s;
	size_t len;
	uint64_t run_id;

	(void)state;
	memset(&s, 0, sizeof(s));
	fill_blob(blob, sizeof(blob), 4);
	add_run(&s, 1, blob, sizeof(blob));
	s.rec[1][RECORD_HEADER_BYTES + 5] ^= 0x10;
	assert_int_equal(handoff_select(s.item, s.n, out, sizeof(out), &len,
					&run_id), 0);
	assert_int_equal(s.item[1].fate, FATE_CORRUPT);
	assert_string_equal(s.item[1].why, "CRC mismatch");
	assert_int_equal(s.item[0].fate, FATE_STALE);
}

static void newest_complete_run_wins_and_older_is_superseded(void **state)
{
	static uint8_t a[1200], b[900], c[2000], out[HANDOFF_MAX_BLOB];
	static struct store s;
	size_t len, i, na, nb;
	uint64_t run_id;

	(void)state;
	memset(&s, 0, sizeof(s));
	fill_blob(a, sizeof(a), 10);
	fill_blob(b, sizeof(b), 11);
	fill_blob(c, sizeof(c), 12);
	na = add_run(&s, 100, a, sizeof(a));
	nb = add_run(&s, 200, b, sizeof(b));
	add_run(&s, 300, c, sizeof(c));
	s.n--;	/* the newest run, 300, is incomplete */
	assert_int_equal(handoff_select(s.item, s.n, out, sizeof(out), &len,
					&run_id), 1);
	assert_int_equal(run_id, 200);
	assert_memory_equal(out, b, sizeof(b));
	for (i = 0; i < na; i++) {
		assert_int_equal(s.item[i].fate, FATE_STALE);
		assert_string_equal(s.item[i].why, "superseded by a newer run");
	}
	for (i = na; i < na + nb; i++)
		assert_int_equal(s.item[i].fate, FATE_USED);
	for (i = na + nb; i < s.n; i++) {
		assert_int_equal(s.item[i].fate, FATE_STALE);
		assert_string_equal(s.item[i].why, "incomplete: records missing");
	}
}

static void a_duplicate_sequence_number_is_not_trusted(void **state)
{
	static uint8_t blob[1500], out[HANDOFF_MAX_BLOB];
	static struct store s;
	size_t len;
	uint64_t run_id;

	(void)state;
	memset(&s, 0, sizeof(s));
	fill_blob(blob, sizeof(blob), 5);
	add_run(&s, 1, blob, sizeof(blob));
	s.item[s.n++] = s.item[0];
	assert_int_equal(handoff_select(s.item, s.n, out, sizeof(out), &len,
					&run_id), 0);
	assert_string_equal(s.item[0].why, "duplicate sequence number");
}

static void records_of_one_run_must_agree(void **state)
{
	static uint8_t a[1500], b[1500], out[HANDOFF_MAX_BLOB];
	static struct store s, t;
	size_t len;
	uint64_t run_id;

	(void)state;
	memset(&s, 0, sizeof(s));
	memset(&t, 0, sizeof(t));
	fill_blob(a, sizeof(a), 1);
	fill_blob(b, sizeof(b), 2);
	add_run(&s, 1, a, sizeof(a));
	add_run(&t, 1, b, sizeof(b));	/* same run id, other content */
	s.item[1] = t.item[1];
	assert_int_equal(handoff_select(s.item, s.n, out, sizeof(out), &len,
					&run_id), 0);
	assert_string_equal(s.item[0].why, "records of one run disagree");
}

static void garbage_of_any_length_never_decodes(void **state)
{
	static uint8_t junk[RECORD_MAX_BYTES];
	struct record_view v;
	size_t n, i;

	(void)state;
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 7 + 3);
	for (n = 0; n <= sizeof(junk); n += 13)
		assert_int_not_equal(record_decode(junk, n, &v), RECORD_OK);
}

static void a_marker_round_trips_and_every_bit_flip_is_caught(void **state)
{
	const struct run_marker m = {
		.state = MARKER_NOT_STORED, .run_index = 2, .part = 3,
		.first_row = 141, .run_id = 0x0123456789abcdefull,
		.why = "SetVariable of record 4 failed (0x8000000000000009)",
	};
	uint8_t bytes[MARKER_MAX_BYTES];
	struct run_marker back;
	size_t n = marker_encode(bytes, &m), bit;

	(void)state;
	assert_int_equal(n, MARKER_HEADER_BYTES + strlen(m.why) + 4);
	assert_int_equal(marker_decode(bytes, n, &back), 0);
	assert_int_equal(back.state, MARKER_NOT_STORED);
	assert_int_equal(back.run_index, 2);
	assert_int_equal(back.part, 3);
	assert_int_equal(back.first_row, 141);
	assert_true(back.run_id == m.run_id);
	assert_string_equal(back.why, m.why);
	assert_string_equal(marker_state_name(back.state), "not-stored");
	for (bit = 0; bit < n * 8; bit++) {
		bytes[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		assert_int_not_equal(marker_decode(bytes, n, &back), 0);
		bytes[bit / 8] ^= (uint8_t)(1u << (bit % 8));
	}
	assert_int_not_equal(marker_decode(bytes, n - 1, &back), 0);
	assert_int_not_equal(marker_decode(bytes, 3, &back), 0);
}

static void a_marker_keeps_a_long_reason_cut_short(void **state)
{
	struct run_marker m = { .state = MARKER_MEASURING }, back;
	uint8_t bytes[MARKER_MAX_BYTES];
	size_t n;

	(void)state;
	memset(m.why, 'x', sizeof(m.why));	/* no terminator at all */
	n = marker_encode(bytes, &m);
	assert_true(n <= MARKER_MAX_BYTES);
	assert_int_equal(marker_decode(bytes, n, &back), 0);
	assert_int_equal(strlen(back.why), MARKER_WHY_LEN - 1);
	assert_string_equal(marker_state_name(back.state), "measuring");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(crc32_matches_the_zlib_check_value),
		cmocka_unit_test(round_trip_at_every_boundary),
		cmocka_unit_test(records_stay_within_the_pstore_limits),
		cmocka_unit_test(the_handoff_is_sized_to_the_store),
		cmocka_unit_test(out_of_order_records_reassemble),
		cmocka_unit_test(every_single_bit_flip_is_caught),
		cmocka_unit_test(truncated_records_are_rejected),
		cmocka_unit_test(wrong_version_and_magic_are_named),
		cmocka_unit_test(a_missing_record_makes_the_run_stale),
		cmocka_unit_test(a_corrupt_record_is_reported_and_the_run_not_used),
		cmocka_unit_test(newest_complete_run_wins_and_older_is_superseded),
		cmocka_unit_test(a_duplicate_sequence_number_is_not_trusted),
		cmocka_unit_test(records_of_one_run_must_agree),
		cmocka_unit_test(garbage_of_any_length_never_decodes),
		cmocka_unit_test(a_marker_round_trips_and_every_bit_flip_is_caught),
		cmocka_unit_test(a_marker_keeps_a_long_reason_cut_short),
	};

	return cmocka_run_group_tests_name("records", tests, NULL, NULL);
}
