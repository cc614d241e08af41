/* What the other processors run on an exception (arch/ap.h): a stub per
 * vector 0-31 that records it and parks the processor. Their IDT is
 * their own (arch/desc.c); the boot CPU's schemes are never installed
 * there, and their interrupt handler is the local APIC's
 * (apic/ap_interrupt.S). */
#include "arch/ap.h"

	.text
/* Exceptions 0-31, AP_FAULT_STUB_BYTES apart: the vector + 1 into the
 * processor's ap_cpu, then interrupts off and a pause loop, where the
 * boot CPU's INIT parks it. Nothing returns: an AP that faulted takes no
 * more part in the run. */
	.balign AP_FAULT_STUB_BYTES
	.globl ap_fault_stubs
ap_fault_stubs:
	.set vector, 0
	.rept 32
	.balign AP_FAULT_STUB_BYTES
	movl $(vector + 1), %gs:AP_CPU_FAULT
	jmp ap_fault_park
	.set vector, vector + 1
	.endr
ap_fault_park:
	cli
1:	pause
	jmp 1b

/* ap_call_on_stack(work, arg, stack_top): work(arg) on another stack,
 * back on the caller's. An AP's own stack is AP_STACK_BYTES; rows run
 * in the boot CPU's place need the deeper one it is given. */
	.globl ap_call_on_stack
ap_call_on_stack:
	pushq %rbp
	movq %rsp, %rbp
	movq %rdx, %rsp
	movq %rdi, %rax
	movq %rsi, %rdi
	call *%rax
	movq %rbp, %rsp
	popq %rbp
	ret

	.section .note.GNU-stack, "", @progbits
