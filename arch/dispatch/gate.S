/* Scheme "gate": the gate's own floor. Per vector only what delivery
 * needs to be seen and answered: the count the vector sweep reads, the
 * flag the waits read, the acknowledgement the row's source needs
 * (gate_ack, apic/gate_ack.S), and iretq. No register saves, no C
 * dispatch: the least an interrupt can cost on this CPU, which every
 * other scheme stands above (docs/long-mode.md "The gate's floor"). The
 * timed handlers keep only the registers their timestamps clobber, and
 * count the vector between them, as the others run their dispatch. */
#include "arch/frame.h"
#include "arch/dispatch/irq.h"
#include "arch/dispatch/schemes.h"

.macro GATE_HANDLER vector, timed
	.ifnc \timed, none
	pushq %rax
	pushq %rdx
	.ifc \timed, pmc
	pushq %rcx
	.endif
	TIMESTAMP_ENTRY \timed
	.endif
	incl irq_delivered + 4 * \vector(%rip)
	movl $1, irq_arrived(%rip)
	.ifnc \timed, none
	TIMESTAMP_EXIT \timed
	.ifc \timed, pmc
	popq %rcx
	.endif
	popq %rdx
	popq %rax
	.endif
	.if \vector == APIC_SPURIOUS_VECTOR
	iretq			/* never acknowledged */
	.else
	jmp gate_ack
	.endif
.endm

.macro SCHEME_BODY id, timed
	HANDLER_PER_VECTOR \id, \timed, GATE_STRIDE, GATE_HANDLER
.endm

	SCHEME_EACH_KIND SCHEME_BODY, gate

	.section .note.GNU-stack, "", @progbits
