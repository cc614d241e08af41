/* One level-triggered line through the IO-APIC, and the acknowledgement
 * seed 004 timed: mask the pin, EOI the local APIC, quiet the device,
 * unmask the pin (Linux 2.6.12's mask_and_ack_level_ioapic_irq and
 * end_level_ioapic_irq), each IO-APIC access through the chosen strategy. */
#ifndef IRQLAB_APIC_LEVEL_LINE_H
#define IRQLAB_APIC_LEVEL_LINE_H

#include <stdint.h>

#include "apic/ioapic.h"
#include "apic/timers.h"

struct level_line {
	struct ioapic *io;
	unsigned pin;
	uint8_t vector;
	const struct hpet *hpet;
	unsigned timer;
	uint8_t x2apic;		/* which local APIC EOI */
	uint8_t directed_eoi;	/* SVR bit 12 set: EOI the IO-APIC too */
};

extern struct level_line level_line;

/* Called from the dispatch for the line's vector. */
void level_line_ack(void);

#endif
