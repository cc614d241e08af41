/* How the 32-bit protected-mode phase raises a source's interrupt
 * (docs/protected-mode.md): its loops (struct pm_data, arch/protected.h)
 * are pointed at a source before each trip. */
#ifndef IRQLAB_BENCH_RUN_PROTECTED_TRIGGER_H
#define IRQLAB_BENCH_RUN_PROTECTED_TRIGGER_H

#include <stdint.h>

#include "bench/run/source.h"

/* Points the 32-bit phase's loops at `src` on `vector`: its trigger
 * (PM_TRIGGER_*) and the local APIC registers it writes. */
void protected_trigger_aim(const struct irq_source *src, uint8_t vector);

#endif
