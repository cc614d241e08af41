#include "arch/paging.h"

#include "arch/cpu.h"

/* Entry bits (SDM vol. 3 §4.5, Tables 4-14 to 4-20). */
#define PTE_PRESENT	(1ull << 0)
#define PTE_WRITABLE	(1ull << 1)
#define PTE_PWT		(1ull << 3)
#define PTE_PCD		(1ull << 4)
#define PTE_LARGE	(1ull << 7)	/* PS: a 2 MiB page in a PD entry */
#define PTE_ADDR_MASK	0x000ffffffffff000ull

#define ENTRIES 512

static uint64_t *alloc_table(struct page_pool *pool)
{
	uint64_t *t;
	size_t i;

	if (pool->used >= pool->pages)
		return 0;
	t = (uint64_t *)(void *)(pool->base + pool->used++ * PAGE_SIZE);
	for (i = 0; i < ENTRIES; i++)
		t[i] = 0;
	return t;
}

int paging_init(struct paging *pg, void *pool, size_t pool_pages)
{
	pg->pool = (struct page_pool){ pool, pool_pages, 0 };
	pg->pml4 = alloc_table(&pg->pool);
	if (!pg->pml4)
		return -1;
	pg->root = pg->pml4;
	if (read_cr4() & CR4_LA57) {
		/* 5-level paging cannot be turned off while paging is on, so
		 * the map goes under a PML5 whose first entry covers the
		 * low 256 TiB, where the 4-level map lives. */
		pg->root = alloc_table(&pg->pool);
		if (!pg->root)
			return -1;
		pg->root[0] = (uint64_t)(uintptr_t)pg->pml4 | PTE_PRESENT |
			      PTE_WRITABLE;
	}
	return 0;
}

static uint64_t *next_level(struct paging *pg, uint64_t *table, unsigned index)
{
	uint64_t *child;

	if (table[index] & PTE_PRESENT)
		return (uint64_t *)(uintptr_t)(table[index] & PTE_ADDR_MASK);
	child = alloc_table(&pg->pool);
	if (!child)
		return 0;
	table[index] = (uint64_t)(uintptr_t)child | PTE_PRESENT | PTE_WRITABLE;
	return child;
}

int paging_map_as(struct paging *pg, uint64_t start, uint64_t end,
		  uint64_t page, enum page_cache cache)
{
	/* PCD alone selects PAT entry 2, UC- by default (SDM vol. 3A
	 * §12.12.3, Table 12-11): uncached unless an MTRR says WC, which
	 * is how Linux's ioremap maps MMIO. */
	uint64_t bits = PTE_PRESENT | PTE_WRITABLE |
			(cache == PAGE_UC_MINUS ? PTE_PCD : 0);
	uint64_t a;

	start &= ~(page - 1);
	for (a = start; a < end; a += page) {
		uint64_t *pdpt = next_level(pg, pg->pml4, (a >> 39) & 511);
		uint64_t *pd = pdpt ? next_level(pg, pdpt, (a >> 30) & 511) : 0;
		uint64_t *pt;

		if (!pd)
			return -1;
		if (page == LARGE_PAGE_SIZE) {
			pd[(a >> 21) & 511] = a | bits | PTE_LARGE;
			continue;
		}
		pt = next_level(pg, pd, (a >> 21) & 511);
		if (!pt)
			return -1;
		pt[(a >> 12) & 511] = a | bits;
	}
	return 0;
}

void paging_activate(const struct paging *pg)
{
	write_cr3((uint64_t)(uintptr_t)pg->root);
}
