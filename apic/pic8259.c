#include "apic/pic8259.h"

#include "arch/cpu.h"

#define PIC_MASTER_DATA 0x21
#define PIC_SLAVE_CMD 0xa0
#define PIC_SLAVE_DATA 0xa1
#define ICW1_INIT_ICW4 0x11	/* edge, cascade, ICW4 follows */
#define ICW4_8086 0x01

void pic8259_mask_all(void)
{
	/* OCW1: a set bit masks that IRQ line (docs/controllers.md). */
	outb(PIC_MASTER_DATA, 0xff);
	outb(PIC_SLAVE_DATA, 0xff);
}

void pic8259_init(uint8_t base, uint16_t unmasked)
{
	outb(PIC_MASTER_CMD, ICW1_INIT_ICW4);
	outb(PIC_SLAVE_CMD, ICW1_INIT_ICW4);
	outb(PIC_MASTER_DATA, base);			/* ICW2 */
	outb(PIC_SLAVE_DATA, (uint8_t)(base + 8));
	outb(PIC_MASTER_DATA, 1u << 2);		/* ICW3: slave on IRQ 2 */
	outb(PIC_SLAVE_DATA, 2);			/* ICW3: cascade id */
	outb(PIC_MASTER_DATA, ICW4_8086);
	outb(PIC_SLAVE_DATA, ICW4_8086);
	outb(PIC_MASTER_DATA, (uint8_t)~unmasked);
	outb(PIC_SLAVE_DATA, (uint8_t)(~unmasked >> 8));
}

void pic8259_eoi(void)
{
	outb(PIC_MASTER_CMD, OCW2_NONSPECIFIC_EOI);
}
