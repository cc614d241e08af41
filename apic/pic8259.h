/* The legacy 8259 pair. Masked whenever irqlab is not timing the XT-PIC
 * path itself, so a stray legacy IRQ cannot land on an exception vector. */
#ifndef IRQLAB_APIC_PIC8259_H
#define IRQLAB_APIC_PIC8259_H

/* The master's command port and the non-specific EOI (OCW2), which the
 * gate floor's acknowledgement (apic/gate_ack.S) writes too. */
#define PIC_MASTER_CMD 0x20
#define OCW2_NONSPECIFIC_EOI 0x20

#ifndef __ASSEMBLER__

#include <stdint.h>

void pic8259_mask_all(void);
/* ICW1-4: edge-triggered, cascaded, 8086 mode, IRQ 0-7 at `base`, 8-15 at
 * base + 8, everything masked but the IRQs in `unmasked` (bit per IRQ). */
void pic8259_init(uint8_t base, uint16_t unmasked);
/* Non-specific EOI to the master (docs/controllers.md). */
void pic8259_eoi(void);

#endif
#endif
