/* The trigger side of every timed sample, and the instrument floor.
 * Timestamps follow Intel 324264 (docs/timing.md): a region opens with
 * lfence; rdtsc and closes with lfence; rdtsc; lfence. Each read is
 * followed by the same three instructions (shl, or, store/move), so the
 * floor covers exactly the instrument's own cost. */
#include "arch/callee_saved.h"
#include "arch/timing.h"

	.text
/* uint64_t <clock>_floor_sample(void): back-to-back open and close. */
.macro FLOOR_SAMPLE clock
	.globl \clock\()_floor_sample
\clock\()_floor_sample:
	CLOCK_OPEN_TO %r8, \clock
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm

/* uint64_t <clock>_instrument_probe(void): the handler's two timestamps,
 * back to back inside an open/close pair. Less the floor, it is what the
 * timestamps add to a round trip through the timed handlers. */
.macro INSTRUMENT_PROBE clock
	.globl \clock\()_instrument_probe
\clock\()_instrument_probe:
	CLOCK_OPEN_TO %r8, \clock
	TIMESTAMP_ENTRY \clock
	TIMESTAMP_EXIT \clock
	CLOCK_CLOSE \clock
	subq %r8, %rax
	ret
.endm

	FLOOR_SAMPLE tsc
	FLOOR_SAMPLE pmc
	INSTRUMENT_PROBE tsc
	INSTRUMENT_PROBE pmc

/* The NOP probes tell a TSC that counts instructions apart (QEMU -icount,
 * Bochs): there every read agrees, 1024 more NOPs read exactly
 * NOP_PROBE_DIFFERENCE more, and NOP_PROBE_FEW NOPs read exactly that
 * many more than back-to-back reads. The last fails on a Bochs built
 * with handler chaining, whose TSC moves only where a chain of traces
 * ends, so a short stretch reads stale (docs/emulators.md). */
.macro NOP_PROBE name, nops
	.globl \name
\name:
	TSC_OPEN_TO %r8
	.rept \nops
	nop
	.endr
	TSC_CLOSE
	subq %r8, %rax
	ret
.endm

	NOP_PROBE tsc_nop_probe_few, NOP_PROBE_FEW
	NOP_PROBE tsc_nop_probe_short, 64
	NOP_PROBE tsc_nop_probe_long, 64 + NOP_PROBE_DIFFERENCE

/* The trigger side is assembled once per instrument (\clock tsc or pmc,
 * arch/timing.h): NAME_tsc for the TSC passes, NAME_pmc for the counted
 * one; arch/timing.c calls the one sample_counted selects. */

/* void int_sample_<n>(struct irq_sample *out), one per vector from
 * FIRST_IRQ_VECTOR, each INT_SAMPLE_STRIDE bytes: INT n takes its vector
 * as an immediate, so each vector needs its own copy. */
.macro INT_SAMPLES clock
	.section .text.irqlab.int_samples, "ax"
	.balign INT_SAMPLE_STRIDE
	.globl int_samples_\clock
int_samples_\clock:
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	CLOCK_OPEN_TO SAMPLE_TRIGGER(%rdi), \clock
	int $vector
	CLOCK_CLOSE \clock
	movq %rax, SAMPLE_RESUME(%rdi)
	ret
	.org 0b + INT_SAMPLE_STRIDE, 0xcc
	vector = vector + 1
	.endr
.endm

	INT_SAMPLES tsc
	INT_SAMPLES pmc


/* The wait for an interrupt a sample has triggered, or that a timer or a
 * device raises. Interrupts are on for exactly one instruction boundary
 * per iteration: STI holds them off until the instruction after it has
 * run (SDM vol. 3 §6.8.3), so a pending interrupt is taken after the NOP
 * and returns to the CLI, and the resume read follows the CLI at once.
 * So entry carries STI and NOP after the trigger, exit carries CLI before
 * the resume read, every time (docs/reading.md "Reading the figures"). \before
 * runs at the top of every iteration. R11 holds the deadline; RAX the
 * resume read on leaving; irq_arrived 0 on leaving means it timed out. */
.macro WAIT_WINDOW clock, before=NOTHING_HERE
1:	\before \clock
	sti
	nop			/* a pending interrupt is taken after this */
	cli			/* ... and returns here */
	CLOCK_CLOSE \clock
	cmpl $0, irq_arrived(%rip)
	jne 2f
	cmpq %r11, %rax
	jb 1b
