/* Scheme "i386-direct": a dedicated i386 handler per vector, the floor
 * the i386 rows are compared with, as direct is in long mode. And its
 * entry variants on VARIANT_VECTOR: FreeBSD's DS/ES reload (seed 002)
 * and the i386 PDA's %gs reload (seed 003), as i386 entry code did them:
 * save the interrupted selectors on entry, load the kernel's, put the
 * saved ones back on exit. */
#include "arch/dispatch/i386.h"

.macro SCHEME_BODY id, timed
	I386_CODE \id
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	pushl $vector		/* FRAME32_VECTOR: a constant here */
	SAVE_GPRS32
	DISPATCH32_TAIL \id\()_dispatch, \timed
	.org 0b + I386_DIRECT_STRIDE, 0xcc
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr
	I386_CODE_END \id
.endm

	SCHEME32_EACH_KIND SCHEME_BODY, i386_direct

/* seed 002: FreeBSD i386's entry, pushl %ds; pushl %es, then
 * movl $KDSEL,%eax; movl %eax,%ds; movl %eax,%es. */
.macro DS_ES_ENTRY
	pushl %ds
	pushl %es
	movl $PM_SEL_DATA, %eax
	movl %eax, %ds
	movl %eax, %es
.endm
.macro DS_ES_EXIT
	popl %es
	popl %ds
.endm

/* seed 003: Linux 2.6.20's i386 PDA, pushl %gs, then the per-CPU
 * selector into %gs. */
.macro PDA_GS_ENTRY
	pushl %gs
	movl $PM_SEL_PERCPU, %eax
	movl %eax, %gs
.endm
.macro PDA_GS_EXIT
	popl %gs
.endm

.macro VARIANT32_BODY name, timed, entry, exit
	.balign 16
	.globl i386_variant_\name
i386_variant_\name:
	pushl $VARIANT_VECTOR
	SAVE_GPRS32
	DISPATCH32_TAIL i386_variants_dispatch, \timed, \entry, \exit
.endm

.macro VARIANT32 name, entry, exit
	VARIANT32_BODY \name, 1, \entry, \exit
	VARIANT32_BODY \name\()_bare, 0, \entry, \exit
	VARIANT32_BODY \name\()_counted, 2, \entry, \exit
.endm

	.section .text.irqlab.i386.variants, "ax"
	.code32
	VARIANT32 ds_es, DS_ES_ENTRY, DS_ES_EXIT
	VARIANT32 pda_gs, PDA_GS_ENTRY, PDA_GS_EXIT
	DISPATCH32_ROUTINE i386_variants_dispatch
	.code64

	.section .note.GNU-stack, "", @progbits
