/* ACPI parsers on tables dumped from QEMU's q35 and pc machines (irqlab
 * saves what it reads to \EFI\irqlab\acpi\), and on broken copies. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "firmware/acpi.h"
#include "bench/model/results.h"
#include "tests/unit/fixture.h"

/* Makes the checksum right again after a test edits a table. */
static void fix_checksum(uint8_t *t)
{
	uint32_t len = t[4] | t[5] << 8 | t[6] << 16 | (uint32_t)t[7] << 24;
	uint8_t sum = 0;
	uint32_t i;

	t[9] = 0;
	for (i = 0; i < len; i++)
		sum = (uint8_t)(sum + t[i]);
	t[9] = (uint8_t)-sum;
}

static void q35_madt(void **state)
{
	uint8_t t[512];
	size_t n = load_fixture("qemu-q35-APIC.bin", t, sizeof(t));
	struct madt_info m;
	uint16_t flags;

	(void)state;
	assert_int_equal(madt_parse(t, n, &m), ACPI_OK);
	assert_int_equal(m.lapic_address, 0xfee00000);
	assert_int_equal(m.flags & 1, 1);	/* PCAT_COMPAT: 8259s present */
	assert_int_equal(m.lapic_count, 1);
	assert_int_equal(m.x2apic_count, 0);
	assert_int_equal(m.cpu_count, 1);
	assert_int_equal(m.cpu_apic_id[0], 0);
	assert_int_equal(m.ioapic_count, 1);
	assert_int_equal(m.ioapic[0].address, 0xfec00000);
	assert_int_equal(m.ioapic[0].gsi_base, 0);
	assert_int_equal(m.override_count, 5);
	assert_int_equal(m.lapic_nmi_count, 1);
	assert_int_equal(m.lapic_nmi[0].uid, 0xff);	/* all processors */
	assert_int_equal(m.lapic_nmi[0].lint, 1);
	/* The PIT's IRQ 0 arrives on GSI 2 (docs/controllers.md) ... */
	assert_int_equal(madt_isa_gsi(&m, 0, &flags), 2);
	assert_int_equal(flags, 0);
	/* ... IRQ 9 (SCI) is level-triggered, active high ... */
	assert_int_equal(madt_isa_gsi(&m, 9, &flags), 9);
	assert_int_equal(flags & MPS_TRIGGER_MASK, MPS_TRIGGER_LEVEL);
	/* ... and an IRQ with no override maps to itself, edge. */
	assert_int_equal(madt_isa_gsi(&m, 4, &flags), 4);
	assert_int_equal(flags, 0);
}

static void pc_madt(void **state)
{
	uint8_t t[512];
	size_t n = load_fixture("qemu-pc-APIC.bin", t, sizeof(t));
	struct madt_info m;
	uint16_t flags;

	(void)state;
	assert_int_equal(madt_parse(t, n, &m), ACPI_OK);
	assert_int_equal(m.ioapic_count, 1);
	assert_int_equal(madt_isa_gsi(&m, 0, &flags), 2);
}

static void q35_hpet(void **state)
{
	uint8_t t[128];
	size_t n = load_fixture("qemu-q35-HPET.bin", t, sizeof(t));
	struct hpet_info h;

	(void)state;
	assert_int_equal(hpet_parse(t, n, &h), ACPI_OK);
	assert_int_equal(h.address, 0xfed00000);
	assert_int_equal(h.block_id & 0xffff0000, 0x80860000);	/* vendor */
	assert_int_equal(h.comparators, 3);
	assert_int_equal(h.number, 0);
}

static void fadt_pm_timer(void **state)
{
	uint8_t t[512];
	int ext = -1;

	(void)state;
	load_fixture("qemu-q35-FACP.bin", t, sizeof(t));
	assert_int_equal(acpi_pm_timer_port((void *)t, &ext), 0x608);
	assert_int_equal(ext, 0);	/* 24-bit counter */
	load_fixture("qemu-pc-FACP.bin", t, sizeof(t));
	assert_int_equal(acpi_pm_timer_port((void *)t, &ext), 0xb008);
}

