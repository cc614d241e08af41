/* The i386 primitives: seed 000's TEST1-3 exactly as the thread's
 * 32-bit program ran them, seed 002's DS loads and seed 003's %gs load,
 * each 1024 times between fenced TSC reads. They run in compatibility
 * mode: a 32-bit code segment (SEL_COMPAT_CS, L=0 D=1) under long mode
 * executes with i386 semantics, so push %cs (0E), #UD in 64-bit mode, is
 * the instruction the thread timed (docs/long-mode.md "Compatibility
 * mode"). Paging and the 64-bit IDT stay as they are; an exception
 * returns to 64-bit code through the guard as anywhere else.
 *
 * The 32-bit code holds no address of its own: a shared object's
 * relocations cannot reach a 32-bit absolute. 64-bit code passes the
 * timestamp slots in %ebx and the way back in %ebp, and the C side
 * (primitives.c) runs these only when the code, the slots and the stack
 * lie below 4 GiB, since EIP and ESP are 32 bits wide here.
 *
 * uint64_t prim32_<name>(void): ticks for the block. */
#include "arch/callee_saved.h"
#include "arch/desc.h"
#include "arch/primitives.h"
#include "arch/timing.h"

/* The upper halves of the registers are not kept across the switch
 * (SDM vol. 1 §3.4.1.1), so what 64-bit code needs back is saved in
 * memory: the callee-saved registers on the stack, RSP in a slot. */
.macro COMPAT_PRIMITIVE name, stack_bytes
	.text
	.balign 16
	.globl prim32_\name
prim32_\name:
	PUSH_CALLEE_SAVED
	movq %rsp, compat_saved_rsp(%rip)
	leaq compat_tsc(%rip), %rbx
	leaq 2f(%rip), %rbp
	pushq $SEL_COMPAT_CS
	leaq 1f(%rip), %rax
	pushq %rax
	lretq
	.code32
1:	TSC32_OPEN 0(%ebx), 4(%ebx)
	\name\()_body
	TSC32_CLOSE 8(%ebx), 12(%ebx)
	addl $\stack_bytes, %esp
	pushl $SEL_KERNEL_CS
	pushl %ebp
	lret
	.code64
2:	movq compat_saved_rsp(%rip), %rsp
	POP_CALLEE_SAVED
	movq compat_tsc + 8(%rip), %rax
	subq compat_tsc(%rip), %rax
	ret
.endm

/* seed 000 TEST1: push $-255 (68 imm32). */
.macro push_imm_body
	.rept PRIMITIVE_REPS
	push $-255
	.endr
.endm
	COMPAT_PRIMITIVE push_imm, (4*PRIMITIVE_REPS)

/* seed 000 TEST2, as written: push %cs. */
.macro push_cs_body
	.rept PRIMITIVE_REPS
	push %cs
	.endr
.endm
	COMPAT_PRIMITIVE push_cs, (4*PRIMITIVE_REPS)

/* seed 000 TEST3, as written: the vector from %cs, eight instructions. */
.macro cs_vector_body
	.rept PRIMITIVE_REPS
	CS_VECTOR_I386
	.endr
.endm
	COMPAT_PRIMITIVE cs_vector, (4*PRIMITIVE_REPS)

/* seed 002: FreeBSD's i386 entry reloads, 32-bit and 16-bit forms, and
 * seed 003: the i386 PDA's %gs reload; the same blocks as in long mode
 * (primitives.h). */
.macro ds_mov32_body
	DS_MOV32_BLOCK
.endm
	COMPAT_PRIMITIVE ds_mov32, 0

.macro ds_mov16_body
	DS_MOV16_BLOCK
.endm
	COMPAT_PRIMITIVE ds_mov16, 0

.macro gs_selector_body
	GS_SELECTOR_BLOCK
.endm
	COMPAT_PRIMITIVE gs_selector, 0

	.data
	.balign 16
	.globl compat_tsc
compat_tsc:
	.quad 0, 0		/* open, close */
compat_saved_rsp:
	.quad 0

	.section .note.GNU-stack, "", @progbits
