/* A file of known length for the boot tests: 3 instructions on entry,
 * 2 on exit. */
YOUR_ENTRY nops-3-2, "three nops on entry, two on exit"
	nop
	nop
	nop
YOUR_EXIT
	nop
	nop
YOUR_END
