#include "firmware/memory_map.h"

#include "arch/lib/le.h"

/* EFI_MEMORY_DESCRIPTOR (UEFI spec §7.2): Type at 0, PhysicalStart at 8,
 * NumberOfPages at 24, Attribute at 32. */
#define DESC_TYPE 0
#define DESC_START 8
#define DESC_PAGES 24
#define DESC_ATTRIBUTE 32
#define EFI_PAGE 4096ull
#define EFI_MEMORY_MAPPED_IO 11
#define EFI_MEMORY_MAPPED_IO_PORT_SPACE 12
#define EFI_MEMORY_WB 0x8ull
#define MTRR_VALID (1ull << 11)
#define FIXED_MTRR_END (1ull << 20)
#define FOUR_GIB (4ull << 30)
#define SMALL_PAGE 4096ull
#define LARGE_PAGE (2ull << 20)

static enum map_kind descriptor_kind(const uint8_t *d)
{
	uint32_t type = (uint32_t)le_get(d + DESC_TYPE, 4);

	if (type == EFI_MEMORY_MAPPED_IO ||
	    type == EFI_MEMORY_MAPPED_IO_PORT_SPACE)
		return MAP_UC;
	return le_get(d + DESC_ATTRIBUTE, 8) & EFI_MEMORY_WB ? MAP_WB : MAP_UC;
}

/* What the memory map alone says of the range: one kind, or MAP_SPLIT
 * where descriptors of two kinds, or a descriptor and a hole, share it. */
static enum map_kind by_descriptors(const struct memory_map *m,
				    uint64_t start, uint64_t size)
{
	enum map_kind kind = MAP_NONE;
	uint64_t covered = 0, end = start + size;
	size_t off;

	for (off = 0; m->desc_size && off + m->desc_size <= m->size;
	     off += m->desc_size) {
		const uint8_t *d = m->bytes + off;
		uint64_t from = le_get(d + DESC_START, 8);
		uint64_t to = from + le_get(d + DESC_PAGES, 8) * EFI_PAGE;
		enum map_kind k;

		if (to <= start || from >= end)
			continue;
		k = descriptor_kind(d);
		if (kind != MAP_NONE && k != kind)
			return MAP_SPLIT;
		kind = k;
		covered += (to < end ? to : end) - (from > start ? from : start);
	}
	if (covered == 0)	/* a hole: uncached below 4 GiB */
		return start < FOUR_GIB ? MAP_UC : MAP_NONE;
	if (covered < size)
		return start < FOUR_GIB && kind == MAP_UC ? MAP_UC : MAP_SPLIT;
	return kind;
}

/* Whether one MTRR type holds over the whole range: no variable range
 * begins or ends inside it, and no fixed range lies in it. */
static int mtrr_uniform(const struct mtrr_view *mtrr, uint64_t start,
			uint64_t size)
{
	uint32_t i;

	if (mtrr->fixed_enabled && start < FIXED_MTRR_END && size > SMALL_PAGE)
		return 0;
	for (i = 0; i < mtrr->n_variable && i < MTRR_MAX_VARIABLE; i++) {
		uint64_t mask = mtrr->variable[i].mask, base = mtrr->variable[i].base;
		uint64_t above = mask & ~(size - 1) & ~0xfffull;

		if (!(mask & MTRR_VALID))
			continue;
		/* Address bits the MTRR compares within the range make part
		 * of it match and part not, where its high bits match. */
		if ((start & above) == (base & above) &&
		    (mask & (size - 1) & ~0xfffull))
			return 0;
	}
	return 1;
}

enum map_kind memory_map_kind(const struct memory_map *m,
			      const struct mtrr_view *mtrr, uint64_t start,
			      uint64_t size)
{
	enum map_kind kind = by_descriptors(m, start, size);

	if (kind == MAP_NONE || kind == MAP_SPLIT || size <= SMALL_PAGE)
		return kind;
	return mtrr_uniform(mtrr, start, size) ? kind : MAP_SPLIT;
}

/* Page-table pages one GiB needs: its PD, and a PT per split 2 MiB
 * page; 0 when nothing in it is mapped. */
static size_t gib_pages(const struct memory_map *m, const struct mtrr_view *mtrr,
			uint64_t gib)
{
	size_t pts = 0;
	int any = 0;
	uint64_t a;

	for (a = gib; a < gib + (1ull << 30); a += LARGE_PAGE) {
		enum map_kind k = memory_map_kind(m, mtrr, a, LARGE_PAGE);

		any |= k != MAP_NONE;
		pts += k == MAP_SPLIT;
	}
	return any ? 1 + pts : 0;
}

/* Whether a descriptor before the one at `off` reaches the GiB `gib`. */
static int gib_seen(const struct memory_map *m, size_t off, uint64_t gib)
{
	size_t o;

	for (o = 0; o < off; o += m->desc_size) {
		uint64_t from = le_get(m->bytes + o + DESC_START, 8);
		uint64_t to = from + le_get(m->bytes + o + DESC_PAGES, 8) * EFI_PAGE;

		if (to > FOUR_GIB && from < gib + (1ull << 30) && to > gib)
			return 1;
	}
	return 0;
}

size_t memory_map_table_pages(const struct memory_map *m,
			      const struct mtrr_view *mtrr)
{
	size_t pages = 1 + 1;	/* the PML4, and the PDPT of the low 512 GiB */
	uint64_t gib, pdpt_seen[64];
	size_t n_pdpts = 1, off, i;

	pdpt_seen[0] = 0;
	for (gib = 0; gib < FOUR_GIB; gib += 1ull << 30)
		pages += gib_pages(m, mtrr, gib);
	/* Above 4 GiB, only the GiBs descriptors reach, each counted once:
	 * a reserved range near the top of the address space costs its
	 * own tables, not one per GiB up to it. */
	for (off = 0; m->desc_size && off + m->desc_size <= m->size;
	     off += m->desc_size) {
		uint64_t from = le_get(m->bytes + off + DESC_START, 8);
		uint64_t to = from + le_get(m->bytes + off + DESC_PAGES, 8) * EFI_PAGE;

		if (to <= FOUR_GIB)
			continue;
		for (gib = (from > FOUR_GIB ? from : FOUR_GIB) & ~((1ull << 30) - 1);
		     gib < to; gib += 1ull << 30) {
			if (gib_seen(m, off, gib))
				continue;
			pages += gib_pages(m, mtrr, gib);
			for (i = 0; i < n_pdpts && pdpt_seen[i] != gib >> 39; i++)
				;
			if (i == n_pdpts) {
				pages++;
				if (n_pdpts < 64)
					pdpt_seen[n_pdpts++] = gib >> 39;
			}
		}
	}
	return pages;
}
