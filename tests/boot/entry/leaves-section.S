/* Its entry part switches section and never comes back: refused when it
 * is built, since irqlab's code after it would be assembled there. */
YOUR_ENTRY leaves, "a .section not undone"
	.section .data
	nop
YOUR_EXIT
	nop
YOUR_END
