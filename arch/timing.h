/* The instrument: fenced TSC reads (Intel, "How to Benchmark Code
 * Execution Times on Intel IA-32 and IA-64 Instruction Set Architectures",
 * 2010: open with LFENCE; RDTSC, close with RDTSCP; LFENCE), and the
 * trigger side of every sample, in arch/timing.S. Shared by C and
 * assembly. */
#ifndef IRQLAB_ARCH_TIMING_H
#define IRQLAB_ARCH_TIMING_H

#include "arch/vectors.h"

/* The two NOP probes of arch/timing.S differ by this many NOPs. */
#define NOP_PROBE_DIFFERENCE 1024
/* ... and the short one has this many more than back-to-back reads. */
#define NOP_PROBE_FEW 8

/* struct irq_timing: the handler's two timestamps (arch/dispatch/irq.h) */
#define TIMING_ENTRY 0	/* first timestamp where the vector is known */
#define TIMING_EXIT 8	/* last timestamp before the return sequence */

/* struct irq_sample, filled by the trigger side */
#define SAMPLE_TRIGGER 0	/* just before the trigger */
#define SAMPLE_RESUME 8		/* first instruction back */

#define INT_SAMPLE_STRIDE 64
#define INT_TRIGGER_STRIDE 4

#ifdef __ASSEMBLER__
/* Opening read of a timed region into \reg: LFENCE keeps RDTSC from
 * reading before earlier instructions are done. Clobbers RAX and RDX. */
.macro TSC_OPEN_TO reg
	lfence
	rdtsc
	shlq $32, %rdx
	orq %rdx, %rax
	movq %rax, \reg
.endm

/* Closing read into RAX: the first LFENCE waits for earlier instructions
 * to complete, the second keeps later ones from starting before the read.
 * This is RDTSCP's ordering (SDM vol. 2B, RDTSCP: "waits until all
 * previous instructions have executed") built from LFENCE, which every
 * x86-64 CPU has; one sequence on every CPU keeps the floor, and figures
 * from different machines, comparable (docs/timing.md). Clobbers RDX. */
.macro TSC_CLOSE
	lfence
	rdtsc
	lfence
	shlq $32, %rdx
	orq %rdx, %rax
.endm

/* The counted instrument (docs/timing.md "Core cycles"): the same reads
 * and fences around RDPMC of the performance counter pmc_counter names
 * (core cycles or instructions retired), for the pass of its own that
 * gives core-cycle figures. Loading ECX is one more instruction per read,
 * which the counted floor carries too. Clobbers RAX, RCX and RDX. */
.macro PMC_OPEN_TO reg
	movl pmc_counter(%rip), %ecx
	lfence
	rdpmc
	shlq $32, %rdx
	orq %rdx, %rax
	movq %rax, \reg
.endm

.macro PMC_CLOSE
	movl pmc_counter(%rip), %ecx
	lfence
	rdpmc
	lfence
	shlq $32, %rdx
	orq %rdx, %rax
.endm

/* Either instrument by name: \clock is tsc or pmc. */
.macro CLOCK_OPEN_TO reg, clock
	.ifc \clock, pmc
	PMC_OPEN_TO \reg
	.else
	TSC_OPEN_TO \reg
	.endif
.endm

.macro CLOCK_CLOSE clock
	.ifc \clock, pmc
	PMC_CLOSE
	.else
	TSC_CLOSE
	.endif
.endm

/* The handler's entry timestamp: a closing read, because it ends the
 * region the trigger opened. Clobbers RAX and RDX (and RCX, counted),
 * which the frame has already saved. */
.macro TIMESTAMP_ENTRY clock=tsc
	CLOCK_CLOSE \clock
	movq %rax, irq_timing+TIMING_ENTRY(%rip)
.endm

/* The handler's exit timestamp: an opening read, because it starts the
 * region that resume closes. */
.macro TIMESTAMP_EXIT clock=tsc
	CLOCK_OPEN_TO irq_timing+TIMING_EXIT(%rip), \clock
.endm

/* The same reads in 32-bit code (compatibility mode, arch/compat.S;
 * protected mode, arch/protected.S), storing EDX:EAX as two halves.
 * Three instructions follow each opening read, as in TSC_OPEN_TO, so the
 * one floor fits both and a block timed in 32-bit code nets exactly its
 * instructions under an instruction-counting clock. */
.macro TSC32_OPEN low, high
	lfence
	rdtsc
	movl %eax, \low
	movl %edx, \high
	nop
.endm

.macro TSC32_CLOSE low, high
	lfence
	rdtsc
	lfence
	movl %eax, \low
	movl %edx, \high
.endm

/* The counted instrument in 32-bit code: RDPMC of the counter at
 * \counter (a memory operand), the same instructions around the read as
 * PMC_OPEN_TO and PMC_CLOSE, so long mode's counted floor fits here too.
 * Clobbers EAX, ECX and EDX. */