static void truncated_tables_are_refused(void **state)
{
	uint8_t t[512];
	size_t n = load_fixture("qemu-q35-APIC.bin", t, sizeof(t)), cut;
	struct madt_info m;
	struct hpet_info h;

	(void)state;
	for (cut = 0; cut < n; cut++)
		assert_int_not_equal(madt_parse(t, cut, &m), ACPI_OK);
	assert_int_equal(madt_parse(t, 20, &m), ACPI_TOO_SHORT);
	assert_int_equal(madt_parse(t, n - 1, &m), ACPI_BAD_LENGTH);
	n = load_fixture("qemu-q35-HPET.bin", t, sizeof(t));
	assert_int_equal(hpet_parse(t, n - 1, &h), ACPI_BAD_LENGTH);
	/* a length field shorter than the fixed part */
	t[4] = 40;
	fix_checksum(t);
	assert_int_equal(hpet_parse(t, n, &h), ACPI_TOO_SHORT);
}

static void bad_checksum_and_signature(void **state)
{
	uint8_t t[512];
	size_t n = load_fixture("qemu-q35-APIC.bin", t, sizeof(t));
	struct madt_info m;
	struct hpet_info h;

	(void)state;
	t[50] ^= 1;
	assert_int_equal(madt_parse(t, n, &m), ACPI_BAD_CHECKSUM);
	t[50] ^= 1;
	assert_int_equal(hpet_parse(t, n, &h), ACPI_BAD_SIGNATURE);
}

static void malformed_entries_stop_the_walk(void **state)
{
	uint8_t t[512];
	size_t n = load_fixture("qemu-q35-APIC.bin", t, sizeof(t));
	struct madt_info m;

	(void)state;
	/* The IO-APIC entry (the second, at 52) claims 8 bytes: too short
	 * for its type. What came before is still reported. */
	assert_int_equal(t[52], 1);
	t[53] = 8;
	fix_checksum(t);
	assert_int_equal(madt_parse(t, n, &m), ACPI_BAD_ENTRY);
	assert_int_equal(m.lapic_count, 1);

	n = load_fixture("qemu-q35-APIC.bin", t, sizeof(t));
	t[53] = 0;	/* a zero length would loop forever */
	fix_checksum(t);
	assert_int_equal(madt_parse(t, n, &m), ACPI_BAD_ENTRY);

	n = load_fixture("qemu-q35-APIC.bin", t, sizeof(t));
	t[n - 5] = 200;	/* the last entry runs past the end */
	fix_checksum(t);
	assert_int_equal(madt_parse(t, n, &m), ACPI_BAD_ENTRY);
}

static void the_64_bit_lapic_override_wins(void **state)
{
	uint8_t t[512];
	size_t n = load_fixture("qemu-q35-APIC.bin", t, sizeof(t));
	static const uint8_t entry[12] = { 5, 12, 0, 0, 0x00, 0x00, 0xe0, 0xfe,
					   0x01, 0x00, 0x00, 0x00 };
	struct madt_info m;

	(void)state;
	memcpy(t + n, entry, sizeof(entry));
	t[4] = (uint8_t)(n + sizeof(entry));
	fix_checksum(t);
	assert_int_equal(madt_parse(t, n + sizeof(entry), &m), ACPI_OK);
	assert_int_equal(m.lapic_address, 0x1fee00000ull);
}

static void tables_are_found_through_the_xsdt(void **state)
{
	static uint8_t madt[512], hpet[128], xsdt[36 + 16];
	struct {
		char signature[8];
		uint8_t checksum;
		char oem[6];
		uint8_t revision;
		uint32_t rsdt;
		uint32_t length;
		uint64_t xsdt;
		uint8_t ext_checksum, reserved[3];
	} __attribute__((packed)) rsdp = { "RSD PTR ", 0, "IRQLAB", 2, 0,
					   36, 0, 0, { 0 } };
	uint64_t a = (uint64_t)(uintptr_t)madt, b = (uint64_t)(uintptr_t)hpet;
	uint8_t sum = 0;
	unsigned i;

	(void)state;
	load_fixture("qemu-q35-APIC.bin", madt, sizeof(madt));
	load_fixture("qemu-q35-HPET.bin", hpet, sizeof(hpet));
	memcpy(xsdt, "XSDT", 4);
	xsdt[4] = sizeof(xsdt);
	memcpy(xsdt + 36, &a, 8);
	memcpy(xsdt + 44, &b, 8);
	fix_checksum(xsdt);
	rsdp.xsdt = (uint64_t)(uintptr_t)xsdt;
	for (i = 0; i < 20; i++)
		sum = (uint8_t)(sum + ((uint8_t *)&rsdp)[i]);
	rsdp.checksum = (uint8_t)-sum;

	assert_ptr_equal(acpi_find_table(&rsdp, "APIC"), madt);
	assert_ptr_equal(acpi_find_table(&rsdp, "HPET"), hpet);
	assert_null(acpi_find_table(&rsdp, "FACP"));
	hpet[20] ^= 1;	/* a table with a bad checksum is not returned */
	assert_null(acpi_find_table(&rsdp, "HPET"));
	rsdp.checksum ^= 1;
	assert_null(acpi_find_table(&rsdp, "APIC"));
	assert_null(acpi_find_table(NULL, "APIC"));
}

