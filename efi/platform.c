#include <efi.h>
#include <efilib.h>

#include "platform.h"

#include "../apic/acpi.h"
#include "../arch/cpu.h"

static const void *find_rsdp(EFI_SYSTEM_TABLE *st)
{
	EFI_GUID acpi20 = ACPI_20_TABLE_GUID, acpi10 = ACPI_TABLE_GUID;
	const void *v1 = NULL;
	UINTN i;

	/* Prefer the ACPI 2.0+ RSDP, which carries the XSDT. */
	for (i = 0; i < st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &st->ConfigurationTable[i];

		if (CompareGuid(&t->VendorGuid, &acpi20) == 0)
			return t->VendorTable;
		if (CompareGuid(&t->VendorGuid, &acpi10) == 0)
			v1 = t->VendorTable;
	}
	return v1;
}

void platform_identify(EFI_SYSTEM_TABLE *st, struct machine_info *m,
		       struct platform *p)
{
	const struct acpi_sdt_header *madt, *fadt, *hpet;
	unsigned i;

	cpu_identify(m);
	m->llc_bytes = cpu_llc_bytes();
	for (i = 0; st->FirmwareVendor && st->FirmwareVendor[i] &&
		    i < sizeof(m->fw_vendor) - 1; i++) {
		CHAR16 c = st->FirmwareVendor[i];
		m->fw_vendor[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	m->fw_vendor[i] = '\0';
	m->fw_revision = st->FirmwareRevision;
	m->uefi_revision = st->Hdr.Revision;

	*p = (struct platform){ .rsdp = find_rsdp(st) };
	madt = acpi_find_table(p->rsdp, "APIC");
	p->madt_status = madt ? madt_parse(madt, madt->length, &p->madt)
			      : ACPI_TOO_SHORT;
	if (madt && p->madt_status == ACPI_OK) {
		m->madt_found = 1;
		m->lapic_address = p->madt.lapic_address;
		m->ioapic_count = p->madt.ioapic_count;
		m->lapic_count = p->madt.lapic_count;
	}
	hpet = acpi_find_table(p->rsdp, "HPET");
	p->hpet_status = hpet ? hpet_parse(hpet, hpet->length, &p->hpet)
			      : ACPI_TOO_SHORT;
	p->tables[0] = madt;
	p->tables[1] = hpet;
	p->tables[2] = acpi_find_table(p->rsdp, "FACP");
	fadt = acpi_find_table(p->rsdp, "FACP");
	p->pm_timer_port = acpi_pm_timer_port(fadt, &p->pm_timer_32bit);
}

/* Calibration window: long enough that a PM-timer tick (279 ns) or the
 * Stall granularity is a small error, short enough not to be noticed. */
#define CALIBRATION_US 50000u

static uint64_t calibrate_pm_timer(const struct platform *p)
{
	uint32_t mask = p->pm_timer_32bit ? 0xffffffffu : 0xffffffu;
	uint64_t want = (uint64_t)ACPI_PM_TIMER_HZ * CALIBRATION_US / 1000000u;
	uint64_t elapsed = 0, t0, t1;
	uint32_t last = inl(p->pm_timer_port) & mask;
	/* Bounded: a PM timer that does not move must not hang phase A. */
	uint64_t polls = 0, max_polls = 100000000ull;

	t0 = tsc_open();
	while (elapsed < want && ++polls < max_polls) {
		uint32_t now = inl(p->pm_timer_port) & mask;

		elapsed += (now - last) & mask;	/* the counter wraps */
		last = now;
	}
	t1 = tsc_close();
	if (elapsed < want)
		return 0;
	return (t1 - t0) * ACPI_PM_TIMER_HZ / elapsed;
}

void platform_tsc_frequency(const struct platform *p, struct run_result *r)
{
	const struct machine_info *m = &r->machine;
	int intel = m->cpu_vendor[0] == 'G';	/* GenuineIntel */
	uint64_t t0, t1;

	/* CPUID 15H: TSC Hz = crystal Hz * EBX / EAX (SDM vol. 3 §20.7.3). */
	if (intel && cpuid_max_leaf(0) >= 0x15) {
		struct cpuid_regs c = cpuid(0x15, 0);

		if (c.eax && c.ebx && c.ecx) {
			r->tsc_hz = (uint64_t)c.ecx * c.ebx / c.eax;
			r->tsc_method = TSC_METHOD_CPUID_15H;
			return;
		}
	}
	/* CPUID 16H: base frequency in MHz, Intel only. */
	if (intel && cpuid_max_leaf(0) >= 0x16) {
		struct cpuid_regs c = cpuid(0x16, 0);

		if (c.eax & 0xffff) {
			r->tsc_hz = (uint64_t)(c.eax & 0xffff) * 1000000u;
			r->tsc_method = TSC_METHOD_CPUID_16H;
			return;
		}
	}
	if (p->pm_timer_port && (r->tsc_hz = calibrate_pm_timer(p))) {
		r->tsc_method = TSC_METHOD_PM_TIMER;
		return;
	}
	t0 = tsc_open();
	uefi_call_wrapper(BS->Stall, 1, CALIBRATION_US);
	t1 = tsc_close();
	r->tsc_hz = (t1 - t0) * (1000000u / CALIBRATION_US);
	r->tsc_method = TSC_METHOD_STALL;
}