.macro PMC32_OPEN low, high, counter
	movl \counter, %ecx
	lfence
	rdpmc
	movl %eax, \low
	movl %edx, \high
	nop
.endm

.macro PMC32_CLOSE low, high, counter
	movl \counter, %ecx
	lfence
	rdpmc
	lfence
	movl %eax, \low
	movl %edx, \high
.endm

/* The i386 handlers' timestamps (arch/dispatch/i386.h), each the same
 * instruction count as its 64-bit form, so the instrument measured in
 * long mode is the instrument here too: the NOP stands for the 64-bit
 * form's third instruction after the read. \clock is 1 for the TSC, 2
 * for the counted instrument, whose counter is at \counter; the counted
 * entry gives ECX back the vector from EBP, where DISPATCH32_TAIL keeps
 * it, in place of the NOP. */
.macro TIMESTAMP32_ENTRY low, high, clock=1, counter=0
	.if \clock == 2
	PMC32_CLOSE \low, \high, \counter
	movl %ebp, %ecx
	.else
	TSC32_CLOSE \low, \high
	nop
	.endif
.endm

.macro TIMESTAMP32_EXIT low, high, clock=1, counter=0
	.if \clock == 2
	PMC32_OPEN \low, \high, \counter
	.else
	TSC32_OPEN \low, \high
	.endif
.endm

#else

#include <stddef.h>
#include <stdint.h>

struct irq_timing {
	uint64_t entry;
	uint64_t exit;
};
_Static_assert(offsetof(struct irq_timing, entry) == TIMING_ENTRY, "timing");
_Static_assert(offsetof(struct irq_timing, exit) == TIMING_EXIT, "timing");

extern struct irq_timing irq_timing;

struct irq_sample {
	uint64_t trigger;
	uint64_t resume;
};
_Static_assert(offsetof(struct irq_sample, trigger) == SAMPLE_TRIGGER, "sample");
_Static_assert(offsetof(struct irq_sample, resume) == SAMPLE_RESUME, "sample");

uint64_t tsc_floor_sample(void);	/* back-to-back open/close reads */
uint64_t tsc_instrument_probe(void);	/* the same around the handler's
					 * two timestamps */
/* The same two with the counted instrument (PMC_OPEN_TO/PMC_CLOSE). */
uint64_t pmc_floor_sample(void);
uint64_t pmc_instrument_probe(void);

/* The counted instrument's counter, as RDPMC takes it in ECX (bit 30
 * for Intel's fixed counters), and whether the trigger side reads it in
 * place of the TSC: set for the counted pass only (docs/timing.md "Core
 * cycles"). */
extern uint32_t pmc_counter;
extern uint8_t sample_counted;
/* The wait's bound in the counter's counts, for the counted pass. */
extern uint64_t wait_budget_counts;
uint64_t tsc_nop_probe_few(void);	/* the same around 8 NOPs */
uint64_t tsc_nop_probe_short(void);	/* the same around 64 NOPs */
uint64_t tsc_nop_probe_long(void);	/* ... and around 1088 NOPs */

/* One timed INT n per vector, INT_SAMPLE_STRIDE bytes apart. */
typedef void (*int_sample_fn)(struct irq_sample *out);
int_sample_fn int_sample_for(uint8_t vector);

/* Loads every general register and RFLAGS with a pattern, raises INT n,
 * and returns a bit per register (bit 15 for RFLAGS)
 * that did not come back intact. */
uint32_t int_registers_intact(uint8_t vector);
/* Takes whatever interrupt is pending, through one instruction boundary
 * with interrupts on (sti; nop; cli). */
void irq_window(void);
/* A bare INT n. */
void int_trigger(uint8_t vector);

/* How long a sample waits for its interrupt: long against any source's
 * period (microseconds), so only a lost interrupt reaches it, even on a
 * busy host under plain TCG. */
#define WAIT_BUDGET_MS 250

/* How long, in TSC ticks, a sample waits for its interrupt before it
 * counts as lost (arch/timing.c sets a bound until the runner knows the
 * TSC frequency). */
extern uint64_t wait_budget_ticks;

/* One timed self-IPI, through xAPIC MMIO or an x2APIC MSR. */
void ipi_sample_mmio(struct irq_sample *out, volatile uint32_t *icr,
		     uint32_t value);
void ipi_sample_msr(struct irq_sample *out, uint32_t msr, uint64_t value);
/* For interrupts no instruction raises (timers, external lines): read the
 * TSC in a loop with interrupts enabled until the handler has run. The
 * trigger is the last loop read before the handler's entry timestamp. */
void wait_sample(struct irq_sample *out);
uint32_t gap_loop(uint64_t *gaps, uint32_t want, uint64_t threshold,
		  uint64_t iterations);	/* sample_counted chooses the clock */

#endif
#endif
