/* Defines no parts: refused when it is built. */
	nop
