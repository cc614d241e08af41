/* Scheme "compact" (seed 001; Linux 2.6.29, hpa, commit 939b787130bf):
 * seven stubs share each 32-byte chunk. A stub pushes ~vector + 0x80,
 * which always fits a signed byte, then takes a short jump to the chunk's
 * one long jump to the common entry (the seventh stub falls through to
 * it): 6 * 4 + 2 + 5 = 31 bytes per 7 vectors. */
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

.macro SCHEME_BODY id, timed
	GATE_TABLE \id\()_gates
	SCHEME_CODE \id, COMPACT_CHUNK
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS / COMPACT_PER_CHUNK
2:
	.rept COMPACT_PER_CHUNK
0:	pushq $(~vector + 0x80)		/* FRAME_ERROR, as an imm8 */
	.if ((vector - FIRST_IRQ_VECTOR) % COMPACT_PER_CHUNK) != COMPACT_PER_CHUNK - 1
	jmp 1f
	.endif
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr
1:	jmp \id\()_common
	.org 2b + COMPACT_CHUNK, 0xcc
	.endr

\id\()_common:
	addq $-0x80, (%rsp)		/* now ~vector, as in the seed */
	subq $8, %rsp			/* FRAME_VECTOR */
	SAVE_GPRS
	movq FRAME_ERROR(%rsp), %rax
	notq %rax
	movzbl %al, %eax
	movq %rax, FRAME_VECTOR(%rsp)
	DISPATCH_TAIL \timed
	SCHEME_CODE_END \id
.endm

	SCHEME_EACH_KIND SCHEME_BODY, compact

	.section .note.GNU-stack, "", @progbits
