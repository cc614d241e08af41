/* An assembler error, which must be reported at this file's line 5. */
YOUR_ENTRY syntax-error, "a mistyped instruction"
	nop
	nop
	movq %rax,, %rbx
YOUR_EXIT
YOUR_END
