/* SMBIOS parsing on QEMU q35's structure table and on broken copies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "firmware/smbios.h"
#include "tests/unit/fixture.h"

static void qemu_system_information(void **state)
{
	uint8_t t[1024];
	size_t n = load_fixture("qemu-q35-SMBIOS.bin", t, sizeof(t));
	struct smbios_system s;

	(void)state;
	assert_int_equal(smbios_system_info(t, n, &s), 0);
	assert_string_equal(s.vendor, "QEMU");
	assert_string_equal(s.product, "Standard PC (Q35 + ICH9, 2009)");
	/* the machine type names the QEMU version */
	assert_int_equal(strncmp(s.version, "pc-q35-", 7), 0);
	/* QEMU run without -uuid leaves the system UUID all 00h, "not
	 * present" (DSP0134 §7.2.1): read as it is stored. */
	assert_int_equal(s.has_uuid, 1);
	assert_memory_equal(s.uuid, (uint8_t[16]){ 0 }, 16);
}

/* A UUID set in the type 1 structure (QEMU's -uuid) is read as stored,
 * and a structure that ends before it has none. */
static void the_system_uuid_is_read_where_the_structure_holds_it(void **state)
{
	static const uint8_t uuid[16] = { 0x33, 0x22, 0x11, 0x00, 0x55, 0x44,
					  0x77, 0x66, 0x88, 0x99, 0xaa, 0xbb,
					  0xcc, 0xdd, 0xee, 0xff };
	uint8_t t[1024];
	size_t n = load_fixture("qemu-q35-SMBIOS.bin", t, sizeof(t)), off = 0;
	struct smbios_system s;

	(void)state;
	/* The type 1 structure, past the ones before it and their strings. */
	while (t[off] != 1) {
		off += t[off + 1];
		while (t[off] || t[off + 1])
			off++;
		off += 2;
	}
	memcpy(t + off + 8, uuid, 16);
	assert_int_equal(smbios_system_info(t, n, &s), 0);
	assert_int_equal(s.has_uuid, 1);
	assert_memory_equal(s.uuid, uuid, 16);
	/* Length 08h, an SMBIOS 2.0 structure: the strings follow at once,
	 * so the first three bytes after the header become the set's. */
	t[off + 1] = 8;
	t[off + 8] = 'Q';
	t[off + 9] = 0;
	t[off + 10] = 0;
	assert_int_equal(smbios_system_info(t, n, &s), 0);
	assert_int_equal(s.has_uuid, 0);
}

static void truncated_tables_never_overrun(void **state)
{
	uint8_t t[1024];
	size_t n = load_fixture("qemu-q35-SMBIOS.bin", t, sizeof(t)), cut;
	struct smbios_system s;

	(void)state;
	/* type 0 (BIOS) comes first, so cutting inside it or type 1 fails */
	for (cut = 0; cut < 40; cut++)
		assert_int_equal(smbios_system_info(t, cut, &s), -1);
	/* Each cut in a buffer of exactly its size: under ASan, a read
	 * past the cut is an overrun, not a read of the rest of `t`. */
	for (cut = 0; cut <= n; cut++) {
		uint8_t *exact = exact_copy(t, cut);

		smbios_system_info(exact, cut, &s);
		free(exact);
	}
}

static void a_zero_length_structure_is_refused(void **state)
{
	uint8_t t[1024];
	size_t n = load_fixture("qemu-q35-SMBIOS.bin", t, sizeof(t));
	struct smbios_system s;

	(void)state;
	t[1] = 2;	/* shorter than a header */
	assert_int_equal(smbios_system_info(t, n, &s), -1);
}

static void entry_points(void **state)
{
	uint8_t ep[0x20] = "_SM3_";
	uint64_t table = 0;
	uint32_t len = 0;
	uint8_t sum = 0;
	unsigned i;

	(void)state;
	ep[6] = 0x18;
	ep[0x0c] = 0x82;	/* 386 bytes */
	ep[0x0d] = 0x01;
	ep[0x10] = 0x00;
	ep[0x11] = 0x10;
	ep[0x14] = 0x01;	/* above 4 GiB */
	for (i = 0; i < 0x18; i++)
		sum = (uint8_t)(sum + ep[i]);
	ep[5] = (uint8_t)-sum;
	assert_int_equal(smbios_entry_point(ep, sizeof(ep), &table, &len), 0);
	assert_int_equal(len, 386);
	assert_int_equal(table, 0x100001000ull);
	ep[9] ^= 1;	/* checksum broken */
	assert_int_equal(smbios_entry_point(ep, sizeof(ep), &table, &len), -1);
	memcpy(ep, "_XX_", 4);
	assert_int_equal(smbios_entry_point(ep, sizeof(ep), &table, &len), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(qemu_system_information),
		cmocka_unit_test(the_system_uuid_is_read_where_the_structure_holds_it),
		cmocka_unit_test(truncated_tables_never_overrun),
		cmocka_unit_test(a_zero_length_structure_is_refused),
		cmocka_unit_test(entry_points),
	};

	return cmocka_run_group_tests_name("smbios", tests, NULL, NULL);
}
