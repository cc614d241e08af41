/* An instruction after YOUR_END: refused when it is built, since it
 * would be assembled into both parts. */
YOUR_ENTRY stray, "a nop outside the parts"
	nop
YOUR_EXIT
	nop
YOUR_END
	nop
