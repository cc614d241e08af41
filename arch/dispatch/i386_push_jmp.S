/* Scheme "i386-push-jmp" (seeds 000, 001): Linux's i386 irq_entries_start
 * of 2008, one trampoline per vector, pushl $~vector then jmp to
 * common_interrupt. ~vector fits a sign-extended imm8 below vector 128,
 * so a stub is 7 bytes (6A ib, E9 rel32) there and 10 (68 id, E9 rel32)
 * above; each starts on Linux's i386 ALIGN of 4 bytes. The jump is
 * rel32 throughout, as Linux's was for all but its last few stubs. */
#include "arch/dispatch/i386.h"

.macro SCHEME_BODY id, timed
	I386_CODE \id
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
	.balign 4
0:	pushl $~vector		/* FRAME32_VECTOR */
	.byte 0xe9		/* jmp rel32 */
	.long \id\()_common - (. + 4)
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr

\id\()_common:
	SAVE_GPRS32
	notl FRAME32_VECTOR(%esp)	/* do_IRQ's ~regs->orig_eax */
	DISPATCH32_TAIL \id\()_dispatch, \timed
	I386_CODE_END \id
.endm

	SCHEME32_EACH_KIND SCHEME_BODY, i386_push_jmp

	.section .note.GNU-stack, "", @progbits
