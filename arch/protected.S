/* The trip to 32-bit protected mode and back (docs/protected-mode.md),
 * and what runs there: the job loops, the trigger tables of INT n, and
 * the exception entries that end a trip early.
 *
 * Leaving long mode follows SDM vol. 3 §10.8.5 in reverse: from 64-bit
 * code to compatibility mode, paging off (which clears EFER.LMA), then
 * EFER.LME off. Coming back is §10.8.5 as written: CR3, EFER.LME, paging
 * on (EFER.LMA set, still compatibility mode), a far return into 64-bit
 * code. Both switches run from irqlab's identity-mapped code, so the
 * instruction after each MOV to CR0 is where it was.
 *
 * The 32-bit side finds its data through %fs, whose descriptor is based
 * at struct pm_data (arch/protected.h), and its code by relative jumps
 * and calls only: no absolute address of irqlab's is in it. */
#include "arch/callee_saved.h"
#include "arch/desc.h"
#include "arch/frame.h"
#include "arch/protected.h"
#include "arch/timing.h"
#include "arch/vectors.h"

#define CR0_PG		0x80000000
#define MSR_EFER	0xc0000080
#define EFER_LME	0x100

/* The register check's patterns: every register and EFLAGS differ, and
 * EFLAGS has CF PF AF SF DF OF and reserved bit 1 set, IF clear. */
#define PM_PATTERN(i)	(0x5aa50000 + (i) * 0x01010101)
#define PM_EFLAGS_PATTERN 0xc97

/* The self-test of the switches' IDT (simulate = nmi-in-switch): INT 2
 * where an NMI could come, in each mode the switches pass through;
 * nothing when PM_SWITCH_NMI_TEST is 0. Its uses are counted, so that
 * the count the self-test expects (PM_SWITCH_NMI_WINDOWS) is checked at
 * the end of the file. */
	.set switch_nmi_windows, 0
.macro SWITCH_NMI_TEST base
	cmpl $0, PM_SWITCH_NMI_TEST(\base)
	je 9f
	int $2
9:
	.set switch_nmi_windows, switch_nmi_windows + 1
.endm

	.text
/* int pm_trip(struct pm_data *d): d below 4 GiB, interrupts off. */
	.globl pm_trip
pm_trip:
	PUSH_CALLEE_SAVED
	pushfq
	cli
	movq %rsp, pm_saved_rsp(%rip)
	movq %rdi, pm_saved_block(%rip)
	movq %rdi, %rbx
	sgdt PM_SAVED_GDTR(%rbx)
	sidt PM_SAVED_IDTR(%rbx)
	movq %cr3, %rax
	movl %eax, PM_SAVED_CR3(%rbx)
	leaq pm_long_mode_again(%rip), %rax
	movl %eax, PM_RETURN64(%rbx)
	leaq PM_STACK_TOP(%rbx), %rsp	/* below 4 GiB, as ESP must be */
	/* From here until the 32-bit IDT, the IDT both formats can read. */
	lidt PM_SWITCH_IDTR(%rbx)
	SWITCH_NMI_TEST %rbx
	pushq $SEL_COMPAT_CS
	leaq pm_compat(%rip), %rax
	pushq %rax
	lretq

	.code32
pm_compat:
	movl %cr0, %eax
	andl $~CR0_PG, %eax
	movl %eax, %cr0			/* EFER.LMA clears: protected mode */
	jmp 1f
1:	SWITCH_NMI_TEST %ebx
	movl $MSR_EFER, %ecx
	rdmsr
	andl $~EFER_LME, %eax
	wrmsr
	lgdtl PM_GDTR(%ebx)
	SWITCH_NMI_TEST %ebx
	lidtl PM_IDTR(%ebx)
	call 2f				/* EIP, for the far return */
2:	popl %eax
	addl $(3f - 2b), %eax
	pushl $PM_SEL_CODE
	pushl %eax
	lretl
