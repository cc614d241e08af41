/* The application processors' way in (SDM vol. 3A §9.4, "Multiple-
 * Processor (MP) Initialization"): a SIPI starts an AP in real mode at
 * the 4 KiB page its vector names, below 1 MiB. ap_trampoline is copied
 * there (arch/ap.c fills in its data block) and takes the AP through
 * protected mode into long mode on irqlab's page tables, then into
 * ap_main on a stack of its own. EBX holds the page's address
 * throughout, for the data block. */
#include "arch/ap.h"

	.section .text.irqlab.ap, "ax"
	.balign 16
	.globl ap_trampoline, ap_trampoline_end
	.code16
ap_trampoline:
	cli
	cld
	movw %cs, %ax
	movw %ax, %ds
	xorl %ebx, %ebx
	movw %ax, %bx
	shll $4, %ebx		/* the page's linear address */
	lgdtl AP_GDTR
	movl %cr0, %eax
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
	movl %cr0, %eax
	orl $0x80000001, %eax	/* PG, PE */
	movl %eax, %cr0
	ljmpl *AP_FAR64(%ebx)	/* compatibility mode to 64-bit code */

	.code64
ap_long:
	movq AP_STACK(%rbx), %rsp
	movq AP_ENTRY(%rbx), %rax
	movq AP_SLOT(%rbx), %rdi
	xorl %ebp, %ebp
	call *%rax		/* ap_main(slot), which never returns */
1:	cli
	hlt
	jmp 1b

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
