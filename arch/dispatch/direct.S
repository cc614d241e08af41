/* Scheme "direct": a dedicated handler per vector. The vector is an
 * immediate, so nothing is decoded; every other scheme is measured
 * against this lower bound. One handler per vector from FIRST_IRQ_VECTOR,
 * each DIRECT_STRIDE bytes (the .org makes an overgrown one a build
 * error), so the gate for vector n is direct_handlers + (n - 32) * stride. */
#include "../frame.h"
#include "irq.h"
#include "schemes.h"

	.section .text.irqlab.scheme.direct, "ax"
	.balign DIRECT_STRIDE
	.globl direct_handlers, direct_handlers_end
direct_handlers:
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	pushq $0		/* FRAME_ERROR: external vectors have none */
	pushq $vector		/* FRAME_VECTOR: a constant here */
	SAVE_GPRS
	TIMESTAMP_ENTRY
	movq %rsp, %rdi		/* struct irq_frame * */
	cld			/* the SysV ABI wants DF clear in C */
	call irq_dispatch
	TIMESTAMP_EXIT
	RESTORE_GPRS_AND_DROP_SLOTS
	iretq
	.org 0b + DIRECT_STRIDE, 0xcc
	vector = vector + 1
	.endr
direct_handlers_end:

	.section .note.GNU-stack, "", @progbits
