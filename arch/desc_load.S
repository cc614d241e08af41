/* void segments_reload(uint16_t code_sel, uint16_t data_sel)
 * CS is reloaded with lretq, not a far jmp: docs/long-mode.md, Intel and AMD differ
 * on REX.W for far jumps. Loading a data selector into FS and GS also
 * zeroes their bases, which irqlab does not use. */
	.text
	.globl segments_reload
segments_reload:
	movzwl %di, %edi
	pushq %rdi		/* CS for lretq */
	leaq 1f(%rip), %rax
	pushq %rax		/* RIP for lretq */
	lretq
1:	movl %esi, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	movl %eax, %fs
	movl %eax, %gs
	ret

	.section .note.GNU-stack, "", @progbits
