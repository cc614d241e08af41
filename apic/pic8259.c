#include "pic8259.h"

#include "../arch/cpu.h"

#define PIC_MASTER_DATA 0x21
#define PIC_SLAVE_DATA 0xa1

void pic8259_mask_all(void)
{
	/* OCW1: a set bit masks that IRQ line (FACTS §4). */
	outb(PIC_MASTER_DATA, 0xff);
	outb(PIC_SLAVE_DATA, 0xff);
}
