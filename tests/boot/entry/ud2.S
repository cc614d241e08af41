/* Faults: the row names #UD and where in the exit part. */
YOUR_ENTRY ud2, "ud2 in the exit part"
	nop
YOUR_EXIT
	nop
	ud2
YOUR_END
