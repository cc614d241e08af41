/* Primitive micro-benchmarks: each times PRIMITIVE_REPS back-to-back
 * copies of one instruction sequence between fenced TSC reads, the way
 * seed 000 timed TEST1/2/3, and returns the ticks for the whole block.
 * uint64_t prim_<name>(void) */
#include "arch/desc.h"
#include "arch/mitigations.h"
#include "arch/primitives.h"
#include "arch/timing.h"

/* Each primitive is a body macro taking \clock, assembled once per
 * instrument (arch/timing.h): prim_<name> reads the TSC, and
 * prim_<name>_counted the counter the counted pass selects
 * (docs/timing.md "Core cycles"). The counted reads clobber RCX, which
 * every body that needs ECX loads again after the opening read. */
.macro PRIMITIVE name, body
	.text
	.balign 16
	.globl prim_\name, prim_\name\()_counted
prim_\name:
	\body tsc
	.balign 16
prim_\name\()_counted:
	\body pmc
.endm

/* A block of PRIMITIVE_REPS copies of the sequence macro \seq, which
 * leaves R8 alone. */
.macro BODY_REPEAT clock, seq
	CLOCK_OPEN_TO %r8, \clock
	.rept PRIMITIVE_REPS
	\seq
	.endr
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm

/* A primitive that is such a block, once per instrument. */
.macro PRIMITIVE_REPEATING name, seq
	.macro BODY_\name clock
	BODY_REPEAT \clock, \seq
	.endm
	PRIMITIVE \name, BODY_\name
.endm

/* seed 000 TEST1: push a constant. */
.macro BODY_PUSH_IMM clock
	CLOCK_OPEN_TO %r8, \clock
	.rept PRIMITIVE_REPS
	pushq $-255
	.endr
	CLOCK_CLOSE \clock
	addq $8 * PRIMITIVE_REPS, %rsp
	subq %r8, %rax
	ret
.endm
	PRIMITIVE push_imm, BODY_PUSH_IMM

/* seed 000 TEST2 in long mode: push %cs is #UD, so mov %cs then push. */
.macro BODY_CS_PUSH clock
	CLOCK_OPEN_TO %r8, \clock
	.rept PRIMITIVE_REPS
	movl %cs, %eax
	pushq %rax
	.endr
	CLOCK_CLOSE \clock
	addq $8 * PRIMITIVE_REPS, %rsp
	subq %r8, %rax
	ret
.endm
	PRIMITIVE cs_push, BODY_CS_PUSH

/* seed 000 TEST3 in long mode: van Heukelum's derive-the-vector-from-CS
 * sequence, with 64-bit pushes. */
.macro BODY_CS_VECTOR clock
	CLOCK_OPEN_TO %r8, \clock
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
	CLOCK_CLOSE \clock
	addq $8 * PRIMITIVE_REPS, %rsp
	subq %r8, %rax
	ret
.endm
	PRIMITIVE cs_vector, BODY_CS_VECTOR

/* seed 002: FreeBSD's 32-bit form, no operand-size prefix. */
.macro BODY_DS_MOV32 clock
	CLOCK_OPEN_TO %r8, \clock
	DS_MOV32_BLOCK
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm
	PRIMITIVE ds_mov32, BODY_DS_MOV32

/* seed 002: the 16-bit form; movw $imm16 carries a length-changing 66
 * prefix (docs/long-mode.md). */
.macro BODY_DS_MOV16 clock
	CLOCK_OPEN_TO %r8, \clock
	DS_MOV16_BLOCK
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm
	PRIMITIVE ds_mov16, BODY_DS_MOV16

/* seed 002: reload only when DS is not already the kernel's (it always
 * is here, so the branch is perfectly predicted). */
.macro BODY_DS_CONDITIONAL clock
	CLOCK_OPEN_TO %r8, \clock
	.rept PRIMITIVE_REPS
	movl %ds, %eax
	cmpl $SEL_KERNEL_DS, %eax
	je 1f
	movl $SEL_KERNEL_DS, %eax
	movl %eax, %ds
1:
	.endr
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm
	PRIMITIVE ds_conditional, BODY_DS_CONDITIONAL

/* seed 003, i386-pda analogue: load a per-CPU selector into GS and back. */
.macro BODY_GS_SELECTOR clock
	CLOCK_OPEN_TO %r8, \clock
	GS_SELECTOR_BLOCK
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm
	PRIMITIVE gs_selector, BODY_GS_SELECTOR