/* An SPCR as a laptop's firmware writes it: a 16550 by GAS in memory
 * space, 32-bit registers, 115200 baud (code 7); and COM2 in I/O space
 * with the baud left as is. */
static void spcr_gives_the_console_uart(void **state)
{
	uint8_t t[80] = { 'S', 'P', 'C', 'R', 80 };
	struct spcr_info c;
	uint64_t mmio = 0xfe032000ull;

	(void)state;
	t[8] = 2;
	t[36] = SPCR_16550_BY_GAS;
	t[40] = ACPI_SPACE_MEMORY;
	t[41] = 32;
	t[43] = 3;
	memcpy(t + 44, &mmio, 8);
	t[58] = 7;
	fix_checksum(t);
	assert_int_equal(spcr_parse(t, sizeof(t), &c), ACPI_OK);
	assert_int_equal(c.interface_type, SPCR_16550_BY_GAS);
	assert_int_equal(c.space, ACPI_SPACE_MEMORY);
	assert_int_equal(c.register_bits, 32);
	assert_true(c.address == mmio);
	assert_int_equal(c.baud, 115200);

	t[36] = SPCR_16550;
	t[40] = ACPI_SPACE_IO;
	t[41] = 8;
	memset(t + 44, 0, 8);
	t[44] = 0xf8;
	t[45] = 0x02;
	t[58] = 0;
	fix_checksum(t);
	assert_int_equal(spcr_parse(t, sizeof(t), &c), ACPI_OK);
	assert_int_equal(c.space, ACPI_SPACE_IO);
	assert_true(c.address == 0x2f8);
	assert_int_equal(c.baud, 0);

	t[58] = 5;	/* not a code the table defines: as is */
	fix_checksum(t);
	assert_int_equal(spcr_parse(t, sizeof(t), &c), ACPI_OK);
	assert_int_equal(c.baud, 0);
	assert_int_equal(spcr_parse(t, 79, &c), ACPI_BAD_LENGTH);
	t[0] = 'X';
	fix_checksum(t);
	assert_int_equal(spcr_parse(t, sizeof(t), &c), ACPI_BAD_SIGNATURE);
}

/* The MADT's OEM ID tells an emulator that hides in CPUID from a real
 * machine: QEMU's tables (and Bochs') say BOCHS. What a TSC delta means
 * follows from it and the hypervisor signature. */
static void emulators_are_told_from_hardware(void **state)
{
	uint8_t t[512];
	char oem[7];

	(void)state;
	load_fixture("qemu-q35-APIC.bin", t, sizeof(t));
	memcpy(oem, ((const struct acpi_sdt_header *)t)->oem_id, 6);
	oem[6] = '\0';
	assert_string_equal(oem, "BOCHS ");
	/* Bochs: no hypervisor signature, an instruction-counting TSC; or,
	 * built with handler chaining, a TSC that skips ahead at chain
	 * ends, whose figures are still no cycles and no path lengths. */
	assert_int_equal(clock_kind_decide("", oem, 1), CLOCK_EMULATOR);
	assert_int_equal(clock_kind_decide("", "BXPC  ", 1), CLOCK_EMULATOR);
	assert_int_equal(clock_kind_decide("", oem, 0), CLOCK_EMULATOR_COARSE);
	assert_string_equal(clock_kind_name(CLOCK_EMULATOR_COARSE),
			    "emulator-coarse");
	assert_non_null(strstr(clock_kind_unit(CLOCK_EMULATOR_COARSE),
			       "never cycles"));
	/* QEMU TCG, with and without -icount. */
	assert_int_equal(clock_kind_decide("TCGTCGTCGTCG", oem, 1), CLOCK_ICOUNT);
	assert_int_equal(clock_kind_decide("TCGTCGTCGTCG", oem, 0),
			 CLOCK_TCG_NOISE);
	/* KVM keeps QEMU's tables but runs on the host's TSC. */
	assert_int_equal(clock_kind_decide("KVMKVMKVM", oem, 0), CLOCK_TSC_TICKS);
	/* A real machine's firmware. */
	assert_int_equal(clock_kind_decide("", "ALASKA", 0), CLOCK_TSC_TICKS);
	assert_int_equal(clock_kind_decide("", "", 0), CLOCK_TSC_TICKS);
	assert_string_equal(clock_kind_name(CLOCK_EMULATOR), "emulator");
	assert_non_null(strstr(clock_kind_unit(CLOCK_EMULATOR), "not cycles"));
}

