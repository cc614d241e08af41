/* Reading EDK2's variable store: a real OVMF 2 MB store after ten runs
 * (live firmware variables, deleted irqlab records), and broken copies.
 * The expected figures come from the boot tests' own Python reader
 * (tests/boot/varstore.py), a second implementation of the layout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "firmware/varstore.h"
#include "tests/unit/fixture.h"

#define STORE_AT 72	/* the firmware volume header's length */

static uint8_t image[64 * 1024];

static void a_used_store_is_read_to_its_end(void **state)
{
	size_t n = load_fixture("ovmf-2m-VARS-used.bin", image, sizeof(image));
	struct varstore_usage u;

	(void)state;
	assert_int_equal(varstore_read(image, n, &u), VARSTORE_OK);
	assert_true(u.authenticated);
	assert_int_equal(u.store_bytes, 57272);
	assert_int_equal(u.variables, 40);
	assert_int_equal(varstore_end_free(&u), 31708);
	/* the header, then every variable, live or deleted */
	assert_int_equal(u.used_bytes, 28 + u.live_bytes + u.deleted_bytes);
	assert_int_equal(u.live_bytes, 11268);
}

/* What varstore_each found: the counts, and the 24th variable. */
struct seen {
	unsigned n, live;
	char name_24[24];
	uint32_t data_24;
	uint8_t live_24;
};

static void note(void *ctx, const struct varstore_variable *v)
{
	struct seen *s = ctx;
	unsigned i;

	s->live += v->live;
	if (++s->n == 24) {
		/* UCS-2 to ASCII: every name here is ASCII */
		for (i = 0; i + 1 < sizeof(s->name_24) &&
			    2 * i + 1 < v->name_bytes && v->name[2 * i]; i++)
			s->name_24[i] = (char)v->name[2 * i];
		s->name_24[i] = 0;
		s->data_24 = v->data_bytes;
		s->live_24 = v->live;
	}
}

/* Each variable is visited with its name, data and state, as the boot
 * tests' reader sees them: 40, 27 live, the 24th irqlab's first record,
 * deleted. */
static void each_variable_is_visited(void **state)
{
	size_t n = load_fixture("ovmf-2m-VARS-used.bin", image, sizeof(image));
	struct varstore_usage u;
	struct seen s = { 0 };

	(void)state;
	assert_int_equal(varstore_each(image, n, &u, note, &s), VARSTORE_OK);
	assert_int_equal(s.n, 40);
	assert_int_equal(s.live, 27);
	assert_string_equal(s.name_24, "IrqlabRecord00");
	assert_int_equal(s.data_24, 1024);
	assert_int_equal(s.live_24, 0);
}

static void a_blank_store_is_all_free(void **state)
{
	size_t n = load_fixture("ovmf-2m-VARS-used.bin", image, sizeof(image));
	struct varstore_usage u;

	(void)state;
	memset(image + STORE_AT + 28, 0xff, n - STORE_AT - 28);
	assert_int_equal(varstore_read(image, n, &u), VARSTORE_OK);
	assert_int_equal(u.variables, 0);
	assert_int_equal(varstore_end_free(&u), 57272 - 28);
}

static void other_volumes_and_formats_are_refused(void **state)
{
	size_t n = load_fixture("ovmf-2m-VARS-used.bin", image, sizeof(image));
	struct varstore_usage u;

	(void)state;
	image[16] ^= 1;	/* file system GUID: not NV data */
	assert_int_equal(varstore_read(image, n, &u), VARSTORE_NOT_NV_DATA);
	image[16] ^= 1;
	image[STORE_AT] ^= 1;	/* store signature: not EDK2's */
	assert_int_equal(varstore_read(image, n, &u), VARSTORE_UNKNOWN_FORMAT);
	image[STORE_AT] ^= 1;
	/* a store larger than the bytes there */
	assert_int_equal(varstore_read(image, n - 1, &u), VARSTORE_BAD_LENGTH);
}

static void a_variable_past_the_store_is_refused(void **state)
{
	size_t n = load_fixture("ovmf-2m-VARS-used.bin", image, sizeof(image));
	struct varstore_usage u;

	(void)state;
	/* the first variable's DataSize (authenticated header, offset 40) */
	image[STORE_AT + 28 + 40 + 3] = 0x7f;
	assert_int_equal(varstore_read(image, n, &u), VARSTORE_BAD_VARIABLE);
}

static void truncated_volumes_never_overrun(void **state)
{
	size_t n = load_fixture("ovmf-2m-VARS-used.bin", image, sizeof(image)), cut;
	struct varstore_usage u;

	(void)state;
	/* Each cut in a buffer of exactly its size: under ASan, a read
	 * past the cut is an overrun, not a read of the rest of `image`. */
	for (cut = 0; cut <= n; cut += 7) {
		uint8_t *exact = exact_copy(image, cut);

		varstore_read(exact, cut, &u);
		free(exact);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_used_store_is_read_to_its_end),
		cmocka_unit_test(each_variable_is_visited),
		cmocka_unit_test(a_blank_store_is_all_free),
		cmocka_unit_test(other_volumes_and_formats_are_refused),
		cmocka_unit_test(a_variable_past_the_store_is_refused),
		cmocka_unit_test(truncated_volumes_never_overrun),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
