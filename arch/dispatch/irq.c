#include "irq.h"

struct irq_timing irq_timing;
uint32_t irq_delivered[256];

void irq_dispatch(struct irq_frame *f)
{
	irq_delivered[f->vector & 0xff]++;
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
