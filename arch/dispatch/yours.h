/* Your own entry code (docs/your-entry.md): the handlers a file of
 * `make ENTRY=...` is assembled into. The wrapper image/your-entry.py
 * writes puts each file in the body of a macro, yours_<k>, whose one
 * argument picks the part; the markers below open and close the parts.
 * C includes it for the one layout both share, yours_stack's. */
#ifndef IRQLAB_ARCH_DISPATCH_YOURS_H
#define IRQLAB_ARCH_DISPATCH_YOURS_H

/* yours_stack's fields: RSP where the entry part starts and where it
 * ends, where the exit part starts and where it ends (struct
 * yours_stack, variants.h). */
#define YOURS_STACK_AT_ENTRY 0
#define YOURS_STACK_AFTER_ENTRY 8
#define YOURS_STACK_BEFORE_EXIT 16
#define YOURS_STACK_AFTER_EXIT 24

/* The scratch area GS.base points at when the entry part starts. */
#define YOUR_SCRATCH_BYTES 4096

#ifdef __ASSEMBLER__

#include "arch/frame.h"
#include "arch/mitigations.h"
#include "arch/timing.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

/* The file's markers: part 1 is the entry part, part 2 the exit part.
 * The name and words are read by image/your-entry.py; here `#` makes
 * them a comment, x86 GAS's comment character anywhere on a line, so
 * that the words may hold any punctuation. */
#define YOUR_ENTRY .if \part == 1 ; #
#define YOUR_EXIT .elseif \part == 2
#define YOUR_END .endif

/* What a file may name (docs/your-entry.md "What the parts may use"):
 * the CR3 bits between the user and the kernel page table, as Linux's
 * PTI pairs them (arch/x86/entry/calling.h, PTI_USER_PGTABLE_AND_PCID_
 * MASK), and YOUR_SCRATCH_BYTES above. */
#define YOUR_PTI_SWITCH_MASK PTI_SWITCH_MASK

/* One handler of one kind for VARIANT_VECTOR: direct's handler
 * (variants.S) with the file's entry part first, on the CPU's frame as
 * Linux's entry code is, and its exit part last, before iretq; so that
 * a part that loses a register or the stack shows in the checks, and
 * irqlab's own frame (FRAME_VECTOR, the saved registers) lies below
 * what the entry part pushed. \timed: tsc, none or pmc, as
 * SCHEME_EACH_KIND (irq.h). */
.macro YOURS_HANDLER name, file, timed
	/* Each handler starts in the parts' section again, so that a part
	 * that leaves it moves only its own end label (your-entry.py). */
	.section .text.irqlab.yours, "ax"
	.balign 16
	.globl variant_\name
variant_\name:
	\file 1
	pushq $0		/* FRAME_ERROR */
	pushq $VARIANT_VECTOR	/* FRAME_VECTOR */
	SAVE_GPRS
	DISPATCH_TAIL \timed, NOTHING, NOTHING, "YOURS_RETURN \file"
.endm

/* The return: irqlab's frame gone, then the exit part, then iretq. */
.macro YOURS_RETURN file
	RESTORE_GPRS_AND_DROP_SLOTS
	\file 2
	iretq
.endm

/* The handler the checks run first: untimed, it notes RSP around each
 * part (yours_stack, arch/dispatch/variants.c) and returns from the
 * CPU's frame whatever the parts left, so that an unbalanced stack is
 * measured and named rather than taken by iretq. Its part labels bound
 * the parts for the listing's count and for naming a fault. */
.macro YOURS_CHECKED name, file
	.section .text.irqlab.yours, "ax"
	.balign 16
	.globl variant_\name\()_checked
variant_\name\()_checked:
	movq %rsp, yours_stack+YOURS_STACK_AT_ENTRY(%rip)
	.globl \name\()_entry_part, \name\()_entry_part_end
\name\()_entry_part:
	\file 1
\name\()_entry_part_end:
	movq %rsp, yours_stack+YOURS_STACK_AFTER_ENTRY(%rip)
	pushq $0
	pushq $VARIANT_VECTOR
	SAVE_GPRS
	movq %rsp, %rdi
	cld
	call irq_dispatch
	RESTORE_GPRS_AND_DROP_SLOTS
	movq %rsp, yours_stack+YOURS_STACK_BEFORE_EXIT(%rip)
	.globl \name\()_exit_part, \name\()_exit_part_end
\name\()_exit_part:
	\file 2
\name\()_exit_part_end:
	movq %rsp, yours_stack+YOURS_STACK_AFTER_EXIT(%rip)
	movq yours_stack+YOURS_STACK_AT_ENTRY(%rip), %rsp
	iretq
.endm

/* A file's four handlers: timed, bare and counted as every variant's
 * (variants.S), and the checked one. */
.macro YOURS_HANDLERS file
	YOURS_HANDLER \file, \file, tsc
	YOURS_HANDLER \file\()_bare, \file, none
	YOURS_HANDLER \file\()_counted, \file, pmc
	YOURS_CHECKED \file, \file
.endm

#endif
#endif
