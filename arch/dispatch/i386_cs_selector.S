/* Schemes "i386-cs-selector" and "i386-cs-selector-push-cs" (seeds 000,
 * 001; van Heukelum): no stubs. Every gate points at one entry but names
 * its own code selector, vector * 8, whose descriptor is flat 32-bit code
 * like PM_SEL_CODE (arch/protected.c); IRET reloads the interrupted CS.
 *
 * The first is the patch as seed 000's TEST3 timed it: eight
 * instructions derive ~vector from %cs into the slot push-jmp's stubs
 * fill, and push-jmp's common code follows. The second is what van
 * Heukelum suggested after: just push %cs, and take the vector from the
 * pushed selector. A 32-bit push of a segment register may write only
 * the low 16 bits of its slot (SDM vol. 2B, PUSH), so only those are
 * read. */
#include "arch/primitives.h"
#include "arch/dispatch/i386.h"

.macro CS_TEST3_BODY id, timed
	I386_CODE \id
	.rept IRQ_VECTORS
	GATE_TABLE_ENTRY \id\()_entry
	.endr
\id\()_entry:
	CS_VECTOR_I386		/* FRAME32_VECTOR holds ~vector */
	SAVE_GPRS32
	notl FRAME32_VECTOR(%esp)
	DISPATCH32_TAIL \id\()_dispatch, \timed
	I386_CODE_END \id
.endm

	SCHEME32_EACH_KIND CS_TEST3_BODY, i386_cs_selector

.macro CS_PUSH_BODY id, timed
	I386_CODE \id
	.rept IRQ_VECTORS
	GATE_TABLE_ENTRY \id\()_entry
	.endr
\id\()_entry:
	push %cs		/* FRAME32_VECTOR: the selector, vector * 8 */
	SAVE_GPRS32
	movzwl FRAME32_VECTOR(%esp), %eax
	shrl $3, %eax
	movl %eax, FRAME32_VECTOR(%esp)
	DISPATCH32_TAIL \id\()_dispatch, \timed
	I386_CODE_END \id
.endm

	SCHEME32_EACH_KIND CS_PUSH_BODY, i386_cs_push

	.section .note.GNU-stack, "", @progbits
