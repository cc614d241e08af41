/* Scheme "call" (seed 001, hpa's idea in its long-mode form): each stub
 * is a 5-byte CALL rel32 to the common entry, padded to CALL_STRIDE. The
 * return address lands in the error-code slot, and the stub it points
 * after gives the vector. The 16-bit "66 E8" stubs of the seed do not
 * exist in long mode (see the call16 row). A call that never returns may
 * leave the return-stack buffer out of step (docs/long-mode.md; unverified): that
 * is what this row measures. */
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

.macro SCHEME_BODY id, timed
	GATE_TABLE \id\()_gates
	SCHEME_CODE \id, CALL_STRIDE
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	call \id\()_common	/* pushes 0b + 5 into FRAME_ERROR */
	.org 0b + CALL_STRIDE, 0xcc
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr

\id\()_common:
	subq $8, %rsp			/* FRAME_VECTOR */
	SAVE_GPRS
	movq FRAME_ERROR(%rsp), %rax	/* return address: stub + 5 */
	leaq \id\()_code + 5(%rip), %rcx
	subq %rcx, %rax
	shrq $CALL_STRIDE_SHIFT, %rax
	addq $FIRST_IRQ_VECTOR, %rax
	movq %rax, FRAME_VECTOR(%rsp)
	DISPATCH_TAIL \timed
	SCHEME_CODE_END \id
.endm

	SCHEME_EACH_KIND SCHEME_BODY, call

	.section .note.GNU-stack, "", @progbits
