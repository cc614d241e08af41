/* Scheme "direct": a dedicated handler per vector. The vector is an
 * immediate, so nothing is decoded; every other scheme is measured
 * against this lower bound. One full handler per vector from
 * FIRST_IRQ_VECTOR, DIRECT_STRIDE bytes each (HANDLER_PER_VECTOR). */
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

.macro DIRECT_HANDLER vector, timed
	pushq $0		/* FRAME_ERROR: external vectors have none */
	pushq $\vector		/* FRAME_VECTOR: a constant here */
	SAVE_GPRS
	DISPATCH_TAIL \timed
.endm

.macro SCHEME_BODY id, timed
	HANDLER_PER_VECTOR \id, \timed, DIRECT_STRIDE, DIRECT_HANDLER
.endm

	SCHEME_EACH_KIND SCHEME_BODY, direct

	.section .note.GNU-stack, "", @progbits
