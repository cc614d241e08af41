/* Scheme "push-jmp-ibt": modern Linux with IBT puts ENDBR64 first and
 * aligns each stub to 16 (arch/x86/include/asm/idtentry.h, IDT_ALIGN).
 * ENDBR64 is a NOP where CET is off, so this prices the larger stride and
 * the extra instruction. */
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

.macro SCHEME_BODY id, timed
	GATE_TABLE \id\()_gates
	SCHEME_CODE \id, PUSH_JMP_IBT_STRIDE
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	endbr64
	.byte 0x6a, vector	/* push imm8 into FRAME_ERROR */
	jmp \id\()_common
	.org 0b + PUSH_JMP_IBT_STRIDE, 0xcc
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr

\id\()_common:
	endbr64
	subq $8, %rsp			/* FRAME_VECTOR */
	SAVE_GPRS
	VECTOR_FROM_PUSHED_BYTE		/* undo the push's sign extension */
	DISPATCH_TAIL \timed
	SCHEME_CODE_END \id
.endm

	SCHEME_EACH_KIND SCHEME_BODY, push_jmp_ibt

	.section .note.GNU-stack, "", @progbits
