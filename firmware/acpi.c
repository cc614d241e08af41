#include "firmware/acpi.h"

#include "arch/lib/fmt.h"
#include "arch/lib/le.h"

static uint16_t read_u16(const void *base, size_t off)
{
	return (uint16_t)le_get((const uint8_t *)base + off, 2);
}

static uint32_t read_u32(const void *base, size_t off)
{
	return (uint32_t)le_get((const uint8_t *)base + off, 4);
}

static uint64_t read_u64(const void *base, size_t off)
{
	return le_get((const uint8_t *)base + off, 8);
}

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

	if (!rsdp || !bytes_eq(rsdp->signature, "RSD PTR ", 8) ||
	    !sum_is_zero(rsdp, 20))
		return 0;
	if (rsdp->revision >= 2 && rsdp->xsdt_address &&
	    (root = valid_table(rsdp->xsdt_address)) &&
	    bytes_eq(root->signature, "XSDT", 4)) {
		entry_size = 8;
	} else {
		root = valid_table(rsdp->rsdt_address);
		if (!root || !bytes_eq(root->signature, "RSDT", 4))
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
		if (t && bytes_eq(t->signature, signature, 4))
			return t;
	}
	return 0;
}

/* FADT offsets (ACPI 6.5 §5.2.9, Table 5.9). */
#define FADT_PM_TMR_BLK 76	/* u32 port */
#define FADT_PM_TMR_LEN 91	/* u8, 4 when present */
#define FADT_FLAGS 112		/* u32 */
#define FADT_FLAG_TMR_VAL_EXT (1u << 8)


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

const char *acpi_status_name(enum acpi_status s)
{
	switch (s) {
	case ACPI_OK:
		return "ok";
	case ACPI_TOO_SHORT:
		return "too short";
	case ACPI_BAD_SIGNATURE:
		return "wrong signature";
	case ACPI_BAD_LENGTH:
		return "length beyond the table";
	case ACPI_BAD_CHECKSUM:
		return "bad checksum";
	case ACPI_BAD_ENTRY:
		return "malformed entry";
	}
	return "unknown";
}



/* Header checks shared by every table: signature, length, checksum. */
static enum acpi_status check_table(const void *table, size_t available,
				    const char *signature, size_t min_length)
{
	const struct acpi_sdt_header *h = table;

	if (!table || available < sizeof(*h))
		return ACPI_TOO_SHORT;
	if (!bytes_eq(h->signature, signature, 4))
		return ACPI_BAD_SIGNATURE;
	if (h->length > available)
		return ACPI_BAD_LENGTH;
	if (h->length < min_length)
		return ACPI_TOO_SHORT;
	if (!sum_is_zero(table, h->length))
		return ACPI_BAD_CHECKSUM;
	return ACPI_OK;
}

/* MADT layout (ACPI 6.5 §5.2.12): entry types and their lengths. */
#define MADT_LAPIC_ADDRESS 36	/* u32 */
#define MADT_FLAGS 40		/* u32 */
#define MADT_ENTRIES 44
enum madt_entry {
	MADT_LAPIC = 0,			/* 8 bytes */
	MADT_IOAPIC = 1,		/* 12 */
	MADT_SOURCE_OVERRIDE = 2,	/* 10 */
	MADT_NMI_SOURCE = 3,		/* 8 */
	MADT_LAPIC_NMI = 4,		/* 6 */
	MADT_LAPIC_OVERRIDE = 5,	/* 12 */
	MADT_X2APIC = 9,		/* 16 */
	MADT_X2APIC_NMI = 10,		/* 12 */
};
#define MADT_ENABLED 1u		/* processor flags bit 0 */
#define MADT_ONLINE_CAPABLE 2u	/* bit 1 (ACPI 6.3+) */

static const uint8_t madt_entry_length[11] = {
	[MADT_LAPIC] = 8, [MADT_IOAPIC] = 12, [MADT_SOURCE_OVERRIDE] = 10,
	[MADT_NMI_SOURCE] = 8, [MADT_LAPIC_NMI] = 6, [MADT_LAPIC_OVERRIDE] = 12,
	[MADT_X2APIC] = 16, [MADT_X2APIC_NMI] = 12,
};

/* An enabled processor's APIC ID, once: firmware may list a CPU in
 * both kinds of entry. */
