/* The mitigation sequences that are functions rather than inline code,
 * and the data every sequence reads (arch/mitigations.h). */
#include "arch/desc.h"
#include "arch/mitigations.h"

/* Linux's clear_bhb_loop (arch/x86/entry/entry_64.S, 6.9 and later):
 * it fills the branch history with \outer x \inner taken branches of its
 * own, so no history the interrupted code left can steer an indirect
 * branch of the kernel. Each outer round calls into a 64-byte aligned
 * block, without returning, and runs \inner short jumps there; the
 * calls unwind at the end, and an LFENCE stops the last branches from
 * running ahead. Linux runs it with 5 x 5; 12 x 7 is the longer form
 * proposed for CPUs with a deeper history (docs/mitigations.md).
 * Clobbers RAX and RCX. */
.macro BHB_CLEAR_LOOP name, outer, inner
	.text
	.balign 64
	.globl \name
\name:
	pushq %rbp
	movq %rsp, %rbp
	movl $\outer, %ecx
	call .Lround_\name
	jmp .Ldone_\name
	.balign 64, 0xcc
.Lround_\name:
	call .Lhistory_\name
	ret
	.balign 64, 0xcc
.Lhistory_\name:
	movl $\inner, %eax
.Ljump_\name:
	jmp .Llanded_\name
	nop
.Llanded_\name:
	subl $1, %eax
	jnz .Ljump_\name
	subl $1, %ecx
	jnz .Lround_\name
	ret
.Ldone_\name:
	lfence
	popq %rbp
	ret
.endm

	BHB_CLEAR_LOOP bhb_clear_5x5, 5, 5
	BHB_CLEAR_LOOP bhb_clear_12x7, 12, 7

	.data
	.balign 8
	.globl spec_ctrl_kernel, spec_ctrl_user, mitigation_verw_selector
/* SPEC_CTRL with IBRS set, and as it was: mitigations_prepare_ibrs. */
spec_ctrl_kernel:
	.quad 0
spec_ctrl_user:
	.quad 0
/* Linux's mds_verw_sel: the kernel's data selector. */
mitigation_verw_selector:
	.word SEL_KERNEL_DS

	.bss
	.balign 4096
	.globl working_set
working_set:
	.skip WORKING_SET_PAGES * 4096

	.section .note.GNU-stack, "", @progbits
