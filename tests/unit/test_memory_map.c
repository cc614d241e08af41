/* Page attributes from the UEFI memory map and the MTRRs
 * (firmware/memory_map.c), on maps laid out as OVMF and real firmware
 * give them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "firmware/memory_map.h"

#define DESC 48		/* OVMF's descriptor size: larger than the struct */
#define MIB (1ull << 20)
#define GIB (1ull << 30)
#define WB_ATTR 0xfull	/* UC WC WT WB */

enum { CONVENTIONAL = 7, RUNTIME_DATA = 6, RESERVED = 0, MMIO = 11 };

static uint8_t bytes[64 * DESC];
static struct memory_map map;

static void put(uint64_t v, uint8_t *at, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++)
		at[i] = (uint8_t)(v >> (8 * i));
}

static void add(uint32_t type, uint64_t start, uint64_t bytes_long,
		uint64_t attribute)
{
	uint8_t *d = bytes + map.size;

	memset(d, 0, DESC);
	put(type, d, 4);
	put(start, d + 8, 8);
	put(bytes_long / 4096, d + 24, 8);
	put(attribute, d + 32, 8);
	map.size += DESC;
}

/* A small PC: 640 KiB, then RAM from 1 MiB to 2 GiB, a runtime region
 * without WB at the top of it, the flash's MMIO, and 2 GiB more above
 * 4 GiB. */
static void small_pc(void)
{
	map = (struct memory_map){ bytes, 0, DESC };
	add(CONVENTIONAL, 0, 640 * 1024, WB_ATTR);
	add(CONVENTIONAL, 1 * MIB, 2 * GIB - 3 * MIB, WB_ATTR);
	add(RUNTIME_DATA, 2 * GIB - 2 * MIB, 2 * MIB, 0x8000000000000001ull);
	add(MMIO, 0xffc00000ull, 4 * MIB, 0x8000000000000001ull);
	add(CONVENTIONAL, 4 * GIB, 2 * GIB, WB_ATTR);
}

static const struct mtrr_view no_mtrrs;

static void memory_is_write_back_and_holes_below_4g_uncached(void **state)
{
	(void)state;
	small_pc();
	assert_int_equal(memory_map_kind(&map, &no_mtrrs, 64 * MIB, 2 * MIB),
			 MAP_WB);
	/* The PCI window under 4 GiB is in no descriptor: the APICs, the
	 * HPET, BARs. */
	assert_int_equal(memory_map_kind(&map, &no_mtrrs, 0xfec00000ull, 2 * MIB),
			 MAP_UC);
	assert_int_equal(memory_map_kind(&map, &no_mtrrs, 0xffe00000ull, 2 * MIB),
			 MAP_UC);
	/* A runtime region without EFI_MEMORY_WB, as Linux maps it. */
	assert_int_equal(memory_map_kind(&map, &no_mtrrs, 2 * GIB - 2 * MIB,
					 2 * MIB), MAP_UC);
	/* Above 4 GiB, memory is mapped and holes are not. */
	assert_int_equal(memory_map_kind(&map, &no_mtrrs, 5 * GIB, 2 * MIB),
			 MAP_WB);
	assert_int_equal(memory_map_kind(&map, &no_mtrrs, 7 * GIB, 2 * MIB),
			 MAP_NONE);
}

static void a_large_page_over_two_kinds_is_split(void **state)
{
	(void)state;
	small_pc();
	/* The first 2 MiB: RAM, the VGA hole, RAM again. */
	assert_int_equal(memory_map_kind(&map, &no_mtrrs, 0, 2 * MIB), MAP_SPLIT);
	assert_int_equal(memory_map_kind(&map, &no_mtrrs, 0xa0000, 4096), MAP_UC);
	assert_int_equal(memory_map_kind(&map, &no_mtrrs, 0x9f000, 4096), MAP_WB);
	/* RAM's last 1 MiB before the runtime region shares its 2 MiB page
	 * with nothing else: RAM ends at 2 GiB - 2 MiB exactly. */
	assert_int_equal(memory_map_kind(&map, &no_mtrrs, 2 * GIB - 4 * MIB,
					 2 * MIB), MAP_WB);
}

static void mtrr_boundaries_inside_a_large_page_split_it(void **state)
{
	struct mtrr_view mtrr = { .fixed_enabled = 1, .n_variable = 2 };

	(void)state;
	small_pc();
	/* 0-1 GiB WB, and 1 GiB + 1 MiB for 1 MiB UC: contiguous masks. */
	mtrr.variable[0].base = 0x6;
	mtrr.variable[0].mask = (~(GIB - 1) & 0xfffffffff000ull) | (1u << 11);
	mtrr.variable[1].base = (GIB + MIB) | 0;
	mtrr.variable[1].mask = (~(MIB - 1) & 0xfffffffff000ull) | (1u << 11);
	assert_int_equal(memory_map_kind(&map, &mtrr, 512 * MIB, 2 * MIB), MAP_WB);
	assert_int_equal(memory_map_kind(&map, &mtrr, GIB, 2 * MIB), MAP_SPLIT);
	assert_int_equal(memory_map_kind(&map, &mtrr, GIB + MIB, 4096), MAP_WB);
	assert_int_equal(memory_map_kind(&map, &mtrr, GIB + 4 * MIB, 2 * MIB),
			 MAP_WB);
	/* The fixed ranges split the first 2 MiB whatever the map says. */
	add(CONVENTIONAL, 640 * 1024, 384 * 1024, WB_ATTR);
	assert_int_equal(memory_map_kind(&map, &mtrr, 0, 2 * MIB), MAP_SPLIT);
	/* An invalid range (valid bit clear) is no boundary. */
	mtrr.variable[1].mask &= ~(1ull << 11);
	assert_int_equal(memory_map_kind(&map, &mtrr, GIB, 2 * MIB), MAP_WB);
}

static void tables_follow_the_extents_mapped(void **state)
{
	size_t small;

	(void)state;
	small_pc();
	/* PML4, one PDPT, 4 PDs below 4 GiB and 2 above, and a PT for the
	 * first 2 MiB. */
	small = memory_map_table_pages(&map, &no_mtrrs);
	assert_int_equal(small, 1 + 1 + 6 + 1);
	/* A reserved range near the top of a 46-bit address space costs
	 * its own PDPT and PD, not a PD per GiB up to it. */
	add(RESERVED, 1ull << 45, 2 * MIB, 0);
	assert_int_equal(memory_map_table_pages(&map, &no_mtrrs), small + 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memory_is_write_back_and_holes_below_4g_uncached),
		cmocka_unit_test(a_large_page_over_two_kinds_is_split),
		cmocka_unit_test(mtrr_boundaries_inside_a_large_page_split_it),
		cmocka_unit_test(tables_follow_the_extents_mapped),
	};

	return cmocka_run_group_tests_name("memory_map", tests, NULL, NULL);
}
