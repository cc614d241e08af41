/* Scheme "push-jmp" (seeds 000, 001; Linux's irq_entries_start): each
 * vector's stub pushes its vector as a sign-extended imm8 into the
 * error-code slot and jumps to one common entry. 6A ib + E9 rel32 is 7
 * bytes, padded to PUSH_JMP_STRIDE. */
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

.macro SCHEME_BODY id, timed
	GATE_TABLE \id\()_gates
	SCHEME_CODE \id, PUSH_JMP_STRIDE
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	.byte 0x6a, vector	/* push imm8 into FRAME_ERROR: always 2 bytes,
				 * sign-extended for vectors >= 128 */
	jmp \id\()_common
	.org 0b + PUSH_JMP_STRIDE, 0xcc
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr

\id\()_common:
	subq $8, %rsp			/* FRAME_VECTOR */
	SAVE_GPRS
	VECTOR_FROM_PUSHED_BYTE		/* undo the push's sign extension */
	DISPATCH_TAIL \timed
	SCHEME_CODE_END \id
.endm

	SCHEME_EACH_KIND SCHEME_BODY, push_jmp

	.section .note.GNU-stack, "", @progbits
