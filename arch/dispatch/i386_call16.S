/* Schemes "i386-call16" and "i386-call16-3byte" (seed 001, hpa): each
 * vector's stub is a call with a 16-bit operand, 66 E8 rel16, which
 * pushes a 16-bit return IP and jumps to an IP that wraps at 64 KiB
 * (SDM vol. 2A, CALL). The return IP says which stub ran. Stubs and
 * common code lie in the first 64 KiB of a code segment based at the
 * scheme's first byte (PM_SEL_CALL16, arch/protected.c), so its gates
 * name that selector and offsets from there.
 *
 * The common code makes the 2 pushed bytes the top half of the frame's
 * vector slot (subl $2), then turns the return IP into the vector. */
#include "arch/dispatch/i386.h"

/* The 4-byte form: stub k at 4k returns to IP 4k + 4. */
.macro CALL16_BODY id, timed
	I386_CODE \id
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	.byte 0x66, 0xe8
	.word \id\()_common - (0b + I386_CALL16_STRIDE)
	.org 0b + I386_CALL16_STRIDE
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr

\id\()_common:
	subl $2, %esp			/* FRAME32_VECTOR, IP in its top half */
	SAVE_GPRS32
	movzwl FRAME32_VECTOR + 2(%esp), %eax
	shrl $2, %eax
	addl $FIRST_IRQ_VECTOR - 1, %eax
	movl %eax, FRAME32_VECTOR(%esp)
	DISPATCH32_TAIL \id\()_dispatch, \timed
	I386_CODE_END \id
.endm

	SCHEME32_EACH_KIND CALL16_BODY, i386_call16

/* The 3-byte form, as hpa wrote it: 66 e8 ff 66 e8 fc 66 e8 f9 ...
 * Stub k starts at 3k and returns to IP 3k + 4, so k = (IP - 4) / 3,
 * which (n * 0xAAAB) >> 17 computes exactly for any 16-bit n. Each run
 * of I386_CALL16_OVERLAP_RUN stubs has its own target (i386.h), and each
 * target its own copy of the common code, so every vector takes the same
 * path. */
.macro CALL16_OVERLAP_COMMON id, timed, run
	.org \id\()_code + I386_CALL16_OVERLAP_TARGET + \run * 3 * I386_CALL16_OVERLAP_RUN, 0xcc
	subl $2, %esp			/* FRAME32_VECTOR, IP in its top half */
	SAVE_GPRS32
	movzwl FRAME32_VECTOR + 2(%esp), %eax
	subl $4, %eax
	imull $0xaaab, %eax, %eax
	shrl $17, %eax
	addl $FIRST_IRQ_VECTOR, %eax
	movl %eax, FRAME32_VECTOR(%esp)
	DISPATCH32_TAIL \id\()_dispatch, \timed
.endm

.macro CALL16_OVERLAP_BODY id, timed
	I386_CODE \id
	k = 0
	.rept IRQ_VECTORS
0:	.byte 0x66, 0xe8, (0x66ff - 3 * (k % I386_CALL16_OVERLAP_RUN)) & 0xff
	GATE_TABLE_ENTRY 0b
	k = k + 1
	.endr
	.byte 0x66			/* the last stub's rel16 high byte */
	CALL16_OVERLAP_COMMON \id, \timed, 0
	CALL16_OVERLAP_COMMON \id, \timed, 1
	CALL16_OVERLAP_COMMON \id, \timed, 2
	I386_CODE_END \id
.endm

	SCHEME32_EACH_KIND CALL16_OVERLAP_BODY, i386_call16_3byte

	.section .note.GNU-stack, "", @progbits