static void madt_running_cpu(struct madt_info *m, uint32_t apic_id)
{
	uint32_t i;

	for (i = 0; i < m->cpu_count && i < MADT_MAX_CPUS; i++)
		if (m->cpu_apic_id[i] == apic_id)
			return;
	if (m->cpu_count < MADT_MAX_CPUS)
		m->cpu_apic_id[m->cpu_count] = apic_id;
	m->cpu_count++;
	if (!apic_id_fits_xapic(apic_id) && !m->beyond_xapic_count++)
		m->first_beyond_xapic = apic_id;
}

/* A processor entry with neither flag: listed, never to be started. */
static void madt_absent_cpu(struct madt_info *m, uint32_t apic_id)
{
	if (m->absent_count < MADT_MAX_ABSENT)
		m->absent_apic_id[m->absent_count] = apic_id;
	m->absent_count++;
}

static void madt_entry(struct madt_info *m, const uint8_t *e)
{
	switch (e[0]) {
	case MADT_LAPIC:
		if (read_u32(e, 4) & (MADT_ENABLED | MADT_ONLINE_CAPABLE))
			m->lapic_count++;
		if (read_u32(e, 4) & MADT_ENABLED)
			madt_running_cpu(m, e[3]);
		else if (!(read_u32(e, 4) & MADT_ONLINE_CAPABLE))
			madt_absent_cpu(m, e[3]);
		break;
	case MADT_X2APIC:
		if (read_u32(e, 8) & (MADT_ENABLED | MADT_ONLINE_CAPABLE)) {
			m->lapic_count++;
			m->x2apic_count++;
		}
		if (read_u32(e, 8) & MADT_ENABLED)
			madt_running_cpu(m, read_u32(e, 4));
		else if (!(read_u32(e, 8) & MADT_ONLINE_CAPABLE))
			madt_absent_cpu(m, read_u32(e, 4));
		break;
	case MADT_IOAPIC:
		if (m->ioapic_count < MADT_MAX_IOAPICS) {
			m->ioapic[m->ioapic_count].id = e[2];
			m->ioapic[m->ioapic_count].address = read_u32(e, 4);
			m->ioapic[m->ioapic_count].gsi_base = read_u32(e, 8);
		}
		m->ioapic_count++;
		break;
	case MADT_SOURCE_OVERRIDE:
		if (m->override_count < MADT_MAX_OVERRIDES) {
			m->override[m->override_count].bus = e[2];
			m->override[m->override_count].source = e[3];
			m->override[m->override_count].gsi = read_u32(e, 4);
			m->override[m->override_count].flags = read_u16(e, 8);
		}
		m->override_count++;
		break;
	case MADT_NMI_SOURCE:
		if (m->nmi_source_count < MADT_MAX_NMIS) {
			m->nmi_source[m->nmi_source_count].flags = read_u16(e, 2);
			m->nmi_source[m->nmi_source_count].gsi = read_u32(e, 4);
		}
		m->nmi_source_count++;
		break;
	case MADT_LAPIC_NMI:
	case MADT_X2APIC_NMI:
		if (m->lapic_nmi_count < MADT_MAX_NMIS) {
			int x2 = e[0] == MADT_X2APIC_NMI;

			m->lapic_nmi[m->lapic_nmi_count].uid =
				x2 ? read_u32(e, 4) : e[2];
			m->lapic_nmi[m->lapic_nmi_count].flags =
				read_u16(e, x2 ? 2 : 3);
			m->lapic_nmi[m->lapic_nmi_count].lint = e[x2 ? 8 : 5];
		}
		m->lapic_nmi_count++;
		break;
	case MADT_LAPIC_OVERRIDE:
		m->lapic_address = read_u64(e, 4);
		break;
	}
}

enum acpi_status madt_parse(const void *table, size_t available,
			    struct madt_info *m)
{
	const uint8_t *p = table;
	enum acpi_status st;
	size_t off = MADT_ENTRIES, length;

	*m = (struct madt_info){ 0 };
	st = check_table(table, available, "APIC", MADT_ENTRIES);
	if (st != ACPI_OK)
		return st;
	length = ((const struct acpi_sdt_header *)table)->length;
	m->lapic_address = read_u32(p, MADT_LAPIC_ADDRESS);
	m->flags = read_u32(p, MADT_FLAGS);
	while (off < length) {
		uint8_t type, len;

		if (length - off < 2)
			return ACPI_BAD_ENTRY;
		type = p[off];
		len = p[off + 1];
		if (len < 2 || len > length - off ||
		    (type < sizeof(madt_entry_length) &&
		     len < madt_entry_length[type]))
			return ACPI_BAD_ENTRY;
		madt_entry(m, p + off);
		off += len;
	}
	return ACPI_OK;
}

