/* The unit tests' fixtures: real tables and stores, read from
 * tests/unit/data/ (TEST_DATA_DIR). Include after <cmocka.h>. */
#ifndef IRQLAB_TESTS_FIXTURE_H
#define IRQLAB_TESTS_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads up to cap bytes of the fixture `name`; fails the test if it is
 * missing. Returns how many were read. */
static inline size_t load_fixture(const char *name, uint8_t *buf, size_t cap)
{
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
	f = fopen(path, "rb");
	assert_non_null(f);
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

/* The first `len` bytes of `data` in an allocation of exactly that
 * size, so that ASan sees a read past them; free() it after. */
static inline uint8_t *exact_copy(const uint8_t *data, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	assert_non_null(p);
	memcpy(p, data, len);
	return p;
}

#endif