2:
.endm

.macro NOTHING_HERE clock
.endm

/* R11 = now + the wait's bound, read before the timed region opens: in
 * TSC time, or in the counter's counts (wait_budget_counts, which the
 * counted pass sets wide enough for any core clock). Clobbers RAX and
 * RDX (and RCX, counted). */
.macro WAIT_DEADLINE clock
	.ifc \clock, pmc
	movl pmc_counter(%rip), %ecx
	rdpmc
	.else
	rdtsc
	.endif
	shlq $32, %rdx
	orq %rdx, %rax
	.ifc \clock, pmc
	addq wait_budget_counts(%rip), %rax
	.else
	addq wait_budget_ticks(%rip), %rax
	.endif
	movq %rax, %r11
.endm

/* void ipi_sample_mmio_<clock>(struct irq_sample *out,
 *                      volatile uint32_t *icr, uint32_t value): xAPIC,
 * the write to ICR low sends. */
.macro IPI_SAMPLE_MMIO clock
	.text
	.globl ipi_sample_mmio_\clock
ipi_sample_mmio_\clock:
	movq %rsi, %r9
	movl %edx, %r10d
	movl $0, irq_arrived(%rip)
	WAIT_DEADLINE \clock
	CLOCK_OPEN_TO SAMPLE_TRIGGER(%rdi), \clock
	movl %r10d, (%r9)		/* the trigger */
	WAIT_WINDOW \clock
	movq %rax, SAMPLE_RESUME(%rdi)
	ret
.endm

/* void ipi_sample_msr_<clock>(struct irq_sample *out, uint32_t msr,
 * uint64_t value): x2APIC ICR or SELF_IPI. WRMSR to them is not
 * serialising; Intel wants mfence; lfence first (docs/controllers.md),
 * done before the trigger timestamp so the ordering cost is not billed to
 * the interrupt. WRMSR takes its value in EDX:EAX, which the trigger read
 * has just used, so entry carries the two moves that load them; the
 * counted read uses ECX too, so its entry carries a third, the MSR's
 * number (docs/timing.md "Core cycles"). */
.macro IPI_SAMPLE_MSR clock
	.text
	.globl ipi_sample_msr_\clock
ipi_sample_msr_\clock:
	movl %esi, %ecx
	movl %esi, %r8d
	movq %rdx, %r10
	movq %rdx, %rsi
	shrq $32, %rsi			/* the value's high half */
	movl $0, irq_arrived(%rip)
	WAIT_DEADLINE \clock
	mfence
	CLOCK_OPEN_TO SAMPLE_TRIGGER(%rdi), \clock
	movl %r10d, %eax
	movl %esi, %edx
	.ifc \clock, pmc
	movl %r8d, %ecx
	.endif
	wrmsr				/* the trigger */
	WAIT_WINDOW \clock
	movq %rax, SAMPLE_RESUME(%rdi)
	ret
.endm

/* void wait_sample_<clock>(struct irq_sample *out): for interrupts no
 * instruction raises. Each iteration reads the clock just before its
 * window, so the trigger is that read: the last one before the interrupt
 * was taken. */
.macro READ_BEFORE_WINDOW clock
	CLOCK_OPEN_TO %r8, \clock
.endm

.macro WAIT_SAMPLE clock
	.text
	.globl wait_sample_\clock
wait_sample_\clock:
	WAIT_DEADLINE \clock
	WAIT_WINDOW \clock, READ_BEFORE_WINDOW
	movq %r8, SAMPLE_TRIGGER(%rdi)
	movq %rax, SAMPLE_RESUME(%rdi)
	ret
.endm

	IPI_SAMPLE_MMIO tsc
	IPI_SAMPLE_MMIO pmc
	IPI_SAMPLE_MSR tsc
	IPI_SAMPLE_MSR pmc
	WAIT_SAMPLE tsc
	WAIT_SAMPLE pmc

/* void irq_window(void): interrupts on for one instruction boundary. */
	.globl irq_window
irq_window:
	sti
	nop
	cli
	ret

