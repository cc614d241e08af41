/* A file of known length for the boot tests, through the scratch area
 * GS points at: 4 instructions on entry, 1 on exit. */
YOUR_ENTRY scratch-4-1, "a count kept in the scratch area, RBX saved"
	pushq %rbx
	movq %gs:8, %rbx
	addq $1, %rbx
	movq %rbx, %gs:8
YOUR_EXIT
	popq %rbx
YOUR_END
