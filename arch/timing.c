/* Finding the per-vector trigger code that arch/timing.S lays out at fixed
 * strides, one entry per vector from FIRST_IRQ_VECTOR, and the trigger
 * side of the instrument sample_counted selects. */
#include "arch/timing.h"

struct irq_timing irq_timing;
/* Until the runner sets it from the TSC frequency: about a second on any
 * TSC from 1 to 4 GHz. */
uint64_t wait_budget_ticks = 1ull << 31;
uint64_t wait_budget_counts = 1ull << 34;
uint32_t pmc_counter;
uint8_t sample_counted;

/* arch/timing.S: each once per instrument. */
extern const char int_samples_tsc[], int_samples_pmc[];
void ipi_sample_mmio_tsc(struct irq_sample *out, volatile uint32_t *icr,
			 uint32_t value);
void ipi_sample_mmio_pmc(struct irq_sample *out, volatile uint32_t *icr,
			 uint32_t value);
void ipi_sample_msr_tsc(struct irq_sample *out, uint32_t msr, uint64_t value);
void ipi_sample_msr_pmc(struct irq_sample *out, uint32_t msr, uint64_t value);
void wait_sample_tsc(struct irq_sample *out);
void wait_sample_pmc(struct irq_sample *out);

int_sample_fn int_sample_for(uint8_t vector)
{
	const char *samples = sample_counted ? int_samples_pmc : int_samples_tsc;

	if (vector < FIRST_IRQ_VECTOR)
		return 0;
	return (int_sample_fn)(uintptr_t)(samples +
		(size_t)(vector - FIRST_IRQ_VECTOR) * INT_SAMPLE_STRIDE);
}

void ipi_sample_mmio(struct irq_sample *out, volatile uint32_t *icr,
		     uint32_t value)
{
	(sample_counted ? ipi_sample_mmio_pmc : ipi_sample_mmio_tsc)(out, icr,
								      value);
}

void ipi_sample_msr(struct irq_sample *out, uint32_t msr, uint64_t value)
{
	(sample_counted ? ipi_sample_msr_pmc : ipi_sample_msr_tsc)(out, msr,
								    value);
}

void wait_sample(struct irq_sample *out)
{
	(sample_counted ? wait_sample_pmc : wait_sample_tsc)(out);
}

uint32_t gap_loop_tsc(uint64_t *gaps, uint32_t want, uint64_t threshold,
		      uint64_t iterations);
uint32_t gap_loop_pmc(uint64_t *gaps, uint32_t want, uint64_t threshold,
		      uint64_t iterations);

uint32_t gap_loop(uint64_t *gaps, uint32_t want, uint64_t threshold,
		  uint64_t iterations)
{
	return (sample_counted ? gap_loop_pmc : gap_loop_tsc)(gaps, want,
							      threshold,
							      iterations);
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
