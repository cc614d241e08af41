/* The trigger side of every timed sample, and the instrument floor.
 * Timestamps follow FACTS §5 / Intel 324264: a region opens with
 * lfence; rdtsc and closes with rdtscp; lfence. Each read is followed by
 * the same three instructions (shl, or, store/move), so the floor covers
 * exactly the instrument's own cost. */
#include "dispatch/irq.h"
#include "timing.h"

.macro TSC_OPEN_TO reg
	lfence
	rdtsc
	shlq $32, %rdx
	orq %rdx, %rax
	movq %rax, \reg
.endm

.macro TSC_CLOSE
	rdtscp
	lfence
	shlq $32, %rdx
	orq %rdx, %rax
.endm

	.text
/* uint64_t tsc_floor_sample(void) */
	.globl tsc_floor_sample
tsc_floor_sample:
	TSC_OPEN_TO %r8
	TSC_CLOSE
	subq %r8, %rax
	ret

/* The NOP probes tell QEMU -icount apart: there the TSC advances one tick
 * per instruction, so the two differ by exactly NOP_PROBE_DIFFERENCE. */
	.globl tsc_nop_probe_short
tsc_nop_probe_short:
	TSC_OPEN_TO %r8
	.rept 64
	nop
	.endr
	TSC_CLOSE
	subq %r8, %rax
	ret

	.globl tsc_nop_probe_long
tsc_nop_probe_long:
	TSC_OPEN_TO %r8
	.rept 64 + NOP_PROBE_DIFFERENCE
	nop
	.endr
	TSC_CLOSE
	subq %r8, %rax
	ret

/* void int_sample_<n>(struct irq_sample *out), one per vector from
 * FIRST_IRQ_VECTOR, each INT_SAMPLE_STRIDE bytes: INT n takes its vector
 * as an immediate, so each vector needs its own copy. */
	.section .text.irqlab.int_samples, "ax"
	.balign INT_SAMPLE_STRIDE
	.globl int_samples
int_samples:
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	TSC_OPEN_TO SAMPLE_TRIGGER(%rdi)
	int $vector
	TSC_CLOSE
	movq %rax, SAMPLE_RESUME(%rdi)
	ret
	.org 0b + INT_SAMPLE_STRIDE, 0xcc
	vector = vector + 1
	.endr

	.section .note.GNU-stack, "", @progbits
