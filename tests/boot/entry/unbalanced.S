/* Pushes without popping: the stack check names it. */
YOUR_ENTRY unbalanced, "pushq %rax on entry, no pop on exit"
	pushq %rax
YOUR_EXIT
	nop
YOUR_END