uint32_t madt_isa_gsi(const struct madt_info *m, uint8_t irq, uint16_t *flags)
{
	uint32_t i;

	for (i = 0; i < m->override_count && i < MADT_MAX_OVERRIDES; i++)
		if (m->override[i].bus == 0 && m->override[i].source == irq) {
			*flags = m->override[i].flags;
			return m->override[i].gsi;
		}
	*flags = 0;	/* conforms to the bus: ISA is edge, active high */
	return irq;
}

/* HPET table offsets (IA-PC HPET 1.0a, Table 3). */
#define HPET_BLOCK_ID 36
#define HPET_BASE_SPACE 40	/* GAS address space id: 0 = memory */
#define HPET_BASE_ADDRESS 44
#define HPET_NUMBER 52
#define HPET_MIN_TICK 53
#define HPET_TABLE_LENGTH 56

enum acpi_status hpet_parse(const void *table, size_t available,
			    struct hpet_info *h)
{
	const uint8_t *p = table;
	enum acpi_status st;

	*h = (struct hpet_info){ 0 };
	st = check_table(table, available, "HPET", HPET_TABLE_LENGTH);
	if (st != ACPI_OK)
		return st;
	if (p[HPET_BASE_SPACE] != 0)
		return ACPI_BAD_ENTRY;	/* only memory-mapped HPETs exist */
	h->block_id = read_u32(p, HPET_BLOCK_ID);
	h->address = read_u64(p, HPET_BASE_ADDRESS);
	h->number = p[HPET_NUMBER];
	h->min_tick = read_u16(p, HPET_MIN_TICK);
	h->comparators = (uint8_t)(((h->block_id >> 8) & 0x1f) + 1);
	return ACPI_OK;
}

/* DMAR offsets (Intel VT-d spec §8.1, §8.3). */
#define DMAR_FLAGS 37
#define DMAR_STRUCTURES 48
#define DMAR_DRHD 0
#define DRHD_REGISTER_BASE 8
#define DRHD_LENGTH 16

enum acpi_status dmar_parse(const void *table, size_t available,
			    struct dmar_info *d)
{
	const uint8_t *p = table;
	enum acpi_status st;
	size_t off = DMAR_STRUCTURES, length;

	*d = (struct dmar_info){ 0 };
	st = check_table(table, available, "DMAR", DMAR_STRUCTURES);
	if (st != ACPI_OK)
		return st;
	length = ((const struct acpi_sdt_header *)table)->length;
	d->flags = p[DMAR_FLAGS];
	while (off < length) {
		uint16_t type, len;

		if (length - off < 4)
			return ACPI_BAD_ENTRY;
		type = read_u16(p, off);
		len = read_u16(p, off + 2);
		if (len < 4 || len > length - off ||
		    (type == DMAR_DRHD && len < DRHD_LENGTH))
			return ACPI_BAD_ENTRY;
		if (type == DMAR_DRHD) {
			if (d->units < DMAR_MAX_UNITS)
				d->register_base[d->units] =
					read_u64(p, off + DRHD_REGISTER_BASE);
			d->units++;
		}
		off += len;
	}
	return ACPI_OK;
}

/* SPCR offsets (Microsoft's SPCR specification, Table 3): the interface
 * type, the base address as a Generic Address Structure (ACPI 6.5
 * §5.2.3.2: space, register bit width, bit offset, access size,
 * address), and the configured baud rate's code. */
#define SPCR_INTERFACE_TYPE 36
#define SPCR_BASE_SPACE 40
#define SPCR_BASE_BIT_WIDTH 41
#define SPCR_BASE_ADDRESS 44
#define SPCR_BAUD 58
#define SPCR_TABLE_LENGTH 80

enum acpi_status spcr_parse(const void *table, size_t available,
			    struct spcr_info *c)
{
	static const uint32_t baud_of_code[8] = {
		[3] = 9600, [4] = 19200, [6] = 57600, [7] = 115200 };
	const uint8_t *p = table;
	enum acpi_status st;

	*c = (struct spcr_info){ 0 };
	st = check_table(table, available, "SPCR", SPCR_TABLE_LENGTH);
	if (st != ACPI_OK)
		return st;
	c->interface_type = p[SPCR_INTERFACE_TYPE];
	c->space = p[SPCR_BASE_SPACE];
	c->register_bits = p[SPCR_BASE_BIT_WIDTH];
	c->address = read_u64(p, SPCR_BASE_ADDRESS);
	/* 0 is "as is", as are codes the table does not define */
	c->baud = p[SPCR_BAUD] < 8 ? baud_of_code[p[SPCR_BAUD]] : 0;
	return ACPI_OK;
}
