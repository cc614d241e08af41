/* Processors whose APIC IDs xAPIC cannot name (firmware/acpi.h,
 * XAPIC_LAST_ID): which ways of reaching a processor fail for them, and
 * the reasons the runner gives where it skips a row for it, or stays in
 * x2APIC mode (docs/controllers.md "Processors beyond APIC ID 254").
 * Plain C, host-built too. */
#ifndef IRQLAB_BENCH_MODEL_APIC_REACH_H
#define IRQLAB_BENCH_MODEL_APIC_REACH_H

#include <stddef.h>
#include <stdint.h>

#include "firmware/acpi.h"

/* Why the local APIC, in x2APIC mode (`x2apic`) or in xAPIC mode,
 * cannot send an IPI to `apic_id`, written into `buf`; NULL where it
 * can. */
const char *apic_reach_ipi_why(uint32_t apic_id, int x2apic, char *buf,
			       size_t cap);

/* Why an IO-APIC line cannot be routed to `apic_id`, written into
 * `buf`; NULL where it can. Its redirection entry holds an 8-bit
 * destination in either local APIC mode; only interrupt remapping,
 * which irqlab leaves off, reaches beyond it. */
const char *apic_reach_ioapic_why(uint32_t apic_id, char *buf, size_t cap);

/* Why the run stays in x2APIC mode and runs no xAPIC pass, written into
 * `buf`; NULL where it may leave x2APIC. It stays where the firmware
 * left the local APIC in x2APIC mode and the MADT lists processors xAPIC
 * cannot name: they were started in x2APIC mode, an INIT keeps them in
 * it (SDM vol. 3A §11.12.5.1), and a firmware that enables them hands
 * over in x2APIC mode for that reason (§11.12.8.1). */
const char *apic_reach_keeps_x2apic(const struct madt_info *m,
				    int firmware_x2apic, char *buf,
				    size_t cap);

#endif