3:	movl $PM_SEL_DATA, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	movl %eax, %gs
	leal PM_STACK_TOP(%ebx), %esp
	movl $PM_SEL_OWN, %eax
	movl %eax, %fs
	call pm_job

/* Back to long mode; an exception in the trip lands here too, with any
 * stack. */
pm_leave:
	movl $PM_SEL_OWN, %eax
	movl %eax, %fs
	movl %fs:PM_SELF, %ebx
	movl $PM_SEL_DATA, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	leal PM_STACK_TOP(%ebx), %esp
	/* CS to SEL_COMPAT_CS, flat 32-bit code in both GDTs: an IRET in
	 * the window below reloads CS by its selector, and the trip's own
	 * selectors name other segments, or none, in long mode's GDT. */
	call 1f
1:	popl %eax
	addl $(2f - 1b), %eax
	pushl $SEL_COMPAT_CS
	pushl %eax
	lretl
	/* From here until long mode's IDT, the IDT both formats can read. */
2:	lidtl PM_SWITCH_IDTR(%ebx)
	SWITCH_NMI_TEST %ebx
	movl PM_SAVED_CR3(%ebx), %eax
	movl %eax, %cr3
	movl $MSR_EFER, %ecx
	rdmsr
	orl $EFER_LME, %eax
	wrmsr
	lgdtl PM_SAVED_GDTR(%ebx)	/* long mode's, by its low 32 bits */
	SWITCH_NMI_TEST %ebx
	movl %cr0, %eax
	orl $CR0_PG, %eax
	movl %eax, %cr0			/* EFER.LMA sets: compatibility mode */
	SWITCH_NMI_TEST %ebx
	pushl $SEL_KERNEL_CS
	pushl PM_RETURN64(%ebx)
	lretl

	.code64
pm_long_mode_again:
	movq pm_saved_block(%rip), %rbx
	lgdt PM_SAVED_GDTR(%rbx)	/* again, with all 64 bits of base */
	lidt PM_SAVED_IDTR(%rbx)
	movl $SEL_KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	movl %eax, %ss
	movl %eax, %fs
	movl %eax, %gs
	movq pm_saved_rsp(%rip), %rsp
	movl PM_FAULTED(%rbx), %eax
	popfq
	POP_CALLEE_SAVED
	ret

/* The switches' NMI handlers (arch/protected.c build_switch_idt): an
 * NMI there is survived and counted, nothing else; NMIs stay blocked
 * until the IRET (SDM vol. 3A §6.7.1). %ebx holds struct pm_data's
 * address in every window, and DS is flat in each 32-bit one; the
 * 64-bit handler addresses by %ebx too, since after paging is turned
 * back on the upper half of %rbx is undefined (SDM vol. 1 §3.4.1.1). */
	.code32
	.globl pm_nmi_survived32
pm_nmi_survived32:
	incl PM_SWITCH_NMIS(%ebx)
	iretl

	.code64
	.globl pm_nmi_survived64
pm_nmi_survived64:
	incl PM_SWITCH_NMIS(%ebx)
	iretq

	.code32
pm_job:
	movl %fs:PM_JOB, %eax
	cmpl $PM_JOB_SWEEP, %eax
	je pm_sweep
	cmpl $PM_JOB_REGISTERS, %eax
	je pm_registers
	cmpl $PM_JOB_SAMPLES, %eax
	je pm_samples
	ret

/* The wait's window, as arch/timing.S's WAIT_WINDOW: interrupts on for
 * one instruction boundary per iteration, \before at the top of each;
 * \clock 2 reads the counted pass's counter in place of the TSC. */
