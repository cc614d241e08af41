/* Entry-path variants (seeds 002, 003): dedicated handlers for the one
 * vector VARIANT_VECTOR, identical to a "direct" handler except for the
 * extra work each variant does on entry and on exit. The entry extra sits
 * between saving the registers and the entry timestamp, the exit extra
 * after the exit timestamp, so each lands in the metric it costs. The
 * "none" handler is the baseline the others are compared with. */
#include "arch/desc.h"
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"
#include "arch/mitigations.h"

/* seed 002: FreeBSD's form, no operand-size prefix. */
.macro SEG_MOV32
	movl $SEL_KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
.endm

/* seed 002: the 16-bit form; movw $imm16 has a length-changing prefix. */
.macro SEG_MOV16
	movw $SEL_KERNEL_DS, %ax
	movw %ax, %ds
	movw %ax, %es
.endm

/* seed 002 (John Baldwin's change): reload only when DS is not already
 * the kernel's. */
.macro SEG_CONDITIONAL
	movl %ds, %eax
	cmpl $SEL_KERNEL_DS, %eax
	je 1f
	movl $SEL_KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
1:
.endm

/* The 64-bit per-CPU base switch, on entry and again on exit. */
.macro GS_SWAPGS
	swapgs
.endm

/* The FSGSBASE form: save the interrupted base, install the per-CPU one,
 * put the saved one back on exit. */
.macro GS_WRGSBASE_ENTRY
	rdgsbase %rax
	movq %rax, variant_saved_gsbase(%rip)
	movq variant_percpu_base(%rip), %rax
	wrgsbase %rax
.endm
.macro GS_WRGSBASE_EXIT
	movq variant_saved_gsbase(%rip), %rax
	wrgsbase %rax
.endm

/* The i386-pda analogue (seed 003): load a per-CPU selector into GS and
 * reload the interrupted one on exit. \sel is the per-CPU descriptor's
 * selector: one in the same GDT line as the kernel CS, or one far away. */
.macro GS_SELECTOR_ENTRY sel
	movl %gs, %eax
	movl %eax, variant_saved_gs(%rip)
	movl $\sel, %eax
	movl %eax, %gs
.endm
.macro GS_SELECTOR_NEAR_ENTRY
	GS_SELECTOR_ENTRY SEL_PERCPU
.endm
.macro GS_SELECTOR_FAR_ENTRY
	GS_SELECTOR_ENTRY SEL_PERCPU_FAR
.endm
.macro GS_SELECTOR_EXIT
	movl variant_saved_gs(%rip), %eax
	movl %eax, %gs
.endm

/* The FRED-era form (seed 003 again): LKGS loads the per-CPU selector
 * and puts its descriptor's base in KERNEL_GS_BASE, which swapgs then
 * brings in; on exit swapgs puts the interrupted base back and LKGS
 * reloads the interrupted selector without touching GS.base. lkgs %ax is
 * F2 0F 00 F0, as bytes for assemblers that predate it. */
.macro LKGS_AX
	.byte 0xf2, 0x0f, 0x00, 0xf0
.endm
.macro GS_LKGS_ENTRY
	movl %gs, %eax
	movl %eax, variant_saved_gs(%rip)
	movl $SEL_PERCPU, %eax
	LKGS_AX
	swapgs
.endm
.macro GS_LKGS_EXIT
	swapgs
	movl variant_saved_gs(%rip), %eax
	LKGS_AX
.endm

/* The order Linux's entry from user mode takes (entry_64.S, calling.h):
 * swapgs and its fence, the CR3 switch, then with the registers saved
 * IBRS and an entry IBPB; on the way out IBRS off, CR3 back, swapgs,
 * and VERW just before the return. */
.macro LINUX_ENTRY
	swapgs
	LINUX_STEP LINUX_STEP_LFENCE_SWAPGS, lfence
	LINUX_STEP LINUX_STEP_PTI_PCID, PTI_PCID_ENTRY
	LINUX_STEP LINUX_STEP_PTI, PTI_FLUSH_ENTRY
	LINUX_STEP LINUX_STEP_IBRS, IBRS_ENTER
	LINUX_STEP LINUX_STEP_IBPB, IBPB
