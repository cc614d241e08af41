#include "arch/ap.h"

#include <stddef.h>

#include "arch/cpu.h"
#include "arch/desc.h"

/* ap_start.S: the trampoline, and where its 32- and 64-bit parts start. */
extern const char ap_trampoline[], ap_trampoline_end[];
extern const char ap_protected[], ap_long[];

#define ONE_MIB 0x100000ull
#define PAGE_BYTES 4096ull
#define CR4_PAE (1ull << 5)
#define CR4_PSE (1ull << 4)
#define EFER_LMA (1ull << 10)
#define MSR_EFER 0xc0000080

volatile uint32_t ap_alive;
/* The boot CPU's CR4, which each AP takes once in long mode. */
static uint64_t boot_cr4;

static void put(uint8_t *p, unsigned at, uint64_t v, unsigned bytes)
{
	unsigned i;

	for (i = 0; i < bytes; i++)
		p[at + i] = (uint8_t)(v >> (8 * i));
}

const char *ap_start_unsupported(const void *page)
{
	uint64_t at = (uint64_t)(uintptr_t)page;

	if (!page)
		return "no page below 1 MiB was free for the trampoline";
	if (at >= ONE_MIB || at % PAGE_BYTES)
		return "the trampoline's page is not a page below 1 MiB";
	if (read_cr3() >> 32)
		return "the page tables lie above 4 GiB, beyond the "
		       "trampoline's 32-bit MOV to CR3";
	return 0;
}

/* An AP in long mode: irqlab's GDT and IDT (no TSS of its own: it takes
 * no interrupt), the boot CPU's CR4, then it says it is here and waits,
 * interrupts off, until an INIT parks it again. It spins rather than
 * halts: QEMU's TCG does not wake a halted vCPU for an INIT alone (it
 * counts INIT as no work for a halted CPU), and the boot CPU parks
 * every AP moments after starting it. */
static void ap_main(void)
{
	desc_load_on_this_cpu();
	write_cr4(boot_cr4);
	__atomic_add_fetch(&ap_alive, 1, __ATOMIC_SEQ_CST);
	for (;;)
		__asm__ volatile("pause" ::: "memory");
}

void ap_trampoline_prepare(void *page)
{
	uint8_t *p = page;
	uint32_t base = (uint32_t)(uintptr_t)page;
	const char *from = ap_trampoline;
	size_t i, n = (size_t)(ap_trampoline_end - ap_trampoline);

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)from[i];
	boot_cr4 = read_cr4();
	put(p, AP_GDTR, 4 * 8 - 1, 2);
	put(p, AP_GDTR + 2, base + AP_GDT, 4);
	put(p, AP_FAR32, base + (uint32_t)(ap_protected - ap_trampoline), 4);
	put(p, AP_FAR32 + 4, AP_SEL_CODE32, 2);
	put(p, AP_FAR64, base + (uint32_t)(ap_long - ap_trampoline), 4);
	put(p, AP_FAR64 + 4, AP_SEL_CODE64, 2);
	put(p, AP_CR3, read_cr3(), 4);
	/* Before paging only the paging bits may be set: PAE, PSE, and
	 * LA57 where the tables have five levels. */
	put(p, AP_CR4, boot_cr4 & (CR4_PAE | CR4_PSE | CR4_LA57), 4);
	put(p, AP_EFER, rdmsr(MSR_EFER) & ~EFER_LMA, 8);
	put(p, AP_ENTRY, (uint64_t)(uintptr_t)ap_main, 8);
}

void ap_trampoline_set_stack(void *page, uint64_t top)
{
	put(page, AP_STACK, top, 8);
}
