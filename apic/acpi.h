/* ACPI table lookup: RSDP -> XSDT (or RSDT) -> a table by signature, with
 * checksums checked. Tables are read in place through the identity map. */
#ifndef IRQLAB_APIC_ACPI_H
#define IRQLAB_APIC_ACPI_H

#include <stddef.h>
#include <stdint.h>

struct __attribute__((packed)) acpi_sdt_header {
	char signature[4];
	uint32_t length;
	uint8_t revision;
	uint8_t checksum;
	char oem_id[6];
	char oem_table_id[8];
	uint32_t oem_revision;
	uint32_t creator_id;
	uint32_t creator_revision;
};
_Static_assert(sizeof(struct acpi_sdt_header) == 36, "ACPI SDT header");

/* Returns the table, or NULL if absent or its checksum is wrong. */
const struct acpi_sdt_header *acpi_find_table(const void *rsdp,
					      const char signature[4]);

/* FADT PM_TMR_BLK I/O port, or 0 if there is no PM timer in port space.
 * `pm_timer_32bit` tells whether it counts 32 bits (FADT TMR_VAL_EXT). */
uint16_t acpi_pm_timer_port(const struct acpi_sdt_header *fadt,
			    int *pm_timer_32bit);

/* MADT (signature "APIC") summary: the local APIC address (the 64-bit
 * override entry wins) and the number of IO-APICs. */
struct madt_summary {
	uint64_t lapic_address;
	uint32_t ioapic_count;
	uint32_t lapic_count;
};
int madt_summarize(const struct acpi_sdt_header *madt, struct madt_summary *s);

#define ACPI_PM_TIMER_HZ 3579545u

#endif
