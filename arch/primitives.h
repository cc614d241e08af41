/* Primitive micro-benchmarks (seed 000 TEST1/2/3, seeds 002 and 003), as
 * rows of one table. */
#ifndef IRQLAB_ARCH_PRIMITIVES_H
#define IRQLAB_ARCH_PRIMITIVES_H

#define PRIMITIVE_REPS 1024	/* per timed block, as in seed 000 */
/* The segment bases (SDM vol. 4, MSRs C000_0100H-C000_0102H). */
#define MSR_FS_BASE 0xc0000100
#define MSR_GS_BASE 0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102

#ifdef __ASSEMBLER__

#include "arch/desc.h"

/* Blocks timed twice over: as 64-bit code (primitives.S) and, the same
 * text assembled as i386 code, in compatibility mode (compat.S). */

/* seed 002: FreeBSD's reload, no operand-size prefix. */
.macro DS_MOV32_BLOCK
	.rept PRIMITIVE_REPS
	movl $SEL_KERNEL_DS, %eax
	movl %eax, %ds
	.endr
.endm

/* seed 002: the 16-bit form, whose movw $imm16 carries a length-changing
 * 66 prefix (docs/long-mode.md). */
.macro DS_MOV16_BLOCK
	.rept PRIMITIVE_REPS
	movw $SEL_KERNEL_DS, %ax
	movw %ax, %ds
	.endr
.endm

/* seed 003: the i386 PDA's %gs reload; an even count leaves GS as it
 * was. */
.macro GS_SELECTOR_BLOCK
	.rept PRIMITIVE_REPS / 2
	movl $SEL_PERCPU, %eax
	movl %eax, %gs
	movl $SEL_KERNEL_DS, %eax
	movl %eax, %gs
	.endr
.endm

/* seed 000's TEST3, as the thread wrote it for i386: ~vector derived
 * from %cs into the slot the push reserves (8 instructions, 4 bytes of
 * stack left). Timed in compatibility mode (compat.S), and the entry of
 * the i386-cs-selector scheme (arch/dispatch/i386_cs_selector.S). */
.macro CS_VECTOR_I386
	push %eax
	push %eax
	mov %cs, %eax
	shr $3, %eax
	and $0xff, %eax
	not %eax
	mov %eax, 4(%esp)
	pop %eax
.endm

#else

#include <stddef.h>
#include <stdint.h>

struct primitive {
	const char *name;	/* PRIMITIVE_LIST (arch/matrix.h) */
	const char *(*unsupported)(void);	/* NULL: always runs */
	uint64_t (*block)(void);		/* NULL: never runs here */
	/* The same block with the counted instrument (docs/timing.md "Core
	 * cycles"); NULL where it has none (the i386 blocks, timed in
	 * compatibility mode). */
	uint64_t (*counted)(void);
};

extern const struct primitive primitives[];
extern const size_t primitive_count;

/* Turns on CR4.FSGSBASE where CPUID offers it; returns whether it is on. */
int primitives_enable_fsgsbase(void);

#endif
#endif
