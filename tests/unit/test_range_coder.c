/* The handoff's compressor (bench/model/range_coder.h): exact round
 * trips, its bytes pinned, and every malformed input refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/range_coder.h"

#define MAX 70000

static uint8_t in[MAX], packed[MAX + MAX / 20], out[MAX];

/* A deterministic byte source (xorshift32), for inputs of any kind. */
static uint32_t next_random(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static size_t round_trip(size_t n)
{
	size_t m = rc_compress(in, n, packed, sizeof(packed));

	assert_true(m > 0);
	assert_int_equal(rc_compress(in, n, NULL, sizeof(packed)), m);
	memset(out, 0xA5, n);
	assert_int_equal(rc_decompress(packed, m, out, n), 0);
	assert_memory_equal(out, in, n);
	return m;
}

static void inputs_of_every_kind_come_back_exactly(void **state)
{
	static const size_t sizes[] = { 0, 1, 2, 7, 255, 256, 4096, MAX };
	uint32_t seed = 2463534242u;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		/* random bytes: the coder's worst case */
		for (k = 0; k < sizes[i]; k++)
			in[k] = (uint8_t)next_random(&seed);
		round_trip(sizes[i]);
		/* small numbers, mostly one value, as histogram counts are */
		for (k = 0; k < sizes[i]; k++)
			in[k] = next_random(&seed) % 8 ? 1 : (uint8_t)(next_random(&seed) % 40);
		round_trip(sizes[i]);
		/* every byte value, the carry's 0xFF runs among them */
		for (k = 0; k < sizes[i]; k++)
			in[k] = k % 3 ? 0xFF : (uint8_t)k;
		round_trip(sizes[i]);
	}
}

/* What compressing buys: one byte value over and over shrinks to under a
 * 32nd (an 11-bit probability moved by 1/32 never passes 2017/2048, so
 * each bit still costs ~0.02 bit); random bytes grow by at most 2% and 5
 * bytes; an empty input is the coder's 5 bytes of flush. */
static void sizes_are_what_the_model_predicts(void **state)
{
	uint32_t seed = 1;
	size_t k, m;

	(void)state;
	assert_int_equal(round_trip(0), 5);
	memset(in, 3, 10000);
	m = round_trip(10000);
	assert_true(m < 10000 / 32);
	for (k = 0; k < 10000; k++)
		in[k] = (uint8_t)next_random(&seed);
	m = round_trip(10000);
	assert_true(m > 10000 && m < 10000 + 10000 / 50 + 5);
}

/* The coder's bytes for one input, pinned: a change to the model or the
 * coder changes every blob, and must change RESULTS_BLOB_VERSION. */
static void its_bytes_are_pinned(void **state)
{
	static const uint8_t text[] = "irqlab irqlab irqlab";
	static const uint8_t expected[] = {
		0x00, 0x69, 0x75, 0x9a, 0x19, 0x01, 0x57, 0x7b, 0xbc, 0x85, 0x8d,
		0xaf, 0x18, 0x56, 0xf2, 0xc0, 0xeb, 0x37, 0xc2, 0xff, 0x40, 0x6f,
	};
	size_t m;

	(void)state;
	m = rc_compress(text, sizeof(text) - 1, packed, sizeof(packed));
	assert_int_equal(m, sizeof(expected));
	assert_memory_equal(packed, expected, m);
}

static void malformed_input_is_refused(void **state)
{
	uint32_t seed = 7;
	size_t k, m, cut;

	(void)state;
	for (k = 0; k < 3000; k++)
		in[k] = (uint8_t)(next_random(&seed) % 20);
	m = rc_compress(in, 3000, packed, sizeof(packed));
	assert_true(m > 0);
	/* every cut runs out before the last byte it needs */
	for (cut = 0; cut < m; cut++)
		assert_int_equal(rc_decompress(packed, cut, out, 3000), -1);
	/* a byte more than the coder wrote is left over */
	packed[m] = 0;
	assert_int_equal(rc_decompress(packed, m + 1, out, 3000), 1);
	/* the first byte is the encoder's empty cache, always 0 */
	packed[0] = 1;
	assert_int_equal(rc_decompress(packed, m, out, 3000), -1);
}

static void too_small_a_buffer_compresses_nothing(void **state)
{
	size_t k, m, cap;

	(void)state;
	for (k = 0; k < 500; k++)
		in[k] = (uint8_t)(k * 7);
	m = rc_compress(in, 500, packed, sizeof(packed));
	for (cap = 0; cap < m; cap++)
		assert_int_equal(rc_compress(in, 500, packed, cap), 0);
	assert_int_equal(rc_compress(in, 500, packed, m), m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(inputs_of_every_kind_come_back_exactly),
		cmocka_unit_test(sizes_are_what_the_model_predicts),
		cmocka_unit_test(its_bytes_are_pinned),
		cmocka_unit_test(malformed_input_is_refused),
		cmocka_unit_test(too_small_a_buffer_compresses_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
