/* Scheme "int3-byte" (seed 001, hpa's "CC xx"): each stub is INT3
 * followed by the vector as a data byte, 2 bytes a vector. #BP is a trap,
 * so its saved RIP points at that byte. The #BP frame sits on top of the
 * interrupt's frame, possibly after an 8-byte alignment gap, so the
 * interrupt frame is found through the #BP frame's saved RSP (docs/long-mode.md). */
#include "arch/exceptions.h"
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

.macro SCHEME_BODY id, timed
	GATE_TABLE \id\()_gates
	SCHEME_CODE \id, 16
	.globl \id\()_bp_entry
\id\()_stubs:
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	int3
	.byte vector			/* never executed: read by the #BP entry */
	.org 0b + INT3_BYTE_STRIDE, 0xcc
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr
\id\()_stubs_end:

	.balign 16
\id\()_bp_entry:
	/* #BP frame: RIP, CS, RFLAGS, RSP, SS */
	pushq %rax
	pushq %rcx			/* rcx, rax, RIP, CS, RFLAGS, RSP, SS */
	movq 16(%rsp), %rax		/* the byte after some INT3 */
	leaq \id\()_stubs + 1(%rip), %rcx
	cmpq %rcx, %rax
	jb 1f
	leaq \id\()_stubs_end(%rip), %rcx
	cmpq %rcx, %rax
	jae 1f				/* a #BP from anywhere else */
	movzbl (%rax), %eax		/* the vector byte */
	movq 40(%rsp), %rcx		/* the interrupt's own frame */
	UNWIND_TO_INTERRUPT_FRAME
	SAVE_GPRS
	DISPATCH_TAIL \timed
1:	popq %rcx
	popq %rax
	jmp exception_stubs + VECTOR_BP * EXCEPTION_STUB_STRIDE
	SCHEME_CODE_END \id
.endm

	SCHEME_EACH_KIND SCHEME_BODY, int3_byte

	.section .note.GNU-stack, "", @progbits
