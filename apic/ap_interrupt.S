/* The other processors' interrupt handler, for every vector 32-255
 * (apic/ap_interrupt.h). The EOI first, then the answer: a fixed IPI
 * back, built from the words the boot CPU set before it sent (SDM vol.
 * 3A §11.6.1: in xAPIC mode ICR high first, the write to ICR low sends;
 * in x2APIC mode one WRMSR, §11.12.9), or a count in ap_acks, the shape
 * of a TLB shootdown's acknowledgement. Each AP counts what it took in
 * its own ap_cpu, through GS, with the TSC it read first.
 *
 * The xAPIC reply does not first read the ICR until its Delivery Status
 * is idle, as Linux does before every xAPIC ICR write: it is timed (the
 * ipi-ack and one-way figures, and the clock offsets measured from
 * them, docs/cross-cpu.md), as the boot CPU's timed sends are
 * (lapic_icr_write), and it is idle by construction: the sender takes
 * this AP's last reply before it sends again. The wake-ups, which are
 * not timed, wait (other_cpus_send). */
#include "apic/lapic.h"
#include "arch/ap.h"

	.data
	.balign 64
	.globl ap_reply_icr, ap_reply_dest, ap_reply_x2apic
	.globl ap_reply_ack_only, ap_acks
ap_reply_icr:		.long 0
ap_reply_dest:		.long 0
ap_reply_x2apic:	.long 0
ap_reply_ack_only:	.long 0
	.balign 64		/* the acks' line is written by every AP */
ap_acks:		.long 0
	.balign 64

/* The handler's body: with_eoi 1 for an interrupt, 0 for an NMI, which
 * takes none (SDM vol. 3A §11.8.5). */
.macro ANSWER with_eoi
	pushq %rax
	pushq %rcx
	pushq %rdx
	rdtsc				/* the one-way rows' arrival */
	shlq $32, %rdx
	orq %rdx, %rax
	movq %rax, %gs:AP_CPU_ENTRY_TSC
	incl %gs:AP_CPU_INTERRUPTS
	cmpl $0, ap_reply_x2apic(%rip)
	jne 2f
	movq lapic_mmio(%rip), %rax
	.if \with_eoi
	movl $0, APIC_EOI(%rax)
	.endif
	cmpl $0, ap_reply_ack_only(%rip)
	jne 3f
	movl ap_reply_dest(%rip), %ecx
	shll $24, %ecx
	movl %ecx, APIC_ICR2(%rax)
	movl ap_reply_icr(%rip), %ecx
	movl %ecx, APIC_ICR(%rax)
	jmp 4f
2:
	.if \with_eoi
	movl $(MSR_X2APIC_BASE + APIC_EOI / 16), %ecx
	xorl %eax, %eax
	xorl %edx, %edx
	wrmsr
	.endif
	cmpl $0, ap_reply_ack_only(%rip)
	jne 3f
	movl $(MSR_X2APIC_BASE + APIC_ICR / 16), %ecx
	movl ap_reply_icr(%rip), %eax
	movl ap_reply_dest(%rip), %edx
	wrmsr
	jmp 4f
3:	lock incl ap_acks(%rip)
4:	popq %rdx
	popq %rcx
	popq %rax
	iretq
.endm

	.text
	.balign 16
	.globl ap_interrupt
ap_interrupt:
	ANSWER 1

/* An NMI, on the processor's IST1 stack (its TSS, arch/desc.c): the
 * same answer, without the EOI. */
	.balign 16
	.globl ap_nmi
ap_nmi:
	ANSWER 0

/* The wake-up IPI (WAKE_VECTOR, bench/run/other_cpus_command.h), which
 * takes a processor out of HLT to read a new command: its EOI and a
 * count in the processor's own `wakes`, never an answer nor an ack, so
 * that `interrupts` and ap_acks count a row's own IPIs alone. */
	.balign 16
	.globl ap_wake
ap_wake:
	pushq %rax
	pushq %rcx
	pushq %rdx
	incl %gs:AP_CPU_WAKES
	cmpl $0, ap_reply_x2apic(%rip)
	jne 1f
	movq lapic_mmio(%rip), %rax
	movl $0, APIC_EOI(%rax)
	jmp 2f
1:	movl $(MSR_X2APIC_BASE + APIC_EOI / 16), %ecx
	xorl %eax, %eax
	xorl %edx, %edx
	wrmsr
2:	popq %rdx
	popq %rcx
	popq %rax
	iretq

/* The local APIC's spurious vector: no EOI, no answer (SDM vol. 3A
 * §11.9). */
	.globl ap_spurious
ap_spurious:
	iretq

	.section .note.GNU-stack, "", @progbits