.macro PM_WAIT_WINDOW clock, before=PM_NOTHING
1:	\before \clock
	sti
	nop				/* a pending interrupt is taken here */
	cli
	.if \clock == 2
	movl %fs:PM_COUNTER, %ecx
	lfence
	rdpmc
	.else
	lfence
	rdtsc
	.endif
	lfence
	cmpl $0, %fs:PM_ARRIVED
	jne 2f
	cmpl %fs:PM_DEADLINE + 4, %edx
	jb 1b
	ja 2f
	cmpl %fs:PM_DEADLINE, %eax
	jb 1b
2:	movl %eax, %fs:PM_RESUME_TSC
	movl %edx, %fs:PM_RESUME_TSC + 4
.endm

.macro PM_NOTHING clock
.endm

.macro PM_READ_BEFORE_WINDOW clock
	.if \clock == 2
	PMC32_OPEN %fs:PM_TRIGGER_TSC, %fs:PM_TRIGGER_TSC + 4, %fs:PM_COUNTER
	.else
	TSC32_OPEN %fs:PM_TRIGGER_TSC, %fs:PM_TRIGGER_TSC + 4
	.endif
.endm

/* One interrupt on PM_VECTOR that an instruction does not raise itself,
 * timed as arch/timing.S times it in long mode, with the same
 * instructions between the reads, so the figures compare:
 *  - the xAPIC self-IPI (ipi_sample_mmio): the write to ICR low is the
 *    trigger;
 *  - the local APIC one-shot timer (wait_sample): the LVT takes the
 *    vector, TMICT the count, and the trigger is the last read before
 *    the window the interrupt came in.
 * Waits at most PM_BUDGET ticks (counts, counted); PM_ARRIVED 0
 * afterwards means it timed out. pm_wait_sample reads the TSC,
 * pm_wait_sample_counted the counter at PM_COUNTER, which takes ECX: it
 * keeps ICR's address in EBX instead, put back at the end. Clobbers EAX
 * ECX EDX EBP. */
.macro WAIT32_SAMPLE name, clock, icr
	.globl \name
\name:
	.if \clock == 2
	pushl %ebx
	movl %fs:PM_COUNTER, %ecx
	rdpmc
	.else
	rdtsc
	.endif
	addl %fs:PM_BUDGET, %eax
	adcl %fs:PM_BUDGET + 4, %edx
	movl %eax, %fs:PM_DEADLINE
	movl %edx, %fs:PM_DEADLINE + 4
	movl %fs:PM_ICR, \icr
	movl %fs:PM_ICR_VALUE, %ebp
	cmpl $PM_TRIGGER_TIMER, %fs:PM_TRIGGER
	je 3f
	orl %fs:PM_VECTOR, %ebp
	PM_READ_BEFORE_WINDOW \clock
	movl %ebp, (\icr)		/* the trigger */
	PM_WAIT_WINDOW \clock
	jmp 4f
3:	movl %fs:PM_LVT, %eax
	movl %fs:PM_VECTOR, %edx
	movl %edx, (%eax)		/* one-shot, unmasked, this vector */
	movl %ebp, (\icr)		/* armed */
	PM_WAIT_WINDOW \clock, PM_READ_BEFORE_WINDOW
4:
	.if \clock == 2
	popl %ebx
	.endif
	ret
.endm

	WAIT32_SAMPLE pm_wait_sample, 1, %ecx
	WAIT32_SAMPLE pm_wait_sample_counted, 2, %ebx

/* Copies one 64-bit timestamp into the sample at ESI. */
.macro PM_KEEP from, to
	movl %fs:\from, %eax
	movl %eax, \to(%esi)
	movl %fs:\from + 4, %eax
	movl %eax, \to + 4(%esi)
.endm

/* PM_COUNT timed samples into PM_SAMPLES; stops at one that never
 * arrived (PM_TIMED_OUT). */
pm_samples:
	movl %fs:PM_SELF, %esi
	addl $PM_SAMPLES, %esi
1:	movl %fs:PM_DONE, %edi
	cmpl %fs:PM_COUNT, %edi
	jae 4f
	movl $0, %fs:PM_ARRIVED
	cmpl $PM_TRIGGER_INT, %fs:PM_TRIGGER
	jne 2f
	call *%fs:PM_INT_SAMPLE
	jmp 3f