.endm
.macro LINUX_EXIT
	LINUX_STEP LINUX_STEP_IBRS, IBRS_EXIT
	LINUX_STEP LINUX_STEP_PTI_PCID, PTI_PCID_EXIT
	LINUX_STEP LINUX_STEP_PTI, PTI_FLUSH_EXIT
	swapgs
	LINUX_STEP LINUX_STEP_VERW, VERW_CLEAR
.endm

/* variant_NAME takes the entry and exit timestamps, variant_NAME_bare
 * none, variant_NAME_counted the counted ones (SCHEME_EACH_KIND in irq.h
 * says why). */
.macro VARIANT_HANDLER_BODY name, timed, entry, exit
	.balign 16
	.globl variant_\name
variant_\name:
	pushq $0		/* FRAME_ERROR */
	pushq $VARIANT_VECTOR	/* FRAME_VECTOR */
	SAVE_GPRS
	DISPATCH_TAIL \timed, \entry, \exit
.endm
.macro VARIANT_HANDLER name, entry, exit
	VARIANT_HANDLER_BODY \name, tsc, \entry, \exit
	VARIANT_HANDLER_BODY \name\()_bare, none, \entry, \exit
	VARIANT_HANDLER_BODY \name\()_counted, pmc, \entry, \exit
.endm

	.section .text.irqlab.variants, "ax"
VARIANT_HANDLER none, NOTHING, NOTHING
VARIANT_HANDLER seg_mov32, SEG_MOV32, NOTHING
VARIANT_HANDLER seg_mov16, SEG_MOV16, NOTHING
VARIANT_HANDLER seg_conditional, SEG_CONDITIONAL, NOTHING
VARIANT_HANDLER gs_swapgs, GS_SWAPGS, GS_SWAPGS
VARIANT_HANDLER gs_wrgsbase, GS_WRGSBASE_ENTRY, GS_WRGSBASE_EXIT
VARIANT_HANDLER gs_selector_near, GS_SELECTOR_NEAR_ENTRY, GS_SELECTOR_EXIT
VARIANT_HANDLER gs_lkgs, GS_LKGS_ENTRY, GS_LKGS_EXIT
VARIANT_HANDLER gs_selector_far, GS_SELECTOR_FAR_ENTRY, GS_SELECTOR_EXIT
VARIANT_HANDLER touch, NOTHING, WORKING_SET_TOUCH
VARIANT_HANDLER pti_cr3_pcid, PTI_PCID_ENTRY, PTI_PCID_EXIT
VARIANT_HANDLER pti_cr3, PTI_FLUSH_ENTRY, PTI_FLUSH_EXIT
VARIANT_HANDLER pti_cr3_touch, PTI_FLUSH_ENTRY, PTI_FLUSH_EXIT_TOUCH
VARIANT_HANDLER ibrs, IBRS_ENTER, IBRS_EXIT
VARIANT_HANDLER ibpb, IBPB, NOTHING
VARIANT_HANDLER verw, NOTHING, VERW_CLEAR
VARIANT_HANDLER bhb_clear_5x5, BHB_CLEAR_5X5, NOTHING
VARIANT_HANDLER bhb_clear_12x7, BHB_CLEAR_12X7, NOTHING
VARIANT_HANDLER lfence_swapgs, LFENCE_SWAPGS_ENTRY, GS_SWAPGS
VARIANT_HANDLER rsb_fill, RSB_FILL, NOTHING

	LINUX_SITES_BEGIN linux_sites
/* "linux_set": the preprocessor defines `linux` as 1. */
VARIANT_HANDLER linux_set, LINUX_ENTRY, LINUX_EXIT
	LINUX_SITES_END linux_sites_end

	.data
	.balign 8
	.globl variant_percpu_base
variant_saved_gsbase:
	.quad 0
variant_percpu_base:
	.quad 0
variant_saved_gs:
	.long 0

	.section .note.GNU-stack, "", @progbits