/* The 64-bit per-CPU base switch. An even count leaves GS as it was. */
.macro BODY_SWAPGS clock
	CLOCK_OPEN_TO %r8, \clock
	.rept PRIMITIVE_REPS
	swapgs
	.endr
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm
	PRIMITIVE swapgs, BODY_SWAPGS

/* Needs CR4.FSGSBASE; writes the current base back. */
.macro BODY_WRGSBASE clock
	rdgsbase %rsi
	CLOCK_OPEN_TO %r8, \clock
	.rept PRIMITIVE_REPS
	wrgsbase %rsi
	.endr
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm
	PRIMITIVE wrgsbase, BODY_WRGSBASE

/* The base through its MSR (GS_BASE, C000_0101), current value back. */
.macro BODY_WRMSR_GSBASE clock
	movl $MSR_GS_BASE, %ecx
	rdmsr
	movl %eax, %r9d
	movl %edx, %r10d
	CLOCK_OPEN_TO %r8, \clock
	.rept PRIMITIVE_REPS
	movl %r9d, %eax
	movl %r10d, %edx
	movl $MSR_GS_BASE, %ecx
	wrmsr
	.endr
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm
	PRIMITIVE wrmsr_gsbase, BODY_WRMSR_GSBASE

/* LKGS (FRED's companion, seed 003's question again): loads a selector
 * into GS and its descriptor's base into IA32_KERNEL_GS_BASE, the base
 * swapgs would bring in, leaving GS.base alone: the selector reload
 * without the swapgs around it. Bytes F2 0F 00 F6 (lkgs %si: rdtsc
 * takes %eax), for assemblers that predate it. KERNEL_GS_BASE and GS are
 * put back after. */
.macro BODY_LKGS clock
	movl $MSR_KERNEL_GS_BASE, %ecx
	rdmsr
	movl %eax, %r9d
	movl %edx, %r10d
	movl $SEL_PERCPU, %esi
	CLOCK_OPEN_TO %r8, \clock
	.rept PRIMITIVE_REPS
	.byte 0xf2, 0x0f, 0x00, 0xf6
	.endr
	CLOCK_CLOSE \clock
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
.endm
	PRIMITIVE lkgs, BODY_LKGS

/* IRETQ to the next instruction; the five-slot frame is built each time
 * (six instructions), as an interrupt return would find it built. */
.macro BODY_IRETQ_SELF clock
	CLOCK_OPEN_TO %r8, \clock
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
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm
	PRIMITIVE iretq_self, BODY_IRETQ_SELF

/* The mitigations' sequences (arch/mitigations.h), each alone, so the
 * instruction's own cost is apart from what it does to the code after
 * it (the entry variants time both). */

/* A CR3 write of the live table: without PCID every write flushes the
 * TLB's non-global entries; with \noflush, CR4.PCIDE on (primitives.c
 * sets it up around the block) and bit 63 set, none does. */
.macro CR3_WRITES clock, noflush
	movq %cr3, %rsi
	.if \noflush
	btsq $CR3_NOFLUSH_BIT, %rsi
	.endif
	CLOCK_OPEN_TO %r8, \clock
	.rept PRIMITIVE_REPS
	movq %rsi, %cr3
	.endr
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm
.macro BODY_MOV_CR3 clock
	CR3_WRITES \clock, 0
.endm
.macro BODY_MOV_CR3_NOFLUSH clock
	CR3_WRITES \clock, 1
.endm
	PRIMITIVE mov_cr3, BODY_MOV_CR3
	PRIMITIVE mov_cr3_noflush, BODY_MOV_CR3_NOFLUSH

/* IBRS set and cleared in turn, as entry and exit write it; the values
 * come from mitigations_prepare_ibrs. */
.macro BODY_WRMSR_SPEC_CTRL clock
	CLOCK_OPEN_TO %r8, \clock
	.rept PRIMITIVE_REPS / 2
	IBRS_ENTER
	IBRS_EXIT
	.endr
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm
	PRIMITIVE wrmsr_spec_ctrl, BODY_WRMSR_SPEC_CTRL

	PRIMITIVE_REPEATING wrmsr_pred_cmd, IBPB
	PRIMITIVE_REPEATING verw, VERW_CLEAR
/* One pass of each loop per copy; the fill's counter is EAX, which the
 * opening read leaves in R8. */
	PRIMITIVE_REPEATING bhb_clear_5x5, BHB_CLEAR_5X5
	PRIMITIVE_REPEATING bhb_clear_12x7, BHB_CLEAR_12X7
	PRIMITIVE_REPEATING rsb_fill, RSB_FILL

	.section .note.GNU-stack, "", @progbits
