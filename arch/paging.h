/* irqlab's own 4-level identity map. Firmware page tables may be
 * read-only or missing what irqlab needs, and the pf-cr2 scheme needs a
 * page irqlab can make not-present (docs/long-mode.md). */
#ifndef IRQLAB_ARCH_PAGING_H
#define IRQLAB_ARCH_PAGING_H

#include <stddef.h>
#include <stdint.h>

#define PAGE_SIZE 4096ull
#define LARGE_PAGE_SIZE (2ull << 20)

/* Page-table pages come from a pool allocated while boot services ran,
 * sized by firmware/memory_map.c for the extents the map holds. */
struct page_pool {
	uint8_t *base;
	size_t pages;
	size_t used;
};

struct paging {
	struct page_pool pool;
	uint64_t *pml4;
	uint64_t *root;	/* what CR3 gets: the PML4, or a PML5 above it */
};

int paging_init(struct paging *pg, void *pool, size_t pool_pages);
enum page_cache {
	PAGE_WB,	/* write-back, where the MTRRs agree */
	PAGE_UC_MINUS,	/* uncached, or write-combining where an MTRR says WC */
};
/* Identity-maps [start, end) with pages of `page` bytes (PAGE_SIZE or
 * LARGE_PAGE_SIZE) cached as `cache`. A 2 MiB range mapped in 4 KiB
 * pages must not have been mapped as one large page. Returns 0, or -1
 * if the pool ran out. */
int paging_map_as(struct paging *pg, uint64_t start, uint64_t end,
		  uint64_t page, enum page_cache cache);
/* Loads CR3 with the new PML4. */
void paging_activate(const struct paging *pg);

#endif
