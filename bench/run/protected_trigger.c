#include "bench/run/protected_trigger.h"

#include "apic/lapic.h"
#include "arch/protected.h"

void protected_trigger_aim(const struct irq_source *src, uint8_t vector)
{
	int timer = src->protected_trigger == PM_TRIGGER_TIMER;

	pm.trigger = src->protected_trigger;
	pm.vector = vector;
	pm.int_sample = pm_int_sample_for(vector);
	pm.int_triggers = pm_int_triggers();
	/* Paging is off there: the xAPIC page by its physical address,
	 * which the identity map makes lapic_mmio's. */
	pm.icr = (uint32_t)(uintptr_t)&lapic_mmio[(timer ? APIC_TMICT
							 : APIC_ICR) / 4];
	pm.icr_value = timer ? LAPIC_ONESHOT_COUNT
			     : APIC_ICR_LEVEL_ASSERT | APIC_ICR_DEST_SELF;
	pm.lvt = (uint32_t)(uintptr_t)&lapic_mmio[APIC_LVT_TIMER / 4];
	pm.eoi = src->kind == SOURCE_RAISED_BY_INSTRUCTION ? 0 :
		 (uint32_t)(uintptr_t)&lapic_mmio[APIC_EOI / 4];
}
