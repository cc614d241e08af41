/* Defines its parts twice: refused when it is built. */
YOUR_ENTRY first, "once"
	nop
YOUR_EXIT
YOUR_END
YOUR_ENTRY second, "twice"
	nop
YOUR_EXIT
YOUR_END
