#include "arch/dispatch/irq.h"

uint32_t irq_delivered[256];
uint8_t irq_last_vector;
volatile uint8_t irq_fault_once;
volatile uint32_t irq_arrived;
uint8_t irq_ack;

void irq_reset_counts(void)
{
	unsigned i;

	for (i = 0; i < 256; i++)
		irq_delivered[i] = 0;
	/* A failure names the vector a row's own interrupt came on, never
	 * one left over from an earlier row. */
	irq_last_vector = 0;
}
