/* Loses RBX: the register check names it. */
YOUR_ENTRY clobbers-rbx, "xorl %ebx, %ebx and nothing to put it back"
	xorl %ebx, %ebx
YOUR_EXIT
YOUR_END
