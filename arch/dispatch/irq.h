/* What every dispatch scheme shares: the timing slot written by the entry
 * and exit timestamps, the per-sample record the trigger side fills, and
 * the C-callable dispatch every scheme ends in. Shared by C and assembly. */
#ifndef IRQLAB_ARCH_DISPATCH_IRQ_H
#define IRQLAB_ARCH_DISPATCH_IRQ_H

#include "arch/frame.h"
#include "arch/timing.h"
#include "arch/vectors.h"


/* How the dispatch acknowledges, in irq_ack: nothing (INT n), a local
 * APIC EOI, the 8259's, or the level-triggered IO-APIC sequence
 * (apic/level_line.h). Read by C and by the gate floor's assembly. */
#define IRQ_ACK_NONE 0
#define IRQ_ACK_XAPIC_EOI 1
#define IRQ_ACK_X2APIC_EOI 2
#define IRQ_ACK_PIC8259 3
#define IRQ_ACK_LEVEL_LINE 4

#ifdef __ASSEMBLER__

.macro NOTHING
.endm

/* Every scheme ends here once FRAME_VECTOR holds the vector: the entry
 * timestamp, the C dispatch, the exit timestamp and the return. \timed
 * names the instrument of the timestamps: tsc, pmc (the counted pass,
 * arch/timing.h), or none for the same without them. An entry variant
 * (variants.S) adds its own work after saving the registers (\entry) and
 * before restoring them (\exit), so each lands in the metric it costs.
 * \return is how the frame was delivered: IDT_RETURN or FRED_RETURN. */
.macro DISPATCH_TAIL timed=tsc, entry=NOTHING, exit=NOTHING, return=IDT_RETURN
	\entry
	.ifnc \timed, none
	TIMESTAMP_ENTRY \timed
	.endif
	movq %rsp, %rdi		/* struct irq_frame * */
	cld			/* the SysV ABI wants DF clear in C */
	call irq_dispatch
	.ifnc \timed, none
	TIMESTAMP_EXIT \timed
	.endif
	\exit
	\return
.endm

/* Every scheme is assembled once per handler kind (schemes.h) from one
 * body, a macro taking the symbol prefix and \timed: NAME_..., whose
 * handlers take the entry and exit timestamps, NAME_bare_..., whose
 * handlers take none, and NAME_counted_..., whose timestamps read the
 * performance counter. Entry and exit are timed through the first; the
 * round trip through the second, so it carries none of the instrument
 * (docs/reading.md "Reading the figures"); the third gives the same in core
 * cycles, in a pass of its own (docs/timing.md "Core cycles"). */
.macro SCHEME_EACH_KIND body, name
	\body \name, tsc
	\body \name\()_bare, none
	\body \name\()_counted, pmc
.endm

/* push-jmp style: the stub pushed its vector as a sign-extended imm8 into
 * FRAME_ERROR; keep its low byte as the vector. */
.macro VECTOR_FROM_PUSHED_BYTE
	movzbl FRAME_ERROR(%rsp), %eax
	movq %rax, FRAME_VECTOR(%rsp)
.endm

/* Starts a scheme's long-mode code: its own section, aligned to `align`,
 * and \id_code, its first byte, which the footprint counts from to
 * \id_code_end (SCHEME_CODE_END). As i386.h's I386_CODE for the 32-bit
 * schemes. */
.macro SCHEME_CODE id, align
	.section .text.irqlab.scheme.\id, "ax"
	.balign \align
	.globl \id\()_code, \id\()_code_end
\id\()_code:
.endm

.macro SCHEME_CODE_END id
\id\()_code_end:
.endm

/* Starts a scheme's gate table: IRQ_VECTORS gate targets, one per vector
 * from FIRST_IRQ_VECTOR, that GATE_TABLE_ENTRY appends to. */
.macro GATE_TABLE name
	.pushsection .data.irqlab.gates, "aw"
	.balign 8
	.globl \name
\name:
	.popsection
.endm

.macro GATE_TABLE_ENTRY target
	.pushsection .data.irqlab.gates, "aw"
	.quad \target
	.popsection
.endm

/* A scheme with a whole handler per vector (direct, gate): \handler
 * \vector, \timed emits one, padded to \stride bytes (the .org makes an
 * overgrown one a build error), and the gate table points at each. */
.macro HANDLER_PER_VECTOR id, timed, stride, handler
	GATE_TABLE \id\()_gates
	SCHEME_CODE \id, \stride
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	\handler vector, \timed
	.org 0b + \stride, 0xcc
	GATE_TABLE_ENTRY 0b
	vector = vector + 1
	.endr
	SCHEME_CODE_END \id
.endm

/* For schemes that reach the common path through a second event (#PF,
 * #BP) delivered on top of the interrupt's own frame: rebuild the stack
 * as [interrupt frame][FRAME_ERROR 0][FRAME_VECTOR] and drop the nested
 * frame. On entry RAX holds the vector, RCX the address of the interrupt
 * frame (the nested frame's saved RSP, which also skips any alignment
 * gap), and the interrupted RCX and RAX are at 0(%rsp) and 8(%rsp). On
 * exit all registers are as interrupted and RSP points at FRAME_VECTOR. */
.macro UNWIND_TO_INTERRUPT_FRAME
	movq $0, -8(%rcx)	/* FRAME_ERROR */
	movq %rax, -16(%rcx)	/* FRAME_VECTOR */
	movq 8(%rsp), %rax
	movq %rax, -24(%rcx)	/* interrupted RAX, popped below */
	movq (%rsp), %rax
	movq %rax, -32(%rcx)	/* interrupted RCX, popped below */
	leaq -32(%rcx), %rsp	/* the nested frame is gone */
	popq %rcx
	popq %rax
.endm

#else

#include <stddef.h>
#include <stdint.h>

/* Interrupts the common dispatch saw, per vector, and the last vector. */
extern uint32_t irq_delivered[256];
extern uint8_t irq_last_vector;
/* Self-test: when set, the next dispatch raises #UD inside the handler. */
extern volatile uint8_t irq_fault_once;
/* Set by every dispatch; the self-IPI samples wait for it. */
extern volatile uint32_t irq_arrived;
/* irq_ack: how the dispatch acknowledges (IRQ_ACK_*, above). */
extern uint8_t irq_ack;

/* The C end of every scheme: called with the saved frame, whose vector
 * slot the scheme's entry code filled in. */
void irq_dispatch(struct irq_frame *f);
void irq_reset_counts(void);

#endif
#endif
