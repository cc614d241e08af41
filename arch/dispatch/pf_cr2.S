/* Scheme "pf-cr2" (seed 001; Kivity's zero-byte stubs): each gate points
 * at PF_GATE_BASE + vector, inside a page irqlab's page tables leave
 * not-present. Fetching there raises #PF on the same stack, right on top
 * of the interrupt's frame; the #PF entry reads the vector from the
 * faulting RIP's low byte (the base is 256-aligned), drops the #PF frame
 * and continues as any other scheme. Every interrupt pays a second event
 * delivery and a page walk: not-present entries are never cached in the
 * TLB (SDM vol. 3 §4.10.4). The #PF gate has no IST: a nested #PF would
 * overwrite it (docs/long-mode.md). */
#include "arch/exceptions.h"
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

.macro SCHEME_BODY id, timed
	GATE_TABLE \id\()_gates
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
	GATE_TABLE_ENTRY (PF_GATE_BASE + vector)
	vector = vector + 1
	.endr

	SCHEME_CODE \id, 16
	.globl \id\()_pf_entry
\id\()_pf_entry:
	/* #PF frame: error, RIP, CS, RFLAGS, RSP, SS */
	cmpq $PF_GATE_BASE, 8(%rsp)	/* RIP inside the gate page? */
	jb 1f				/* unsigned: below it is a real #PF */
	pushq %rax
	pushq %rcx			/* rcx, rax, error, RIP, CS, RFLAGS, RSP, SS */
	movzbl 24(%rsp), %eax		/* vector: low byte of the gate offset */
	movq 48(%rsp), %rcx		/* the interrupt's own frame */
	UNWIND_TO_INTERRUPT_FRAME
	SAVE_GPRS
	DISPATCH_TAIL \timed
1:	jmp exception_stubs + VECTOR_PF * EXCEPTION_STUB_STRIDE
	SCHEME_CODE_END \id
.endm

	SCHEME_EACH_KIND SCHEME_BODY, pf_cr2

	.section .note.GNU-stack, "", @progbits
