/* How irqlab's page tables map each range of physical memory, from the
 * UEFI memory map and the MTRRs (docs/long-mode.md "Page attributes"):
 * write-back where the memory map says the memory is, uncached for MMIO,
 * for runtime descriptors without EFI_MEMORY_WB and for the holes below
 * 4 GiB (the APICs, the HPET, PCI windows, flash), as Linux maps them;
 * and 4 KiB pages wherever a 2 MiB page would span two types, by the
 * memory map or by the MTRRs (SDM vol. 3A §12.11.9: a large page over
 * mixed MTRR types is undefined). Pure: the memory map is read by its
 * bytes (UEFI spec §7.2, EFI_MEMORY_DESCRIPTOR). */
#ifndef IRQLAB_FIRMWARE_MEMORY_MAP_H
#define IRQLAB_FIRMWARE_MEMORY_MAP_H

#include <stddef.h>
#include <stdint.h>

enum map_kind {
	MAP_NONE = 0,	/* not mapped: a hole above 4 GiB */
	MAP_WB,
	MAP_UC,
	MAP_SPLIT,	/* the range's parts differ: map it in smaller pages */
};

/* The variable-range MTRRs, as read from IA32_MTRR_PHYSBASE/PHYSMASKn,
 * and whether the fixed ranges (the first 1 MiB) are on. */
#define MTRR_MAX_VARIABLE 32
struct mtrr_view {
	uint8_t fixed_enabled;
	uint32_t n_variable;
	struct {
		uint64_t base, mask;	/* mask with its valid bit (11) */
	} variable[MTRR_MAX_VARIABLE];
};

struct memory_map {
	const uint8_t *bytes;
	size_t size, desc_size;
};

/* How [start, start + size) is mapped: one kind for all of it, or
 * MAP_SPLIT. `size` is a power of two, `start` aligned to it. */
enum map_kind memory_map_kind(const struct memory_map *m,
			      const struct mtrr_view *mtrr, uint64_t start,
			      uint64_t size);

/* Page-table pages a map of [0, 4 GiB) and of every descriptor above it
 * needs, in 2 MiB pages split to 4 KiB where memory_map_kind says so:
 * PML4, PDPTs, PDs and PTs. */
size_t memory_map_table_pages(const struct memory_map *m,
			      const struct mtrr_view *mtrr);

#endif
