/* libFuzzer harness for the MADT parser: a table the firmware hands over
 * may be truncated or malformed; whatever parses must stay in bounds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "firmware/acpi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct madt_info m;
	uint16_t flags;
	unsigned irq;

	madt_parse(data, size, &m);
	if (m.ioapic_count > MADT_MAX_IOAPICS ||
	    m.override_count > MADT_MAX_OVERRIDES ||
	    m.lapic_nmi_count > MADT_MAX_NMIS)
		abort();
	/* Those xAPIC cannot name are among the enabled ones, the first
	 * of them past its last ID. */
	if (m.beyond_xapic_count > m.cpu_count ||
	    (m.beyond_xapic_count && apic_id_fits_xapic(m.first_beyond_xapic)))
		abort();
	for (irq = 0; irq < 16; irq++)
		(void)madt_isa_gsi(&m, (uint8_t)irq, &flags);
	return 0;
}
