/* Scheme "cs-selector" (seeds 000, 001; van Heukelum): no stubs at all.
 * Every gate points at the same entry but names its own code selector,
 * whose GDT index is the vector; the entry reads it back from CS.
 * push %cs is #UD in long mode, so the vector is read with mov %cs
 * (docs/long-mode.md). IRETQ reloads the interrupted CS from the frame. */
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

.macro SCHEME_BODY id, timed
	GATE_TABLE \id\()_gates
	.rept IRQ_VECTORS
	GATE_TABLE_ENTRY \id\()_entry
	.endr

	SCHEME_CODE \id, 16
\id\()_entry:
	pushq $0			/* FRAME_ERROR */
	subq $8, %rsp			/* FRAME_VECTOR */
	SAVE_GPRS
	movl %cs, %eax			/* selector = vector * 8, RPL 0 */
	shrl $3, %eax
	movq %rax, FRAME_VECTOR(%rsp)
	DISPATCH_TAIL \timed
	SCHEME_CODE_END \id
.endm

	SCHEME_EACH_KIND SCHEME_BODY, cs_selector

	.section .note.GNU-stack, "", @progbits
