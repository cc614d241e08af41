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
/* Makes the 4 KiB page at `va` a supervisor shadow-stack page in the
 * live tables (CR3's, the firmware's): R/W 0 and dirty in its entry,
 * R/W 1 in every entry above it, a 1 GiB or 2 MiB page around it split
 * with the same attributes into a table from `spare` (`spare_pages`
 * pages). Returns NULL, or why not. For simulate = cet-shadow-stack. */
const char *paging_shadow_stack_page(uint64_t va, uint8_t *spare,
				     unsigned spare_pages);

#endif
