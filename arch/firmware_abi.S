/* void cpu_shadow_stack_on(uint64_t *token): arch/cpu.h.
 * The order the SDM requires: CR4.CET only with CR0.WP set (vol. 3A
 * §2.5); SETSSBSY only with shadow stacks on at CPL 0, where it checks
 * the supervisor shadow-stack token at IA32_PL0_SSP (its own address,
 * busy bit 0), marks it busy and loads SSP with that address (vol. 1
 * ch. 17, "Supervisor Shadow Stack Token"; vol. 2B, SETSSBSY). A RET
 * now would compare its return address with the token and raise #CP:
 * the return address is popped and jumped to instead. */
#define MSR_S_CET 0x6a2
#define MSR_PL0_SSP 0x6a4
#define S_CET_SH_STK_EN 1
#define CR0_WP (1 << 16)
#define CR4_CET (1 << 23)
	.text
	.globl cpu_shadow_stack_on
cpu_shadow_stack_on:
	popq %r8		/* the caller's return address */
	movl $MSR_PL0_SSP, %ecx
	movq %rdi, %rax
	movq %rdi, %rdx
	shrq $32, %rdx
	wrmsr
	movq %cr0, %rax
	orq $CR0_WP, %rax
	movq %rax, %cr0
	movq %cr4, %rax
	orq $CR4_CET, %rax
	movq %rax, %cr4
	movl $MSR_S_CET, %ecx
	movl $S_CET_SH_STK_EN, %eax
	xorl %edx, %edx
	wrmsr
	setssbsy
	jmp *%r8

	.section .note.GNU-stack, "", @progbits
