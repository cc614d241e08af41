#include "irq.h"

#include "../../apic/lapic.h"
#include "../../apic/level_line.h"
#include "../../apic/pic8259.h"

struct irq_timing irq_timing;
uint32_t irq_delivered[256];
uint8_t irq_last_vector;
volatile uint8_t irq_fault_once;
volatile uint32_t irq_arrived;
uint8_t irq_ack;

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
		__asm__ volatile("ud2");
	}
}

void irq_reset_counts(void)
{
	unsigned i;

	for (i = 0; i < 256; i++)
		irq_delivered[i] = 0;
}

#include "../timing.h"

extern const char int_samples[];

int_sample_fn int_sample_for(uint8_t vector)
{
	if (vector < FIRST_IRQ_VECTOR)
		return 0;
	return (int_sample_fn)(uintptr_t)(int_samples +
		(size_t)(vector - FIRST_IRQ_VECTOR) * INT_SAMPLE_STRIDE);
}

extern const char int_triggers[];
uint32_t int_registers_check(void (*trigger)(void));

uint32_t int_registers_intact(uint8_t vector)
{
	if (vector < FIRST_IRQ_VECTOR)
		return ~0u;
	return int_registers_check((void (*)(void))(uintptr_t)(int_triggers +
		(size_t)(vector - FIRST_IRQ_VECTOR) * INT_TRIGGER_STRIDE));
}

void int_trigger(uint8_t vector)
{
	if (vector >= FIRST_IRQ_VECTOR)
		((void (*)(void))(uintptr_t)(int_triggers +
			(size_t)(vector - FIRST_IRQ_VECTOR) * INT_TRIGGER_STRIDE))();
}
