/* The speculative-execution mitigations a kernel runs on its interrupt
 * path, each as the sequence Linux runs (docs/mitigations.md names the
 * files and the version): assembly macros the entry variants
 * (arch/dispatch/variants.S) and the primitives (arch/primitives.S)
 * share, so the instruction timed in a block of 1024 is the one timed
 * inside a handler. Shared by C and assembly. */
#ifndef IRQLAB_ARCH_MITIGATIONS_H
#define IRQLAB_ARCH_MITIGATIONS_H

#define MSR_IA32_SPEC_CTRL 0x48
#define SPEC_CTRL_IBRS 1	/* bit 0 (SDM vol. 4, Table 2-2) */
#define MSR_IA32_PRED_CMD 0x49
#define PRED_CMD_IBPB 1		/* bit 0: a barrier, write-only */
#define MSR_IA32_ARCH_CAPABILITIES 0x10a

/* PTI's pair of top-level tables (Linux's PTI_USER_PGTABLE_AND_PCID_MASK):
 * the user copy is the kernel's plus 4 KiB, so bit 12 of CR3 switches
 * them, and with PCID bit 11 switches the user PCID from the kernel's.
 * Bit 63 of a CR3 write keeps the new PCID's TLB entries (SDM vol. 3
 * §4.10.4.1); with CR4.PCIDE clear it must be 0. */
#define PTI_SWITCH_MASK 0x1800
#define PTI_KERNEL_PCID 1
#define PTI_USER_PCID (PTI_KERNEL_PCID | 0x800)
#define CR3_NOFLUSH_BIT 63

/* The interrupted code's working set, re-touched after a flushing CR3
 * switch: one load per page. */
#define WORKING_SET_PAGES 32

/* The return-stack fill (Linux's RSB_CLEAR_LOOPS), in pairs of calls. */
#define RSB_FILL_ENTRIES 32

/* The steps of the "linux" variant, each a site patched on or off
 * (arch/dispatch/variants.S) as Linux's ALTERNATIVE patches its entry
 * code; bench/model/mitigations.c decides which Linux's defaults take
 * on this CPU. The branch-history loop and the return-buffer fill are
 * not steps: Linux runs them on system calls, VM exits and context
 * switches, not on an interrupt. */
#define LINUX_STEP_LFENCE_SWAPGS 0
#define LINUX_STEP_PTI_PCID 1
#define LINUX_STEP_PTI 2
#define LINUX_STEP_IBRS 3
#define LINUX_STEP_IBPB 4
#define LINUX_STEP_VERW 5
#define LINUX_STEPS 6
/* The linux variant's patch sites (LINUX_ENTRY and LINUX_EXIT,
 * arch/dispatch/variants.S): five on entry, four on exit, as the boot
 * tests read them from the listing (tests/boot/every_step.py). The
 * reports give their cost apart (docs/mitigations.md). */
#define LINUX_ENTRY_SITES 5
#define LINUX_EXIT_SITES 4

#ifdef __ASSEMBLER__

/* PTI's switch to the kernel table on entry (Linux's SWITCH_TO_KERNEL_CR3,
 * arch/x86/entry/calling.h): clear the user bits; with PCID, keep the
 * kernel PCID's TLB entries. Clobbers RAX. */
.macro PTI_TO_KERNEL pcid
	movq %cr3, %rax
	.if \pcid
	btsq $CR3_NOFLUSH_BIT, %rax
	.endif
	andq $~PTI_SWITCH_MASK, %rax
	movq %rax, %cr3
.endm

/* ... and back to the user table on exit (SWITCH_TO_USER_CR3_STACK),
 * without flushing where the user PCID's entries may stay. */
.macro PTI_TO_USER pcid
	movq %cr3, %rax
	.if \pcid
	btsq $CR3_NOFLUSH_BIT, %rax
	.endif
	orq $PTI_SWITCH_MASK, %rax
	movq %rax, %cr3
.endm

.macro PTI_PCID_ENTRY
	PTI_TO_KERNEL 1
.endm
.macro PTI_PCID_EXIT
	PTI_TO_USER 1
.endm
.macro PTI_FLUSH_ENTRY
	PTI_TO_KERNEL 0
.endm
.macro PTI_FLUSH_EXIT
	PTI_TO_USER 0
.endm

/* The interrupted code touching its working set again once the handler
 * has returned: a load per page, each a TLB refill after a flush. */
.macro WORKING_SET_TOUCH
	page = 0
	.rept WORKING_SET_PAGES
	movq working_set + page * 4096(%rip), %rax
	page = page + 1
	.endr
.endm
.macro PTI_FLUSH_EXIT_TOUCH
	PTI_FLUSH_EXIT
	WORKING_SET_TOUCH
.endm

/* IBRS on entry, the previous SPEC_CTRL on exit (Linux's IBRS_ENTER and
 * IBRS_EXIT, calling.h); the values are set up in C
 * (mitigations_prepare_ibrs). Clobber RAX, RCX and RDX. */
.macro SPEC_CTRL_WRITE value
	movl $MSR_IA32_SPEC_CTRL, %ecx
	movl \value(%rip), %eax
	movl \value+4(%rip), %edx
	wrmsr
.endm
.macro IBRS_ENTER
	SPEC_CTRL_WRITE spec_ctrl_kernel
.endm
.macro IBRS_EXIT
	SPEC_CTRL_WRITE spec_ctrl_user
.endm

