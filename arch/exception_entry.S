/* Entry stubs for the 32 architectural exceptions, generated with .rept so
 * neither C nor this file lists them by hand. Each stub is exactly
 * EXCEPTION_STUB_STRIDE bytes (the .org below makes an overgrown stub a
 * build error), so gate n points at exception_stubs + n * stride. */
#include "arch/frame.h"
#include "arch/exceptions.h"
#include "arch/vectors.h"

	.section .text.irqlab.exceptions, "ax"
	.balign EXCEPTION_STUB_STRIDE
	.globl exception_stubs
exception_stubs:
	vector = 0
	.rept EXCEPTION_VECTORS
0:
	/* Vectors whose delivery pushes no error code get a 0, so every
	 * frame has the same layout (SDM vol. 3 §6.13, Table 6-1). */
	.if !VECTOR_HAS_ERROR_CODE(vector)
	pushq $0		/* FRAME_ERROR */
	.endif
	pushq $vector		/* FRAME_VECTOR */
	jmp exception_common
	.org 0b + EXCEPTION_STUB_STRIDE, 0xcc
	vector = vector + 1
	.endr

exception_common:
	SAVE_GPRS
	movq %rsp, %rdi		/* struct irq_frame * */
	cld
	call exception_dispatch
	IDT_RETURN

	.section .note.GNU-stack, "", @progbits