/* uint32_t gap_loop_<clock>(uint64_t *gaps, uint32_t want,
 *                           uint64_t threshold, uint64_t iterations)
 * Ingo Molnar's method (seed 000): back-to-back fenced reads of the clock
 * (the TSC, or the counted pass's counter) with interrupts enabled; every
 * delta above `threshold` is time the loop lost, i.e. an interrupt's full
 * cost as the interrupted code sees it. Stops after `want` gaps or
 * `iterations` reads; returns the gap count. The counted loop's deltas
 * are not taken modulo the counter's width: one wrap in 2^48 reads is a
 * gap too large, in the high percentiles. */
.macro GAP_LOOP clock
	.text
	.globl gap_loop_\clock
gap_loop_\clock:
	pushq %r12
	pushq %r13
	pushq %r14
	movq %rdx, %r12			/* threshold */
	movq %rcx, %r13			/* iterations left */
	xorl %r14d, %r14d		/* gaps so far */
	CLOCK_OPEN_TO %r8, \clock	/* previous read */
	sti
1:	.ifc \clock, pmc
	movl pmc_counter(%rip), %ecx
	lfence
	rdpmc
	.else
	lfence
	rdtsc
	.endif
	shlq $32, %rdx
	orq %rdx, %rax
	movq %rax, %r9
	subq %r8, %r9			/* this delta */
	movq %rax, %r8
	cmpq %r12, %r9
	jbe 2f
	movq %r9, (%rdi,%r14,8)
	incl %r14d
	cmpl %esi, %r14d
	jae 3f
2:	decq %r13
	jnz 1b
3:	cli
	movl %r14d, %eax
	popq %r14
	popq %r13
	popq %r12
	ret
.endm

	GAP_LOOP tsc
	GAP_LOOP pmc

/* void int_trigger_<n>(void): a bare INT n, for the vector sweep and the
 * register check, INT_TRIGGER_STRIDE bytes apart. */
	.section .text.irqlab.int_triggers, "ax"
	.balign INT_TRIGGER_STRIDE
	.globl int_triggers
int_triggers:
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	int $vector
	ret
	.org 0b + INT_TRIGGER_STRIDE, 0xcc
	vector = vector + 1
	.endr

/* uint32_t int_registers_check(void (*trigger)(void))
 * Every general register but RSP, and RFLAGS, hold a known pattern across
 * one interrupt; a bit per register (bit 15: RFLAGS) says which came back
 * changed. The comparisons write their verdicts to memory with SETNE, so
 * checking needs no register of its own. */
#define REGCHECK_RFLAGS 0xc97	/* CF PF AF SF DF OF and reserved bit 1; IF stays 0 */

.macro REGCHECK_LOAD reg, i
	movq regcheck_patterns + 8 * \i(%rip), \reg
.endm
.macro REGCHECK_COMPARE reg, i
	cmpq regcheck_patterns + 8 * \i(%rip), \reg
	setne regcheck_changed + \i(%rip)
.endm
.macro REGCHECK_ALL op
	\op %rax, 0
	\op %rbx, 1
	\op %rcx, 2
	\op %rdx, 3
	\op %rsi, 4
	\op %rdi, 5
	\op %rbp, 6
	\op %r8, 7
	\op %r9, 8
	\op %r10, 9
	\op %r11, 10
	\op %r12, 11
	\op %r13, 12
	\op %r14, 13
	\op %r15, 14
.endm

	.text
	.globl int_registers_check
int_registers_check:
	PUSH_CALLEE_SAVED
	movq %rdi, regcheck_trigger(%rip)
	pushfq				/* the caller's flags, for the end */
	pushq $REGCHECK_RFLAGS
	popfq
	REGCHECK_ALL REGCHECK_LOAD
	call *regcheck_trigger(%rip)
	pushfq				/* RFLAGS as the interrupt left them */
	REGCHECK_ALL REGCHECK_COMPARE
	cmpq $REGCHECK_RFLAGS, (%rsp)
	setne regcheck_changed + 15(%rip)
	addq $8, %rsp
	popfq
	xorl %eax, %eax
	bit = 0
	.rept 16
	movzbl regcheck_changed + bit(%rip), %ecx
	shll $bit, %ecx
	orl %ecx, %eax
	bit = bit + 1
	.endr
	POP_CALLEE_SAVED
	ret

	.data
	.balign 8
regcheck_trigger:
	.quad 0
regcheck_patterns:
	i = 0
	.rept 15
	.quad 0xa5c3000000000000 + (i + 1) * 0x0000010203040506
	i = i + 1
	.endr
regcheck_changed:
	.fill 16, 1, 0

	.section .note.GNU-stack, "", @progbits