/* The indirect branch prediction barrier (Linux's entry_ibpb,
 * entry_64.S). Clobbers RAX, RCX and RDX. */
.macro IBPB
	movl $MSR_IA32_PRED_CMD, %ecx
	movl $PRED_CMD_IBPB, %eax
	xorl %edx, %edx
	wrmsr
.endm

/* Linux's CLEAR_CPU_BUFFERS (nospec-branch.h): VERW with a memory
 * operand naming a writable data selector; with MD_CLEAR microcode it
 * also overwrites the CPU's buffers (Intel, "Microarchitectural Data
 * Sampling", 2019). Changes only ZF. */
.macro VERW_CLEAR
	verw mitigation_verw_selector(%rip)
.endm

/* Linux's clear_bhb_loop (entry_64.S since 6.9), called on entry: see
 * arch/mitigations.S. */
.macro BHB_CLEAR_5X5
	call bhb_clear_5x5
.endm
.macro BHB_CLEAR_12X7
	call bhb_clear_12x7
.endm

/* Spectre v1 through swapgs (Linux's FENCE_SWAPGS_USER_ENTRY): an LFENCE
 * after the swapgs, so no load runs ahead with the wrong GS base. */
.macro LFENCE_SWAPGS_ENTRY
	swapgs
	lfence
.endm

/* A step of Linux's set: a site that starts with a two-byte short jump
 * over the step, which mitigations_linux_prepare turns into a two-byte
 * NOP where the step is on, as Linux's ALTERNATIVE leaves a jump or NOPs
 * in its entry code (arch/x86/entry/calling.h). Under an
 * instruction-counting clock each site is one instruction either way.
 * The sites go to the section .data.irqlab.linux_sites of their file,
 * between LINUX_SITES_BEGIN and LINUX_SITES_END, each its address, step
 * and jump distance. */
.macro LINUX_STEP step, body
.Lsite\@:
	.byte 0xeb, .Lsite_end\@ - .Lsite\@ - 2
	\body
.Lsite_end\@:
	.pushsection .data.irqlab.linux_sites, "aw"
	.quad .Lsite\@
	.byte \step, .Lsite_end\@ - .Lsite\@ - 2
	.balign 8
	.popsection
.endm
.macro LINUX_SITES_BEGIN name
	.pushsection .data.irqlab.linux_sites, "aw"
	.balign 8
	.globl \name
\name:
	.popsection
.endm
.macro LINUX_SITES_END name
	.pushsection .data.irqlab.linux_sites, "aw"
	.globl \name
\name:
	.popsection
.endm

/* Linux's __FILL_RETURN_BUFFER (nospec-branch.h): RSB_FILL_ENTRIES
 * calls, each return address pointing at a speculation trap, the stack
 * put back two slots at a time, and an LFENCE against a mispredicted
 * loop branch. Clobbers RAX. */
.macro RSB_FILL
	movl $RSB_FILL_ENTRIES / 2, %eax
771:	call 772f
	int3
772:	call 773f
	int3
773:	addq $16, %rsp
	decl %eax
	jnz 771b
	lfence
.endm

#else

#include <stdint.h>

/* Why a sequence cannot run, where the CPUID bit it needs is 0: the
 * words both the live check below and the model's reading of the
 * recorded bits (bench/model/mitigations.c) give. */
#define MITIGATION_NO_PCID "CPUID.1:ECX[17] (PCID) is 0 on this CPU"
#define MITIGATION_NO_INTEL_SPEC_CTRL                                       \
	"CPUID.(7,0):EDX[26] (IBRS/IBPB, IA32_SPEC_CTRL) is 0 on this CPU"
#define MITIGATION_NO_INTEL_PRED_CMD                                        \
	"CPUID.(7,0):EDX[26] (IBRS/IBPB, IA32_PRED_CMD) is 0 on this CPU"
#define MITIGATION_NO_AMD_IBRS                                              \
	"CPUID.80000008H:EBX[14] (IBRS) is 0 on this CPU"
#define MITIGATION_NO_AMD_IBPB                                              \
	"CPUID.80000008H:EBX[12] (IBPB) is 0 on this CPU"

/* Why a sequence cannot run on this CPU, or NULL. */
const char *mitigation_no_pcid(void);
const char *mitigation_no_spec_ctrl(void);
const char *mitigation_no_ibpb(void);

/* Sets up and undoes what the sequences act on: PTI's pair of tables
 * (with CR4.PCIDE and the user PCID for the PCID form), and the two
 * SPEC_CTRL values IBRS switches between. */
void mitigations_pti_enter(int pcid);
void mitigations_pti_leave(void);
void mitigations_prepare_ibrs(void);
void mitigations_finish_ibrs(void);

/* The "linux" variant's steps (bit LINUX_STEP_*), set by the runner
 * from the model's rule before the variant's rows run. */
extern uint32_t mitigation_linux_steps;
/* Patches the variant's sites (every handler kind) to run the steps in
 * mitigation_linux_steps and jump over the others, and sets up what the
 * chosen steps act on; linux_finish undoes it. */
void mitigations_linux_prepare(void);
void mitigations_linux_finish(void);
/* Only the patching: every site runs the steps in `steps` (0: none). */
void mitigations_linux_patch(uint32_t steps);

/* The branch-history loops (arch/mitigations.S). */
void bhb_clear_5x5(void);
void bhb_clear_12x7(void);

#endif
#endif
