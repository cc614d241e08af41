/* The registers a SysV function must give back as it found them: RBX,
 * RBP and R12-R15 (System V AMD64 psABI §3.2.1, "Registers"). Assembly
 * that calls out through a guard, clobbers them on purpose, or leaves
 * 64-bit mode (whose upper halves are then lost) saves them with these. */
#ifndef IRQLAB_ARCH_CALLEE_SAVED_H
#define IRQLAB_ARCH_CALLEE_SAVED_H

#ifdef __ASSEMBLER__

.macro PUSH_CALLEE_SAVED
	pushq %rbx
	pushq %rbp
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
.endm

.macro POP_CALLEE_SAVED
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
.endm

#endif
#endif
