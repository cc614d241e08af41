/* Its exit part switches section and never comes back: refused when it
 * is built, naming the exit part. */
YOUR_ENTRY leaves-exit, "a .pushsection not popped"
	nop
YOUR_EXIT
	.pushsection .data
	nop
YOUR_END
