/* int guard_enter(void (*fn)(void *), void *arg)
 * Calls fn(arg) with the callee-saved registers and RSP recorded, so an
 * exception handler can abandon fn by returning (iretq) to guard_recover
 * on the recorded stack. Returns 0 when fn returned, 1 when abandoned. */
#include "arch/callee_saved.h"

	.text
	.globl guard_enter, guard_recover, guard_saved_rsp
guard_enter:
	PUSH_CALLEE_SAVED
	subq $8, %rsp		/* 16-byte alignment at the call below */
	movq %rsp, guard_saved_rsp(%rip)
	movq %rdi, %rax
	movq %rsi, %rdi
	call *%rax
	xorl %eax, %eax
guard_leave:
	movq $0, guard_saved_rsp(%rip)
	addq $8, %rsp
	POP_CALLEE_SAVED
	ret

/* The exception handler's iretq lands here with RSP = guard_saved_rsp. */
guard_recover:
	movl $1, %eax
	jmp guard_leave

	.data
	.balign 8
guard_saved_rsp:
	.quad 0

	.section .note.GNU-stack, "", @progbits
