/* Scheme "direct": a dedicated handler per vector. The vector is an
 * immediate, so nothing is decoded; every other scheme is measured
 * against this lower bound. One full handler per vector from
 * FIRST_IRQ_VECTOR, DIRECT_STRIDE bytes each (the .org makes an overgrown
 * one a build error). */
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

.macro SCHEME_BODY id, timed
	GATE_TABLE \id\()_gates
	SCHEME_CODE \id, DIRECT_STRIDE
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	pushq $0		/* FRAME_ERROR: external vectors have none */
	pushq $vector		/* FRAME_VECTOR: a constant here */
	SAVE_GPRS
	DISPATCH_TAIL \timed
	.org 0b + DIRECT_STRIDE, 0xcc
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr
	SCHEME_CODE_END \id
.endm

	SCHEME_EACH_KIND SCHEME_BODY, direct

	.section .note.GNU-stack, "", @progbits