2:	call *%fs:PM_WAIT_SAMPLE
3:	cmpl $0, %fs:PM_ARRIVED
	je 5f
	PM_KEEP PM_TRIGGER_TSC, 0
	PM_KEEP PM_ENTRY, 8
	PM_KEEP PM_EXIT, 16
	PM_KEEP PM_RESUME_TSC, 24
	addl $PM_SAMPLE_BYTES, %esi
	incl %fs:PM_DONE
	jmp 1b
5:	movl $1, %fs:PM_TIMED_OUT
4:	ret

/* PM_COUNT vectors from 32 up, once each: PM_SWEEP_LAST[v] is the
 * vector the dispatch saw last, PM_DELIVERED counts per vector. It stops
 * at the first that did not arrive in time, whose PM_SWEEP_LAST stays 0. */
pm_sweep:
	movl $FIRST_IRQ_VECTOR, %edi
1:	movl $0, %fs:PM_ARRIVED
	movl $0, %fs:PM_LAST_VECTOR
	cmpl $PM_TRIGGER_INT, %fs:PM_TRIGGER
	jne 2f
	leal -FIRST_IRQ_VECTOR(%edi), %eax
	shll $2, %eax			/* PM_INT_TRIGGER_STRIDE */
	addl %fs:PM_INT_TRIGGERS, %eax
	call *%eax
	jmp 3f
2:	movl %edi, %fs:PM_VECTOR
	call pm_wait_sample
3:	cmpl $0, %fs:PM_ARRIVED
	je 4f				/* a lost one ends the sweep */
	movl %fs:PM_LAST_VECTOR, %eax
	movb %al, %fs:PM_SWEEP_LAST(%edi)
	incl %fs:PM_DONE
	incl %edi
	movl %fs:PM_COUNT, %eax
	addl $FIRST_IRQ_VECTOR, %eax
	cmpl %eax, %edi
	jb 1b
4:	ret

/* PM_COUNT interrupts on PM_VECTOR by INT n, each with every general
 * register, EFLAGS and the segment registers holding a known value;
 * PM_CHANGED[i] is 1 for each that came back different, and the check
 * stops at the first interrupt that changed one. */
.macro PM_LOAD reg, i
	movl $PM_PATTERN(\i), \reg
.endm
.macro PM_COMPARE reg, i
	cmpl $PM_PATTERN(\i), \reg
	setne %fs:PM_CHANGED + \i
.endm
.macro PM_ALL op
	\op %eax, 0
	\op %ebx, 1
	\op %ecx, 2
	\op %edx, 3
	\op %esi, 4
	\op %edi, 5
	\op %ebp, 6
.endm
.macro PM_SEGMENT seg, sel, i
	movl \seg, %eax
	cmpl $\sel, %eax
	setne %fs:PM_CHANGED + \i
.endm

pm_registers:
	movl %fs:PM_VECTOR, %eax
	subl $FIRST_IRQ_VECTOR, %eax
	shll $2, %eax
	addl %fs:PM_INT_TRIGGERS, %eax
	pushl %eax			/* the trigger, at 0(%esp) */
1:	movl %fs:PM_DONE, %eax
	cmpl %fs:PM_COUNT, %eax
	jae 2f
	pushl $PM_EFLAGS_PATTERN
	popfl
	PM_ALL PM_LOAD
	call *(%esp)
	pushfl
	PM_ALL PM_COMPARE
	popl %eax
	cmpl $PM_EFLAGS_PATTERN, %eax
	setne %fs:PM_CHANGED + 7
	cld
	PM_SEGMENT %ds, PM_SEL_DATA, 8
	PM_SEGMENT %es, PM_SEL_DATA, 9
	PM_SEGMENT %fs, PM_SEL_OWN, 10
	PM_SEGMENT %gs, PM_SEL_DATA, 11
	PM_SEGMENT %ss, PM_SEL_DATA, 12
	movl %fs:PM_CHANGED, %eax
	orl %fs:PM_CHANGED + 4, %eax
	orl %fs:PM_CHANGED + 8, %eax
	orl %fs:PM_CHANGED + 12, %eax
	jnz 2f
	incl %fs:PM_DONE
	jmp 1b
