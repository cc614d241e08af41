#include "bench/model/apic_reach.h"

#include "arch/lib/fmt.h"

const char *apic_reach_ipi_why(uint32_t apic_id, int x2apic, char *buf,
			       size_t cap)
{
	if (x2apic || apic_id_fits_xapic(apic_id))
		return 0;
	fmt_snprintf(buf, cap, "APIC id %u is past xAPIC's 8-bit "
		     "destinations (0-%u): it is reached in x2APIC mode only",
		     apic_id, XAPIC_LAST_ID);
	return buf;
}

const char *apic_reach_ioapic_why(uint32_t apic_id, char *buf, size_t cap)
{
	if (apic_id_fits_xapic(apic_id))
		return 0;
	fmt_snprintf(buf, cap, "APIC id %u is past the IO-APIC's 8-bit "
		     "destinations (0-%u): only interrupt remapping, left off, "
		     "reaches it", apic_id, XAPIC_LAST_ID);
	return buf;
}

const char *apic_reach_keeps_x2apic(const struct madt_info *m,
				    int firmware_x2apic, char *buf,
				    size_t cap)
{
	if (!m || !firmware_x2apic || !m->beyond_xapic_count)
		return 0;
	if (m->beyond_xapic_count == 1)
		fmt_snprintf(buf, cap, "the firmware left x2APIC on, and 1 "
			     "processor has an APIC id past xAPIC's %u (%u): "
			     "x2APIC kept", XAPIC_LAST_ID,
			     m->first_beyond_xapic);
	else
		fmt_snprintf(buf, cap, "the firmware left x2APIC on, and %u "
			     "processors have APIC ids past xAPIC's %u (the "
			     "first %u): x2APIC kept", m->beyond_xapic_count,
			     XAPIC_LAST_ID, m->first_beyond_xapic);
	return buf;
}