/* QEMU q35 with -smp 4: four enabled processors, APIC IDs 0-3, the ones
 * phase B parks (bench/run/other_cpus.c) all but its own. */
static void q35_smp4_madt(void **state)
{
	uint8_t t[512];
	size_t n = load_fixture("qemu-q35-smp4-APIC.bin", t, sizeof(t));
	struct madt_info m;
	uint32_t i;

	(void)state;
	assert_int_equal(madt_parse(t, n, &m), ACPI_OK);
	assert_int_equal(m.cpu_count, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(m.cpu_apic_id[i], i);
}

/* QEMU q35 with -smp 2,maxcpus=4: two enabled processors, and two more
 * listed with neither flag, absent (bench/run/other_cpus.c names them
 * and starts none of them). */
static void q35_smp2_maxcpus4_madt(void **state)
{
	uint8_t t[512];
	size_t n = load_fixture("qemu-q35-smp2-maxcpus4-APIC.bin", t,
				sizeof(t));
	struct madt_info m;

	(void)state;
	assert_int_equal(madt_parse(t, n, &m), ACPI_OK);
	assert_int_equal(m.cpu_count, 2);
	assert_int_equal(m.cpu_apic_id[0], 0);
	assert_int_equal(m.cpu_apic_id[1], 1);
	assert_int_equal(m.lapic_count, 2);
	assert_int_equal(m.absent_count, 2);
	assert_int_equal(m.absent_apic_id[0], 2);
	assert_int_equal(m.absent_apic_id[1], 3);
}

/* QEMU q35 with -device intel-iommu: one remapping unit, at 0xfed90000,
 * and the platform able to remap interrupts. */
static void q35_iommu_dmar(void **state)
{
	uint8_t t[512];
	size_t n = load_fixture("qemu-q35-iommu-DMAR.bin", t, sizeof(t)), cut;
	struct dmar_info d;

	(void)state;
	assert_int_equal(dmar_parse(t, n, &d), ACPI_OK);
	assert_int_equal(d.units, 1);
	assert_true(d.register_base[0] == 0xfed90000ull);
	assert_true(d.flags & DMAR_FLAG_INTR_REMAP);
	for (cut = 0; cut < n; cut += 7)
		assert_int_not_equal(dmar_parse(t, cut, &d), ACPI_OK);
	t[0x32] = 2;	/* the unit's structure now runs past the table */
	t[0x33] = 1;
	fix_checksum(t);
	assert_int_equal(dmar_parse(t, n, &d), ACPI_BAD_ENTRY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(q35_madt),
		cmocka_unit_test(pc_madt),
		cmocka_unit_test(q35_hpet),
		cmocka_unit_test(q35_iommu_dmar),
		cmocka_unit_test(q35_smp4_madt),
		cmocka_unit_test(q35_smp2_maxcpus4_madt),
		cmocka_unit_test(fadt_pm_timer),
		cmocka_unit_test(truncated_tables_are_refused),
		cmocka_unit_test(bad_checksum_and_signature),
		cmocka_unit_test(malformed_entries_stop_the_walk),
		cmocka_unit_test(the_64_bit_lapic_override_wins),
		cmocka_unit_test(tables_are_found_through_the_xsdt),
		cmocka_unit_test(emulators_are_told_from_hardware),
		cmocka_unit_test(spcr_gives_the_console_uart),
	};

	return cmocka_run_group_tests_name("acpi", tests, NULL, NULL);
}
