#include "arch/paging.h"

#include "arch/cpu.h"

/* Entry bits (SDM vol. 3 §4.5, Tables 4-14 to 4-20). */
#define PTE_PRESENT	(1ull << 0)
#define PTE_WRITABLE	(1ull << 1)
#define PTE_PWT		(1ull << 3)
#define PTE_PCD		(1ull << 4)
#define PTE_LARGE	(1ull << 7)	/* PS: a 2 MiB page in a PD entry */
#define PTE_ADDR_MASK	0x000ffffffffff000ull
#define PTE_USER	(1ull << 2)
#define PTE_ACCESSED	(1ull << 5)
#define PTE_DIRTY	(1ull << 6)
#define PTE_PAT_4K	(1ull << 7)	/* PAT: bit 7 in a 4 KiB page's entry, */
#define PTE_PAT_LARGE	(1ull << 12)	/* bit 12 in a large page's */
#define PTE_HIGH_BITS	0xfff0000000000000ull	/* XD, keys, ignored */
#define CR0_WP		(1ull << 16)

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

/* A large page's entry at `entry`, of 1 << shift bytes (1 GiB or
 * 2 MiB), replaced by a table of 512 pages the next size down, each with
 * its attributes (SDM vol. 3A §4.5, Tables 4-17 to 4-20: PAT moves
 * from bit 12 to bit 7 in a 4 KiB page's entry). */
static void split_large(uint64_t *entry, unsigned shift, uint64_t *table)
{
	uint64_t e = *entry, child = 1ull << (shift - 9);
	uint64_t base = e & PTE_ADDR_MASK & ~((1ull << shift) - 1);
	uint64_t attrs = (e & 0xfff) | (e & PTE_HIGH_BITS);
	unsigned i;

	if (shift - 9 == 12)
		attrs = (attrs & ~PTE_LARGE) | (e & PTE_PAT_LARGE ? PTE_PAT_4K : 0);
	else
		attrs |= e & PTE_PAT_LARGE;
	for (i = 0; i < ENTRIES; i++)
		table[i] = (base + i * child) | attrs;
	*entry = (uint64_t)(uintptr_t)table | PTE_PRESENT | PTE_WRITABLE |
		 PTE_ACCESSED | (e & PTE_USER);
}

const char *paging_shadow_stack_page(uint64_t va, uint8_t *spare,
				     unsigned spare_pages)
{
	uint64_t *table = (uint64_t *)(uintptr_t)(read_cr3() & PTE_ADDR_MASK);
	uint64_t cr0 = read_cr0(), *entry = 0;
	unsigned level = read_cr4() & CR4_LA57 ? 5 : 4, used = 0;
	const char *why = 0;

	/* The firmware may keep its tables read-only: supervisor writes
	 * go through while CR0.WP is clear (SDM vol. 3A §4.6.1).
	 * Interrupts are off. */
	write_cr0(cr0 & ~CR0_WP);
	for (; level >= 1; level--) {
		unsigned shift = 12 + 9 * (level - 1);

		entry = &table[(va >> shift) & 511];
		if (!(*entry & PTE_PRESENT)) {
			why = "the page is not mapped";
			break;
		}
		if (level == 1)
			break;
		if (level <= 3 && (*entry & PTE_LARGE)) {
			if (used == spare_pages) {
				why = "no spare page-table page to split a "
				      "large page";
				break;
			}
			split_large(entry, shift,
				    (uint64_t *)(void *)(spare +
							 used++ * PAGE_SIZE));
		}
		/* A shadow-stack page: R/W 1 in every paging-structure
		 * entry but the page's own, where R/W is 0 and dirty 1;
		 * supervisor, U/S 0 (SDM vol. 3A §4.6, "shadow-stack
		 * pages"). */
		*entry |= PTE_WRITABLE;
		table = (uint64_t *)(uintptr_t)(*entry & PTE_ADDR_MASK);
	}
	if (!why)
		*entry = (*entry | PTE_DIRTY | PTE_ACCESSED) &
			 ~(PTE_WRITABLE | PTE_USER);
	write_cr0(cr0);
	/* The page's old translation, and the large one it may have had,
	 * out of the TLB and the paging-structure caches (§4.10.4.1). */
	__asm__ volatile("invlpg (%0)" ::"r"(va) : "memory");
	write_cr3(read_cr3());
	return why;
}
