/* Layout constants of arch/timing.S shared with C. */
#ifndef IRQLAB_ARCH_TIMING_H
#define IRQLAB_ARCH_TIMING_H

#define INT_SAMPLE_STRIDE 64
#define INT_TRIGGER_STRIDE 4
/* Loop iterations a self-IPI sample waits before it counts as lost. */
#define IPI_WAIT_SPINS 1000000

#ifdef __ASSEMBLER__
/* Opening read of a timed region into \reg (FACTS §5: lfence; rdtsc).
 * Clobbers RAX and RDX. */
.macro TSC_OPEN_TO reg
	lfence
	rdtsc
	shlq $32, %rdx
	orq %rdx, %rax
	movq %rax, \reg
.endm

/* Closing read into RAX (rdtscp; lfence). Clobbers RCX and RDX. */
.macro TSC_CLOSE
	rdtscp
	lfence
	shlq $32, %rdx
	orq %rdx, %rax
.endm
#endif

#endif
