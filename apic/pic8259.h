/* The legacy 8259 pair. irqlab masks it before taking interrupts, so a
 * stray legacy IRQ cannot land on an exception vector. */
#ifndef IRQLAB_APIC_PIC8259_H
#define IRQLAB_APIC_PIC8259_H

void pic8259_mask_all(void);

#endif
