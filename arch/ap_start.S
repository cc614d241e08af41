/* The application processors' way in (SDM vol. 3A §9.4, "Multiple-
 * Processor (MP) Initialization"): a SIPI starts an AP in real mode at
 * the 4 KiB page its vector names, below 1 MiB. ap_trampoline is copied
 * there (arch/ap.c fills in its data block) and takes the AP through
 * protected mode into long mode on irqlab's page tables, then into
 * ap_main on a stack of its own. EBX holds the page's address
 * throughout, for the data block.
 *
 * Many APs run it at once (bench/run/other_cpus.c starts them all with
 * one INIT, one wait and one SIPI each): nothing here writes the page
 * but a locked count, no stack is used before long mode, and each AP
 * finds its own stack by its APIC ID, as Linux's parallel start-up has
 * done since 6.5 (arch/x86/kernel/head_64.S, its lookup of the APIC ID
 * in cpuid_to_apicid). */
#include "arch/ap.h"

	.section .text.irqlab.ap, "ax"
	.balign 16
	.globl ap_trampoline, ap_trampoline_end
	.code16
ap_trampoline:
	cli
	cld
	/* INIT leaves CR0's CD and NW as they were (SDM vol. 3A §10.1.1,
	 * Table 10-1), and the whole CR0 loaded below sets them as the
	 * boot CPU has them: the caches written back and emptied first,
	 * as before any change of cache mode (SDM vol. 3A, "Memory Cache
	 * Control"), and as Linux's trampoline starts
	 * (arch/x86/realmode/rm/trampoline_64.S). */
	wbinvd
	movw %cs, %ax
	movw %ax, %ds
	xorl %ebx, %ebx
	movw %ax, %bx
	shll $4, %ebx		/* the page's linear address */
	lgdtl AP_GDTR
	/* The boot CPU's CR0 whole, less PG, with PE: every other bit
	 * (CD, NW, NE, MP, WP, AM, ...) is its, not what INIT left. */
	movl AP_CR0, %eax
	andl $0x7fffffff, %eax	/* PG off until long mode's tables */
	orl $1, %eax		/* PE */
	movl %eax, %cr0
	ljmpl *AP_FAR32		/* into the 32-bit code below */

	.code32
	.globl ap_protected, ap_long
ap_protected:
	movl $AP_SEL_DATA32, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	/* Long mode as the boot CPU has it: its CR4 (PAE, LA57 where the
	 * tables are five levels), its page tables, its EFER (LME, NXE). */
	movl AP_CR4(%ebx), %eax
	movl %eax, %cr4
	movl AP_CR3(%ebx), %eax
	movl %eax, %cr3
	movl $0xc0000080, %ecx	/* IA32_EFER */
	movl AP_EFER(%ebx), %eax
	movl AP_EFER + 4(%ebx), %edx
	wrmsr
	movl AP_CR0(%ebx), %eax	/* the boot CPU's, PG and PE set */
	movl %eax, %cr0
	ljmpl *AP_FAR64(%ebx)	/* compatibility mode to 64-bit code */

	.code64
ap_long:
	movl %ebx, %ebx		/* the page, its upper half cleared */
	/* Its APIC ID from the local APIC, in the mode it is in (SDM vol.
	 * 3A §11.4.4: IA32_APIC_BASE bit 10, EXTD): x2APIC's ID register,
	 * MSR 802H, or bits 31:24 of xAPIC's at offset 20H of the APIC's
	 * page, which irqlab's page tables map where it lies. */
	movl $0x1b, %ecx	/* IA32_APIC_BASE */
	rdmsr
	testl $(1 << 10), %eax
	jnz 1f
	andl $0xfffff000, %eax
	shlq $32, %rdx
	orq %rdx, %rax
	movl 0x20(%rax), %eax
	shrl $24, %eax
	jmp 2f
1:	movl $0x802, %ecx	/* the x2APIC ID */
	rdmsr
2:	/* Its slot: where that id stands in the table. */
	movq AP_IDS(%rbx), %rsi
	movl AP_COUNT(%rbx), %ecx
	xorl %edi, %edi
3:	cmpl %ecx, %edi
	je 5f
	cmpl (%rsi,%rdi,4), %eax
	je 4f
	incl %edi
	jmp 3b
4:	movq AP_TOPS(%rbx), %rsi
	movq (%rsi,%rdi,8), %rsp
	movq AP_ENTRY(%rbx), %rax
	xorl %ebp, %ebp
	call *%rax		/* ap_main(slot), which never returns */
	jmp 6f
	/* No slot has its id: counted, and it parks here. */
5:	lock incl AP_STRAYS(%rbx)
6:	cli
	hlt
	jmp 6b

	.balign 8
ap_data:
	.org ap_trampoline + AP_GDT, 0
	.quad 0				/* null */
	.quad 0x00cf9a000000ffff	/* AP_SEL_CODE32: flat 32-bit code */
	.quad 0x00cf92000000ffff	/* AP_SEL_DATA32: flat data */
	.quad 0x00af9a000000ffff	/* AP_SEL_CODE64: 64-bit code */
	.org ap_trampoline + AP_DATA_END, 0
ap_trampoline_end:

	.section .note.GNU-stack, "", @progbits
