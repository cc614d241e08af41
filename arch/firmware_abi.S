/* void fpu_state_for_firmware(void)
 * UEFI calls expect the x87 control word 0x037F and MXCSR 0x1F80 (UEFI
 * spec §2.3.4; docs/uefi-variables.md). irqlab's own code never touches them, but a
 * runtime call must not depend on that. */
	.text
	.globl fpu_state_for_firmware
fpu_state_for_firmware:
	fninit			/* FCW = 0x037F */
	subq $8, %rsp
	movl $0x1f80, (%rsp)
	ldmxcsr (%rsp)
	addq $8, %rsp
	ret

	.section .note.GNU-stack, "", @progbits
