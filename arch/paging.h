/* irqlab's own 4-level identity map. Firmware page tables may be
 * read-only or missing what irqlab needs, and the pf-cr2 scheme needs a
 * page irqlab can make not-present (docs/long-mode.md). */
#ifndef IRQLAB_ARCH_PAGING_H
#define IRQLAB_ARCH_PAGING_H

#include <stddef.h>
#include <stdint.h>

#define PAGE_SIZE 4096ull
#define LARGE_PAGE_SIZE (2ull << 20)

/* Page-table pages come from a pool allocated while boot services ran. */
struct page_pool {
	uint8_t *base;
	size_t pages;
	size_t used;
};

/* Pool pages needed to map [0, top) with 2 MiB pages (plus a PML5 root
 * when the firmware runs with 5-level paging). */
size_t paging_pool_pages(uint64_t top);

struct paging {
	struct page_pool pool;
	uint64_t *pml4;
	uint64_t *root;	/* what CR3 gets: the PML4, or a PML5 above it */
};

int paging_init(struct paging *pg, void *pool, size_t pool_pages);
/* Identity-maps [start, end) with 2 MiB pages, read/write, executable and
 * write-back in the page tables: the MTRRs still make MMIO uncacheable
 * (SDM vol. 3 §11.5.2.2, Table 11-7: MTRR UC wins over PAT WB), as in the
 * identity map firmware itself builds. Returns 0, or -1 if the pool ran
 * out. */
int paging_map_identity(struct paging *pg, uint64_t start, uint64_t end);
/* Loads CR3 with the new PML4. */
void paging_activate(const struct paging *pg);

#endif
