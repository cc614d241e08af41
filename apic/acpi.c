#include "acpi.h"

struct __attribute__((packed)) acpi_rsdp {
	char signature[8];	/* "RSD PTR " */
	uint8_t checksum;	/* over the first 20 bytes */
	char oem_id[6];
	uint8_t revision;	/* 0: ACPI 1.0, RSDT only; 2+: XSDT */
	uint32_t rsdt_address;
	uint32_t length;
	uint64_t xsdt_address;
	uint8_t extended_checksum;
	uint8_t reserved[3];
};

static int sum_is_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum = (uint8_t)(sum + b[i]);
	return sum == 0;
}

static int sig_eq(const char *a, const char *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static const struct acpi_sdt_header *valid_table(uint64_t address)
{
	const struct acpi_sdt_header *h =
		(const struct acpi_sdt_header *)(uintptr_t)address;

	if (!h || h->length < sizeof(*h) || !sum_is_zero(h, h->length))
		return 0;
	return h;
}

const struct acpi_sdt_header *acpi_find_table(const void *rsdp_ptr,
					      const char signature[4])
{
	const struct acpi_rsdp *rsdp = rsdp_ptr;
	const struct acpi_sdt_header *root;
	unsigned entry_size, i, n;

	if (!rsdp || !sig_eq(rsdp->signature, "RSD PTR ", 8) ||
	    !sum_is_zero(rsdp, 20))
		return 0;
	if (rsdp->revision >= 2 && rsdp->xsdt_address &&
	    (root = valid_table(rsdp->xsdt_address)) &&
	    sig_eq(root->signature, "XSDT", 4)) {
		entry_size = 8;
	} else {
		root = valid_table(rsdp->rsdt_address);
		if (!root || !sig_eq(root->signature, "RSDT", 4))
			return 0;
		entry_size = 4;
	}
	n = (root->length - sizeof(*root)) / entry_size;
	for (i = 0; i < n; i++) {
		const uint8_t *e = (const uint8_t *)(root + 1) + i * entry_size;
		uint64_t address = 0;
		const struct acpi_sdt_header *t;
		unsigned b;

		for (b = 0; b < entry_size; b++)
			address |= (uint64_t)e[b] << (8 * b);
		t = valid_table(address);
		if (t && sig_eq(t->signature, signature, 4))
			return t;
	}
	return 0;
}

/* FADT offsets (ACPI 6.5 §5.2.9, Table 5.9). */
#define FADT_PM_TMR_BLK 76	/* u32 port */
#define FADT_PM_TMR_LEN 91	/* u8, 4 when present */
#define FADT_FLAGS 112		/* u32 */
#define FADT_FLAG_TMR_VAL_EXT (1u << 8)

static uint32_t read_u32(const void *base, size_t off)
{
	const uint8_t *p = (const uint8_t *)base + off;

	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint16_t acpi_pm_timer_port(const struct acpi_sdt_header *fadt,
			    int *pm_timer_32bit)
{
	uint32_t port;

	if (!fadt || fadt->length < FADT_FLAGS + 4)
		return 0;
	port = read_u32(fadt, FADT_PM_TMR_BLK);
	if (((const uint8_t *)fadt)[FADT_PM_TMR_LEN] != 4 || !port ||
	    port > 0xffff)
		return 0;
	*pm_timer_32bit = !!(read_u32(fadt, FADT_FLAGS) & FADT_FLAG_TMR_VAL_EXT);
	return (uint16_t)port;
}

/* MADT layout (ACPI 6.5 §5.2.12). */
#define MADT_LAPIC_ADDRESS 36	/* u32 */
#define MADT_ENTRIES 44
#define MADT_TYPE_LAPIC 0
#define MADT_TYPE_IOAPIC 1
#define MADT_TYPE_LAPIC_OVERRIDE 5
#define MADT_TYPE_X2APIC 9

int madt_summarize(const struct acpi_sdt_header *madt, struct madt_summary *s)
{
	const uint8_t *p = (const uint8_t *)madt;
	size_t off = MADT_ENTRIES;

	*s = (struct madt_summary){ 0 };
	if (!madt || madt->length < MADT_ENTRIES)
		return -1;
	s->lapic_address = read_u32(madt, MADT_LAPIC_ADDRESS);
	while (off + 2 <= madt->length) {
		uint8_t type = p[off], len = p[off + 1];

		if (len < 2 || off + len > madt->length)
			return -1;	/* malformed: stop, report what we have */
		if (type == MADT_TYPE_IOAPIC)
			s->ioapic_count++;
		else if (type == MADT_TYPE_LAPIC || type == MADT_TYPE_X2APIC)
			s->lapic_count++;
		else if (type == MADT_TYPE_LAPIC_OVERRIDE && len >= 12)
			s->lapic_address = read_u32(p, off + 4) |
					   (uint64_t)read_u32(p, off + 8) << 32;
		off += len;
	}
	return 0;
}