2:	popl %eax
	ret

/* An exception ends the trip: its vector, error code and EIP go to
 * pm_data, and the way back to long mode starts over from a fresh stack.
 * One entry per exception, as arch/exception_entry.S lays them out; NMI
 * has its own, which only counts it (noise, arch/noise.h). */
	.balign 16
	.globl pm_exception_stubs
pm_exception_stubs:
	vector = 0
	.rept EXCEPTION_VECTORS
0:	.if !VECTOR_HAS_ERROR_CODE(vector)
	pushl $0
	.endif
	pushl $vector
	jmp pm_fault
	.org 0b + 16, 0xcc
	vector = vector + 1
	.endr

pm_fault:
	movl $PM_SEL_OWN, %eax
	movl %eax, %fs
	popl %fs:PM_FAULT_VECTOR
	popl %fs:PM_FAULT_ERROR
	popl %fs:PM_FAULT_EIP
	popl %fs:PM_FAULT_CS
	movl $1, %fs:PM_FAULTED
	jmp pm_leave

	.globl pm_nmi_entry
pm_nmi_entry:
	incl %fs:PM_NMI_COUNT
	iretl

/* void pm_int_sample_<n>: one timed INT n, PM_INT_SAMPLE_STRIDE bytes
 * apart, as arch/timing.S's int_samples: the same instructions between
 * the reads. pm_int_samples read the TSC, pm_int_samples_counted the
 * counter at PM_COUNTER. */
	.section .text.irqlab.pm_int_samples, "ax"
.macro PM_INT_SAMPLES name, clock
	.balign PM_INT_SAMPLE_STRIDE
	.globl \name
\name:
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	.if \clock == 2
	PMC32_OPEN %fs:PM_TRIGGER_TSC, %fs:PM_TRIGGER_TSC + 4, %fs:PM_COUNTER
	int $vector
	PMC32_CLOSE %fs:PM_RESUME_TSC, %fs:PM_RESUME_TSC + 4, %fs:PM_COUNTER
	.else
	TSC32_OPEN %fs:PM_TRIGGER_TSC, %fs:PM_TRIGGER_TSC + 4
	int $vector
	TSC32_CLOSE %fs:PM_RESUME_TSC, %fs:PM_RESUME_TSC + 4
	.endif
	ret
	.org 0b + PM_INT_SAMPLE_STRIDE, 0xcc
	vector = vector + 1
	.endr
.endm

	PM_INT_SAMPLES pm_int_samples, 1
	PM_INT_SAMPLES pm_int_samples_counted, 2

/* A bare INT n per vector, for the sweep and the register check. */
	.balign PM_INT_TRIGGER_STRIDE
	.globl pm_int_triggers_table
pm_int_triggers_table:
	vector = FIRST_IRQ_VECTOR
	.rept IRQ_VECTORS
0:	int $vector
	ret
	.org 0b + PM_INT_TRIGGER_STRIDE, 0xcc
	vector = vector + 1
	.endr
	.globl pm_code_end
pm_code_end:
	.code64

	.data
	.balign 8
pm_saved_rsp:
	.quad 0
pm_saved_block:
	.quad 0

/* Every point the self-test raises INT 2 is one the C side counts. */
.if switch_nmi_windows != PM_SWITCH_NMI_WINDOWS
	.error "SWITCH_NMI_TEST's uses and PM_SWITCH_NMI_WINDOWS disagree"
.endif

	.section .note.GNU-stack, "", @progbits
