/* Finding the per-vector trigger code that arch/timing.S lays out at fixed
 * strides, one entry per vector from FIRST_IRQ_VECTOR. */
#include "arch/timing.h"

struct irq_timing irq_timing;
/* Until the runner sets it from the TSC frequency: about a second on any
 * TSC from 1 to 4 GHz. */
uint64_t wait_budget_ticks = 1ull << 31;

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
