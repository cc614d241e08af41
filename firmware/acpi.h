/* ACPI table lookup: RSDP -> XSDT (or RSDT) -> a table by signature, with
 * checksums checked. Tables are read in place through the identity map. */
#ifndef IRQLAB_FIRMWARE_ACPI_H
#define IRQLAB_FIRMWARE_ACPI_H

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

enum acpi_status {
	ACPI_OK = 0,
	ACPI_TOO_SHORT,		/* fewer bytes than the table needs */
	ACPI_BAD_SIGNATURE,
	ACPI_BAD_LENGTH,	/* header length beyond what is there */
	ACPI_BAD_CHECKSUM,
	ACPI_BAD_ENTRY,		/* an entry runs past the table or is too short */
};
const char *acpi_status_name(enum acpi_status s);

/* xAPIC names a processor by an 8-bit physical destination, and FFH
 * there is the broadcast to all (SDM vol. 3A §11.6.2.1): it reaches APIC
 * IDs 0-254 one by one. A processor with a larger ID is reached in
 * x2APIC mode only (its 32-bit destination, §11.12.9); ACPI lists it in
 * a local x2APIC entry (ACPI 6.5 §5.2.12.12). The IO-APIC's redirection
 * entry holds the same 8 bits (82093AA datasheet, IOREDTBL bits 63:56). */
#define XAPIC_LAST_ID 0xfeu
static inline int apic_id_fits_xapic(uint32_t apic_id)
{
	return apic_id <= XAPIC_LAST_ID;
}

#define MADT_MAX_IOAPICS 8
#define MADT_MAX_CPUS 512
#define MADT_MAX_ABSENT 8
#define MADT_MAX_OVERRIDES 16
#define MADT_MAX_NMIS 8

/* Everything irqlab uses from the MADT (ACPI 6.5 §5.2.12). */
struct madt_info {
	uint64_t lapic_address;	/* the 64-bit override entry wins */
	uint32_t flags;		/* bit 0 PCAT_COMPAT: dual 8259s present */
	uint32_t lapic_count;	/* enabled processor entries, both kinds */
	uint32_t x2apic_count;	/* of which x2APIC entries */
	/* The processors running now (enabled), by APIC ID, each once:
	 * cpu_count may exceed MADT_MAX_CPUS, the IDs are kept up to it. */
	uint32_t cpu_count;
	uint32_t cpu_apic_id[MADT_MAX_CPUS];
	/* Of those, the ones whose APIC IDs xAPIC cannot name (above
	 * XAPIC_LAST_ID), each once, counted past MADT_MAX_CPUS too; the
	 * first of them in the table's order (0 where there is none). */
	uint32_t beyond_xapic_count;
	uint32_t first_beyond_xapic;
	/* Processor entries neither enabled nor online-capable: listed, but
	 * absent (QEMU's -smp 2,maxcpus=4 lists two so). absent_count may
	 * exceed MADT_MAX_ABSENT; the first IDs are kept. */
	uint32_t absent_count;
	uint32_t absent_apic_id[MADT_MAX_ABSENT];
	uint32_t ioapic_count;
	struct {
		uint8_t id;
		uint32_t address;
		uint32_t gsi_base;
	} ioapic[MADT_MAX_IOAPICS];
	uint32_t override_count;
	struct {
		uint8_t bus, source;	/* ISA IRQ */
		uint32_t gsi;
		uint16_t flags;		/* MPS INTI polarity, trigger */
	} override[MADT_MAX_OVERRIDES];
	uint32_t nmi_source_count;
	struct {
		uint16_t flags;
		uint32_t gsi;
	} nmi_source[MADT_MAX_NMIS];
	uint32_t lapic_nmi_count;	/* both kinds */
	struct {
		uint32_t uid;
		uint16_t flags;
		uint8_t lint;
	} lapic_nmi[MADT_MAX_NMIS];
};

/* MPS INTI flags (ACPI 6.5 Table 5.50). */
#define MPS_POLARITY_MASK	0x3
#define   MPS_POLARITY_LOW	0x3
#define MPS_TRIGGER_MASK	0xc
#define   MPS_TRIGGER_LEVEL	0xc

/* Parses `available` bytes that should hold a MADT. Whatever parses before
 * a bad entry is kept in `out`. */
enum acpi_status madt_parse(const void *table, size_t available,
			    struct madt_info *out);

/* The GSI and MPS flags an ISA IRQ arrives on: its interrupt source
 * override, or the identity mapping with default (edge, high) flags. */
uint32_t madt_isa_gsi(const struct madt_info *m, uint8_t irq, uint16_t *flags);

/* The HPET description table (IA-PC HPET spec 1.0a, §3.2.4). */
struct hpet_info {
	uint64_t address;	/* MMIO base of the timer block */
	uint32_t block_id;	/* the general capabilities' low 32 bits */
	uint8_t number;
	uint8_t comparators;	/* from block_id bits 12:8, plus one */
	uint16_t min_tick;
};
enum acpi_status hpet_parse(const void *table, size_t available,
			    struct hpet_info *out);

/* The DMA remapping table (Intel VT-d spec §8.1): its flags and the
 * register base of each remapping unit (DRHD). */
#define DMAR_MAX_UNITS 8
#define DMAR_FLAG_INTR_REMAP 0x01	/* the platform supports it */
#define DMAR_FLAG_X2APIC_OPT_OUT 0x02
struct dmar_info {
	uint8_t flags;
	uint32_t units;		/* may exceed DMAR_MAX_UNITS; bases kept up to it */
	uint64_t register_base[DMAR_MAX_UNITS];
};
enum acpi_status dmar_parse(const void *table, size_t available,
			    struct dmar_info *out);

/* The serial port console redirection table (Microsoft's SPCR, revision
 * 2 and later; ACPI 6.5 §5.2.6 reserves its signature): the UART the
 * firmware's console uses. Interface types irqlab can drive: the 16550
 * and the 16450 subset (0, 1), and the 16550 whose register width the
 * Generic Address Structure gives (12H). */
#define SPCR_16550 0x00
#define SPCR_16450 0x01
#define SPCR_16550_BY_GAS 0x12
struct spcr_info {
	uint8_t interface_type;
	uint8_t space;		/* GAS address space: 0 memory, 1 I/O */
	uint8_t register_bits;	/* GAS register bit width: 8 or 32 */
	uint64_t address;
	uint32_t baud;		/* 0: as the firmware left it */
};
#define ACPI_SPACE_MEMORY 0
#define ACPI_SPACE_IO 1
enum acpi_status spcr_parse(const void *table, size_t available,
			    struct spcr_info *out);

#define ACPI_PM_TIMER_HZ 3579545u

#endif
