/* Linux 6.12's entry from user mode as a sequence, the worked example of
 * docs/your-entry.md. error_entry (arch/x86/entry/entry_64.S) saves the
 * registers with PUSH_AND_CLEAR_REGS (arch/x86/entry/calling.h), then
 * swapgs and SWITCH_TO_KERNEL_CR3 without PCID, RAX its scratch
 * register; swapgs_restore_regs_and_return_to_usermode takes them back:
 * POP_REGS but RDI, SWITCH_TO_USER_CR3_STACK with RDI and RAX, RDI,
 * swapgs. Left out: what Linux decides at run time (the IBRS, VERW and
 * return-thunk alternatives, which irqlab's `linux` row measures), the
 * trampoline stack, and the test of CS for a kernel-mode interrupt. */

YOUR_ENTRY linux-6.12-user, "PUSH_AND_CLEAR_REGS, swapgs, CR3 to the kernel table; POP_REGS, CR3 back, swapgs"
	/* PUSH_REGS: struct pt_regs from RDI down to R15 */
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq %rax
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %rbx
	pushq %rbp
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	/* CLEAR_REGS: no user value reaches speculation */
	xorl %esi, %esi
	xorl %edx, %edx
	xorl %ecx, %ecx
	xorl %r8d, %r8d
	xorl %r9d, %r9d
	xorl %r10d, %r10d
	xorl %r11d, %r11d
	xorl %ebx, %ebx
	xorl %ebp, %ebp
	xorl %r12d, %r12d
	xorl %r13d, %r13d
	xorl %r14d, %r14d
	xorl %r15d, %r15d
	swapgs
	/* SWITCH_TO_KERNEL_CR3 scratch_reg=%rax */
	movq %cr3, %rax
	andq $(~YOUR_PTI_SWITCH_MASK), %rax
	movq %rax, %cr3
YOUR_EXIT
	/* POP_REGS pop_rdi=0 */
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rax
	popq %rcx
	popq %rdx
	popq %rsi
	/* SWITCH_TO_USER_CR3_STACK scratch_reg=%rdi */
	pushq %rax
	movq %cr3, %rdi
	orq $YOUR_PTI_SWITCH_MASK, %rdi
	movq %rdi, %cr3
	popq %rax
	popq %rdi
	swapgs
YOUR_END
