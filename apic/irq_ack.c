/* The C end of every dispatch scheme (declared in arch/dispatch/irq.h):
 * it counts the interrupt and acknowledges it at the controller the row
 * uses. It lives on the controllers' floor because acknowledging is
 * theirs; the calls are direct, not through the ops, because this is
 * the timed path (kvm-unit-tests lib/x86/apic.c keeps EOI direct too). */
#include "arch/cpu.h"
#include "arch/dispatch/irq.h"
#include "apic/lapic.h"
#include "apic/level_line.h"
#include "apic/pic8259.h"

void irq_dispatch(struct irq_frame *f)
{
	uint8_t vector = (uint8_t)f->vector;

	irq_delivered[vector]++;
	irq_last_vector = vector;
	irq_arrived = 1;
	/* Direct calls, not through the ops: this is the timed path. The
	 * spurious vector is never EOI'd (SDM vol. 3 §11.9). */
	if (vector != APIC_SPURIOUS_VECTOR) {
		switch (irq_ack) {
		case IRQ_ACK_XAPIC_EOI:
			xapic_eoi();
			break;
		case IRQ_ACK_X2APIC_EOI:
			x2apic_eoi();
			break;
		case IRQ_ACK_PIC8259:
			pic8259_eoi();
			break;
		case IRQ_ACK_LEVEL_LINE:
			level_line_ack();
			break;
		}
	}
	if (irq_fault_once) {
		irq_fault_once = 0;
		cpu_ud2();
	}
}
