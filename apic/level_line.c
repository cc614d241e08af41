#include "apic/level_line.h"

#include "apic/lapic.h"

struct level_line level_line;

void level_line_ack(void)
{
	struct level_line *l = &level_line;

	ioapic_mask(l->io, l->pin);
	if (l->x2apic)
		x2apic_eoi();
	else
		xapic_eoi();
	/* Without directed EOI the local APIC broadcasts the EOI, which
	 * clears Remote IRR; with it, the IO-APIC needs its own (SDM vol. 3
	 * §11.8.5). */
	if (l->directed_eoi)
		ioapic_level_eoi(l->io, l->pin, l->vector);
	hpet_clear(l->hpet, l->timer);
	ioapic_unmask(l->io, l->pin);
}
