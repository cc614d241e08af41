/* Scheme "push-jmp-ibt": modern Linux with IBT puts ENDBR64 first and
 * aligns each stub to 16 (arch/x86/include/asm/idtentry.h, IDT_ALIGN).
 * ENDBR64 is a NOP where CET is off, so this prices the larger stride and
 * the extra instruction. */
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

	GATE_TABLE push_jmp_ibt_gates
	.section .text.irqlab.scheme.push_jmp_ibt, "ax"
	.balign PUSH_JMP_IBT_STRIDE
	.globl push_jmp_ibt_code, push_jmp_ibt_code_end
push_jmp_ibt_code:
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	endbr64
	.byte 0x6a, vector	/* push imm8 into FRAME_ERROR */
	jmp push_jmp_ibt_common
	.org 0b + PUSH_JMP_IBT_STRIDE, 0xcc
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr

push_jmp_ibt_common:
	endbr64
	subq $8, %rsp			/* FRAME_VECTOR */
	SAVE_GPRS
	VECTOR_FROM_PUSHED_BYTE		/* undo the push's sign extension */
	DISPATCH_TAIL
push_jmp_ibt_code_end:

	.section .note.GNU-stack, "", @progbits
