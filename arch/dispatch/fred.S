/* Scheme "fred": FRED event delivery (docs/long-mode.md "FRED"). There
 * are no gates and no stubs: with CR4.FRED set, every event in ring 0,
 * interrupts and exceptions alike, enters at one address, the page named
 * by IA32_FRED_CONFIG plus FRED_RING0_ENTRY, with the vector and the
 * event type in the frame the CPU pushed. The entry reads the vector
 * from there, as the IDT schemes read it from a stub, and sends every
 * event that is no interrupt (exceptions, NMI, INT1, INT3) to irqlab's
 * exception handling, so a fault in a FRED row fails only that row, as
 * under the IDT. Interrupts end in the dispatch every scheme shares and
 * return with ERETS. */
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"
#include "arch/mitigations.h"

/* Event types 0 (external interrupt) and 4 (INT n) are interrupts; the
 * others, 2 (NMI), 3 (exception), 5 (INT1), 6 (INT3, INTO) and 7
 * (SYSCALL, SYSENTER), each have bit 0, 1 or 3 set. */
#define FRED_TYPE_NOT_INTERRUPT 0x0b

.macro SCHEME_BODY_EXITING id, timed, exit
	.section .text.irqlab.scheme.\id, "ax"
	.balign 4096
	.globl \id\()_page, \id\()_code, \id\()_code_end
\id\()_page:
	/* Events in ring 3 would enter here; irqlab never runs there. */
	ud2
	.org \id\()_page + FRED_RING0_ENTRY, 0xcc
\id\()_code:
	subq $8, %rsp		/* FRAME_VECTOR; the CPU pushed FRAME_ERROR */
	SAVE_GPRS
	testb $FRED_TYPE_NOT_INTERRUPT, FRAME_FRED_TYPE(%rsp)
	jnz fred_exception
	movzbl FRAME_FRED_VECTOR(%rsp), %eax
	movq %rax, FRAME_VECTOR(%rsp)
	DISPATCH_TAIL \timed, exit=\exit, return=FRED_RETURN
\id\()_code_end:
.endm

.macro SCHEME_BODY id, timed
	SCHEME_BODY_EXITING \id, \timed, NOTHING
.endm

/* Scheme "fred-linux": what Linux's FRED entry adds on this CPU
 * (docs/mitigations.md). It has no CR3 switch, no IBRS and no branch-
 * history step, and the CPU swaps GS itself: of Linux's set only VERW
 * before the return remains, a site patched as the linux variant's. */
.macro FRED_LINUX_EXIT
	LINUX_STEP LINUX_STEP_VERW, VERW_CLEAR
.endm
.macro SCHEME_BODY_LINUX id, timed
	SCHEME_BODY_EXITING \id, \timed, FRED_LINUX_EXIT
.endm

	SCHEME_EACH_KIND SCHEME_BODY, fred
	LINUX_SITES_BEGIN fred_linux_sites
	SCHEME_EACH_KIND SCHEME_BODY_LINUX, fred_linux
	LINUX_SITES_END fred_linux_sites_end

	.text
/* The exceptions' path under FRED: exception_dispatch sees the frame the
 * IDT's exception stubs build, and may point it at the guard's landing
 * point, which ERETS then returns to. */
fred_exception:
	movzbl FRAME_FRED_VECTOR(%rsp), %eax
	movq %rax, FRAME_VECTOR(%rsp)
	movq %rsp, %rdi		/* struct irq_frame * */
	cld
	call exception_dispatch
	FRED_RETURN

	.section .note.GNU-stack, "", @progbits
