/* The gate floor's return (arch/dispatch/gate.S): the acknowledgement
 * irq_ack names, each with only the registers it needs, then iretq.
 * A compare on memory chooses, so no register is taken to choose.
 * Here rather than beside the gates because acknowledging is the
 * controllers' (as apic/irq_ack.c is the other schemes' end). */
#include "apic/lapic.h"
#include "apic/pic8259.h"
#include "arch/dispatch/irq.h"

	.text
	.balign 16
	.globl gate_ack
gate_ack:
	cmpb $IRQ_ACK_NONE, irq_ack(%rip)
	jne .Lxapic
	iretq
.Lxapic:
	cmpb $IRQ_ACK_XAPIC_EOI, irq_ack(%rip)
	jne .Lx2apic
	pushq %rax
	movq lapic_mmio(%rip), %rax
	movl $0, APIC_EOI(%rax)
	popq %rax
	iretq
.Lx2apic:
	cmpb $IRQ_ACK_X2APIC_EOI, irq_ack(%rip)
	jne .Lpic8259
	pushq %rax
	pushq %rcx
	pushq %rdx
	movl $MSR_X2APIC_BASE + APIC_EOI / 16, %ecx
	xorl %eax, %eax
	xorl %edx, %edx
	wrmsr
	popq %rdx
	popq %rcx
	popq %rax
	iretq
.Lpic8259:
	cmpb $IRQ_ACK_PIC8259, irq_ack(%rip)
	jne .Llevel_line
	pushq %rax
	movb $OCW2_NONSPECIFIC_EOI, %al
	outb %al, $PIC_MASTER_CMD
	popq %rax
	iretq
.Llevel_line:
	/* The level line's sequence is C (apic/level_line.c), and no
	 * source that needs it runs under the gate (bench/run/sources.c,
	 * every_scheme): reaching here is a fault of the plan's. */
	ud2

	.section .note.GNU-stack, "", @progbits
