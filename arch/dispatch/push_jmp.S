/* Scheme "push-jmp" (seeds 000, 001; Linux's irq_entries_start): each
 * vector's stub pushes its vector as a sign-extended imm8 into the
 * error-code slot and jumps to one common entry. 6A ib + E9 rel32 is 7
 * bytes, padded to PUSH_JMP_STRIDE. */
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

	GATE_TABLE push_jmp_gates
	.section .text.irqlab.scheme.push_jmp, "ax"
	.balign PUSH_JMP_STRIDE
	.globl push_jmp_code, push_jmp_code_end
push_jmp_code:
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	.byte 0x6a, vector	/* push imm8 into FRAME_ERROR: always 2 bytes,
				 * sign-extended for vectors >= 128 */
	jmp push_jmp_common
	.org 0b + PUSH_JMP_STRIDE, 0xcc
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr

push_jmp_common:
	subq $8, %rsp			/* FRAME_VECTOR */
	SAVE_GPRS
	VECTOR_FROM_PUSHED_BYTE		/* undo the push's sign extension */
	DISPATCH_TAIL
push_jmp_code_end:

	.section .note.GNU-stack, "", @progbits
