/* The local APIC mode the runner is in, switched under the guard, and
 * what that means for a source: whether it runs now, and how its
 * interrupts are acknowledged. */
#ifndef IRQLAB_BENCH_RUN_APIC_MODE_H
#define IRQLAB_BENCH_RUN_APIC_MODE_H

#include <stdint.h>

#include "apic/lapic.h"
#include "bench/run/sources.h"

struct run_result;
struct madt_info;
/* Before the plan: whether the firmware locked x2APIC mode (or the
 * config simulates it), or left it on with processors xAPIC cannot name
 * in the MADT `m` (NULL: none usable), and the LVT CMCI entry, into r's
 * probes. Where either holds, the run stays in x2APIC mode: the xAPIC
 * pass is not tried, and the sources that prefer xAPIC run in x2APIC
 * mode. */
void apic_mode_probe(struct run_result *r, const struct madt_info *m);
int apic_mode_x2apic_only(void);

enum lapic_mode apic_mode_active(void);

/* Whether a switch to `mode` was tried. */
int apic_mode_tried(enum lapic_mode mode);

/* Switches the local APIC to `mode`. xAPIC must come before x2APIC:
 * leaving x2APIC needs the APIC disabled (SDM vol. 3 §11.12.5). */
void apic_mode_switch(enum lapic_mode mode);

/* Whether `src` can run in the active mode; if not, why. */
int source_runs_now(const struct irq_source *src);
const char *source_mode_reason(const struct irq_source *src);

/* Lets in whatever the local APIC still holds pending from a source just
 * stopped and ends it with a plain EOI. */
void drain_pending_interrupts(void);

/* How the dispatch acknowledges `src` in the active mode. */
uint8_t source_ack_now(const struct irq_source *src);

#endif
