/* Primitive micro-benchmarks: each times PRIMITIVE_REPS back-to-back
 * copies of one instruction sequence between fenced TSC reads, the way
 * seed 000 timed TEST1/2/3, and returns the ticks for the whole block.
 * uint64_t prim_<name>(void) */
#include "arch/desc.h"
#include "arch/primitives.h"
#include "arch/timing.h"

.macro PRIMITIVE name
	.text
	.balign 16
	.globl prim_\name
prim_\name:
.endm

/* seed 000 TEST1: push a constant. */
PRIMITIVE push_imm
	TSC_OPEN_TO %r8
	.rept PRIMITIVE_REPS
	pushq $-255
	.endr
	TSC_CLOSE
	addq $8 * PRIMITIVE_REPS, %rsp
	subq %r8, %rax
	ret

/* seed 000 TEST2 in long mode: push %cs is #UD, so mov %cs then push. */
PRIMITIVE cs_push
	TSC_OPEN_TO %r8
	.rept PRIMITIVE_REPS
	movl %cs, %eax
	pushq %rax
	.endr
	TSC_CLOSE
	addq $8 * PRIMITIVE_REPS, %rsp
	subq %r8, %rax
	ret

/* seed 000 TEST3 in long mode: van Heukelum's derive-the-vector-from-CS
 * sequence, with 64-bit pushes. */
PRIMITIVE cs_vector
	TSC_OPEN_TO %r8
	.rept PRIMITIVE_REPS
	pushq %rax
	pushq %rax
	movl %cs, %eax
	shrl $3, %eax
	andl $0xff, %eax
	notl %eax
	movl %eax, 8(%rsp)
	popq %rax
	.endr
	TSC_CLOSE
	addq $8 * PRIMITIVE_REPS, %rsp
	subq %r8, %rax
	ret

/* seed 002: FreeBSD's 32-bit form, no operand-size prefix. */
PRIMITIVE ds_mov32
	TSC_OPEN_TO %r8
	DS_MOV32_BLOCK
	TSC_CLOSE
	subq %r8, %rax
	ret

/* seed 002: the 16-bit form; movw $imm16 carries a length-changing 66
 * prefix (docs/long-mode.md). */
PRIMITIVE ds_mov16
	TSC_OPEN_TO %r8
	DS_MOV16_BLOCK
	TSC_CLOSE
	subq %r8, %rax
	ret

/* seed 002: reload only when DS is not already the kernel's (it always
 * is here, so the branch is perfectly predicted). */
PRIMITIVE ds_conditional
	TSC_OPEN_TO %r8
	.rept PRIMITIVE_REPS
	movl %ds, %eax
	cmpl $SEL_KERNEL_DS, %eax
	je 1f
	movl $SEL_KERNEL_DS, %eax
	movl %eax, %ds
1:
	.endr
	TSC_CLOSE
	subq %r8, %rax
	ret

/* seed 003, i386-pda analogue: load a per-CPU selector into GS and back. */
PRIMITIVE gs_selector
	TSC_OPEN_TO %r8
	GS_SELECTOR_BLOCK
	TSC_CLOSE
	subq %r8, %rax
	ret

/* The 64-bit per-CPU base switch. An even count leaves GS as it was. */
PRIMITIVE swapgs
	TSC_OPEN_TO %r8
	.rept PRIMITIVE_REPS
	swapgs
	.endr
	TSC_CLOSE
	subq %r8, %rax
	ret

/* Needs CR4.FSGSBASE; writes the current base back. */
PRIMITIVE wrgsbase
	rdgsbase %rsi
	TSC_OPEN_TO %r8
	.rept PRIMITIVE_REPS
	wrgsbase %rsi
	.endr
	TSC_CLOSE
	subq %r8, %rax
	ret

/* The base through its MSR (GS_BASE, C000_0101), current value back. */
PRIMITIVE wrmsr_gsbase
	movl $MSR_GS_BASE, %ecx
	rdmsr
	movl %eax, %r9d
	movl %edx, %r10d
	TSC_OPEN_TO %r8
	.rept PRIMITIVE_REPS
	movl %r9d, %eax
	movl %r10d, %edx
	movl $MSR_GS_BASE, %ecx
	wrmsr
	.endr
	TSC_CLOSE
	subq %r8, %rax
	ret

/* LKGS (FRED's companion, seed 003's question again): loads a selector
 * into GS and its descriptor's base into IA32_KERNEL_GS_BASE, the base
 * swapgs would bring in, leaving GS.base alone: the selector reload
 * without the swapgs around it. Bytes F2 0F 00 F6 (lkgs %si: rdtsc
 * takes %eax), for assemblers that predate it. KERNEL_GS_BASE and GS are
 * put back after. */
PRIMITIVE lkgs
	movl $MSR_KERNEL_GS_BASE, %ecx
	rdmsr
	movl %eax, %r9d
	movl %edx, %r10d
	movl $SEL_PERCPU, %esi
	TSC_OPEN_TO %r8
	.rept PRIMITIVE_REPS
	.byte 0xf2, 0x0f, 0x00, 0xf6
	.endr
	TSC_CLOSE
	subq %r8, %rax
	movq %rax, %r11
	movl %r9d, %eax
	movl %r10d, %edx
	movl $MSR_KERNEL_GS_BASE, %ecx
	wrmsr
	movl $SEL_KERNEL_DS, %eax
	movl %eax, %gs
	movq %r11, %rax
	ret

/* IRETQ to the next instruction; the five-slot frame is built each time
 * (six instructions), as an interrupt return would find it built. */
PRIMITIVE iretq_self
	TSC_OPEN_TO %r8
	.rept PRIMITIVE_REPS
	movq %rsp, %rax
	pushq $SEL_KERNEL_DS		/* SS */
	pushq %rax			/* RSP */
	pushfq				/* RFLAGS */
	pushq $SEL_KERNEL_CS		/* CS */
	leaq 1f(%rip), %rax
	pushq %rax			/* RIP */
	iretq
1:
	.endr
	TSC_CLOSE
	subq %r8, %rax
	ret

	.section .note.GNU-stack, "", @progbits
