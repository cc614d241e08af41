#include <efi.h>
#include <efilib.h>

#include "efi/platform.h"

#include "firmware/acpi.h"
#include "arch/cpu.h"
#include "arch/lib/fmt.h"
#include "arch/lib/log.h"
#include "arch/serial.h"
#include "bench/model/pmu.h"
#include "bench/model/probes.h"
#include "bench/report/report.h"
#include "efi/volume.h"
#include "firmware/smbios.h"

static const void *find_config_table(EFI_SYSTEM_TABLE *st, EFI_GUID *guid)
{
	UINTN i;

	for (i = 0; i < st->NumberOfTableEntries; i++)
		if (CompareGuid(&st->ConfigurationTable[i].VendorGuid, guid) == 0)
			return st->ConfigurationTable[i].VendorTable;
	return NULL;
}

/* SMBIOS 3 first: its entry point can describe a table above 4 GiB. */
static void find_smbios(EFI_SYSTEM_TABLE *st, struct machine_info *m,
			struct platform *p)
{
	EFI_GUID v3 = SMBIOS3_TABLE_GUID, v2 = SMBIOS_TABLE_GUID;
	const uint8_t *ep = find_config_table(st, &v3);
	struct smbios_system sys;
	uint64_t table;
	uint32_t length;

	if (!ep)
		ep = find_config_table(st, &v2);
	if (!ep || smbios_entry_point(ep, 0x20, &table, &length) || !length)
		return;
	p->smbios = (const uint8_t *)(uintptr_t)table;
	p->smbios_length = length;
	if (smbios_system_info(p->smbios, length, &sys))
		return;
	p->has_system_uuid = sys.has_uuid;
	CopyMem(p->system_uuid, sys.uuid, sizeof(p->system_uuid));
	fmt_snprintf(m->system_vendor, sizeof(m->system_vendor), "%s", sys.vendor);
	fmt_snprintf(m->system_product, sizeof(m->system_product), "%s",
		     sys.product);
	fmt_snprintf(m->system_version, sizeof(m->system_version), "%s",
		     sys.version);
}

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
	struct cpu_identity id;
	struct cpu_clock_controls clock;
	unsigned i;

	*p = (struct platform){ 0 };
	cpu_identify(&id);
	fmt_snprintf(m->cpu_vendor, sizeof(m->cpu_vendor), "%s", id.cpu_vendor);
	fmt_snprintf(m->brand, sizeof(m->brand), "%s", id.brand);
	fmt_snprintf(m->hypervisor, sizeof(m->hypervisor), "%s", id.hypervisor);
	m->family = id.family;
	m->model = id.model;
	m->stepping = id.stepping;
	m->microcode = cpu_microcode_revision(&id);
	cpu_clock_controls(&id, &clock);
	m->invariant_tsc = clock.invariant_tsc;
	m->core_type = clock.core_type;
	m->boost = !clock.boost_known ? BOOST_UNKNOWN :
		   id.cpu_vendor[0] == 'G'
			   ? pmu_intel_turbo_state(clock.leaf6_eax,
						   clock.misc_enable_read,
						   clock.misc_enable)
		   : !clock.has_boost ? BOOST_ABSENT :
		   clock.boost_disabled ? BOOST_OFF : BOOST_ON;
	m->hwp = !clock.has_hwp ? HWP_ABSENT : clock.hwp_on ? HWP_ON : HWP_OFF;
	m->llc_bytes = cpu_llc_bytes();
	for (i = 0; st->FirmwareVendor && st->FirmwareVendor[i] &&
		    i < sizeof(m->fw_vendor) - 1; i++) {
		CHAR16 c = st->FirmwareVendor[i];
		m->fw_vendor[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	m->fw_vendor[i] = '\0';
	m->fw_revision = st->FirmwareRevision;
	m->uefi_revision = st->Hdr.Revision;
	find_smbios(st, m, p);

	p->rsdp = find_rsdp(st);
	madt = acpi_find_table(p->rsdp, "APIC");
	p->madt_status = madt ? madt_parse(madt, madt->length, &p->madt)
			      : ACPI_TOO_SHORT;
	if (madt && p->madt_status == ACPI_OK) {
		m->madt_found = 1;
		fmt_snprintf(m->acpi_oem_id, sizeof(m->acpi_oem_id), "%.6s",
			     madt->oem_id);
		m->lapic_address = p->madt.lapic_address;
		m->ioapic_count = p->madt.ioapic_count;
		m->lapic_count = p->madt.lapic_count;
	}
	hpet = acpi_find_table(p->rsdp, "HPET");
	p->hpet_status = hpet ? hpet_parse(hpet, hpet->length, &p->hpet)
			      : ACPI_TOO_SHORT;
	p->tables[3] = acpi_find_table(p->rsdp, "DMAR");
	p->dmar_status = p->tables[3] ? dmar_parse(p->tables[3],
						   p->tables[3]->length, &p->dmar)
				       : ACPI_TOO_SHORT;
	p->tables[0] = madt;
	p->tables[1] = hpet;
	p->tables[2] = fadt = acpi_find_table(p->rsdp, "FACP");
	p->pm_timer_port = acpi_pm_timer_port(fadt, &p->pm_timer_32bit);
}

/* The number of handles with EFI_SERIAL_IO_PROTOCOL (UEFI 2.10 §12.8):
 * serial ports the firmware drives, whose address it does not say. */
static UINTN firmware_serial_ports(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	if (EFI_ERROR(uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol,
					&SerialIoProtocol, NULL, &n, &handles)))
		return 0;
	if (handles)
		uefi_call_wrapper(BS->FreePool, 1, handles);
	return n;
}

/* SPCR's UART as a port irqlab can drive, or why not. */
static const char *spcr_port(const struct spcr_info *c,
			     struct serial_port *port)
{
	if (c->interface_type != SPCR_16550 &&
	    c->interface_type != SPCR_16450 &&
	    c->interface_type != SPCR_16550_BY_GAS)
		return "not a 16550 or 16450";
	if (c->space != ACPI_SPACE_IO && c->space != ACPI_SPACE_MEMORY)
		return "in neither I/O nor memory space";
	/* Phase B maps 0-4 GiB and the memory map's regions (docs/run.md
	 * "A serial port that exists"). */
	if (c->space == ACPI_SPACE_MEMORY && c->address >= (1ull << 32))
		return "above 4 GiB";
	if (c->space == ACPI_SPACE_IO && c->address > 0xfff8)
		return "past the I/O space";
	*port = (struct serial_port){
		.base = c->address,
		.mmio = c->space == ACPI_SPACE_MEMORY,
		.wide = c->register_bits == 32,
		.divisor = (uint16_t)(c->baud ? 115200 / c->baud : 0),
	};
	return 0;
}

int platform_find_serial(const void *rsdp, char *said, size_t cap)
{
	const struct acpi_sdt_header *table = acpi_find_table(rsdp, "SPCR");
	struct spcr_info spcr;
	struct serial_port port;
	const char *unusable = 0;
	char spcr_said[64];
	unsigned i;

	if (!table)
		fmt_snprintf(spcr_said, sizeof(spcr_said), "no SPCR");
	else if (spcr_parse(table, table->length, &spcr) != ACPI_OK)
		fmt_snprintf(spcr_said, sizeof(spcr_said), "SPCR unreadable");
	else if ((unusable = spcr_port(&spcr, &port)))
		fmt_snprintf(spcr_said, sizeof(spcr_said), "SPCR's UART %s",
			     unusable);
	else if (!serial_answers(&port))
		fmt_snprintf(spcr_said, sizeof(spcr_said), "SPCR's UART at "
			     "%llx does not answer",
			     (unsigned long long)port.base);
	else {
		serial_use(&port);
		fmt_snprintf(said, cap, "SPCR's UART, %s %llx, %u-bit "
			     "registers, %s", port.mmio ? "memory" : "I/O port",
			     (unsigned long long)port.base, port.wide ? 32 : 8,
			     spcr.baud ? "at its baud rate" : "its baud rate "
			     "kept");
		return 1;
	}
	for (i = 0; i < SERIAL_LEGACY_PORTS; i++)
		if (serial_answers(&serial_legacy[i])) {
			serial_use(&serial_legacy[i]);
			fmt_snprintf(said, cap, "COM%u (I/O port %llx; %s)",
				     i + 1,
				     (unsigned long long)serial_legacy[i].base,
				     spcr_said);
			return 1;
		}
	fmt_snprintf(said, cap, "no serial port answers: %s, and none at "
		     "COM1-COM4 (I/O ports 3F8H, 2F8H, 3E8H, 2E8H); the "
		     "firmware drives %u serial port(s) (EFI_SERIAL_IO_PROTOCOL) "
		     "but does not say where", spcr_said,
		     (unsigned)firmware_serial_ports());
	return 0;
}

int platform_find_serial_now(char *said, size_t cap)
{
	return platform_find_serial(find_rsdp(ST), said, cap);
}

/* Calibration window: long enough that a PM-timer tick (279 ns) or the
 * Stall granularity is a small error, short enough not to be noticed. */
#define CALIBRATION_US 50000u

/* The PM timer's count of a CALIBRATION_US window in TSC ticks, bounded
 * by time as well as polls: a PM timer that does not move gives up after
 * four windows by the Stall calibration's clock, not 100 s of polls. */
static uint64_t calibrate_pm_timer(const struct platform *p, uint64_t rough_hz)
{
	uint32_t mask = p->pm_timer_32bit ? 0xffffffffu : 0xffffffu;
	uint64_t want = (uint64_t)ACPI_PM_TIMER_HZ * CALIBRATION_US / 1000000u;
	uint64_t elapsed = 0, t0, t1;
	uint32_t last = inl(p->pm_timer_port) & mask;
	uint64_t polls = 0, max_polls = 100000000ull;
	uint64_t give_up = 4 * (rough_hz / 1000000u) * CALIBRATION_US;

	t0 = tsc_open();
	while (elapsed < want && ++polls < max_polls) {
		uint32_t now = inl(p->pm_timer_port) & mask;

		elapsed += (now - last) & mask;	/* the counter wraps */
		last = now;
		if (give_up && (polls & 1023) == 0 && tsc_close() - t0 > give_up)
			break;
	}
	t1 = tsc_close();
	if (elapsed < want)
		return 0;
	return (t1 - t0) * ACPI_PM_TIMER_HZ / elapsed;
}

static uint64_t calibrate_stall(void)
{
	uint64_t t0 = tsc_open(), t1;

	uefi_call_wrapper(BS->Stall, 1, CALIBRATION_US);
	t1 = tsc_close();
	return (t1 - t0) * (1000000u / CALIBRATION_US);
}

/* CPUID's word where it gives one (SDM vol. 3 §20.7.3), always checked
 * against a calibration on the ACPI PM timer, or on Stall without one. */
void platform_tsc_frequency(const struct platform *p, struct run_result *r)
{
	const struct machine_info *m = &r->machine;
	int intel = m->cpu_vendor[0] == 'G';	/* GenuineIntel */
	uint64_t cpuid_hz = 0, rough;
	uint8_t cpuid_method = TSC_METHOD_CPUID_15H;
	int64_t off_ppm;

	if (intel && cpuid_max_leaf(0) >= 0x15) {
		struct cpuid_regs c = cpuid(0x15, 0);

		/* TSC Hz = crystal Hz * EBX / EAX */
		if (c.eax && c.ebx && c.ecx)
			cpuid_hz = (uint64_t)c.ecx * c.ebx / c.eax;
	}
	if (!cpuid_hz && intel && cpuid_max_leaf(0) >= 0x16) {
		struct cpuid_regs c = cpuid(0x16, 0);

		/* base frequency in MHz */
		cpuid_hz = (uint64_t)(c.eax & 0xffff) * 1000000u;
		cpuid_method = TSC_METHOD_CPUID_16H;
	}
	rough = calibrate_stall();
	r->tsc_hz_check = p->pm_timer_port ? calibrate_pm_timer(p, rough) : 0;
	r->tsc_check_method = TSC_METHOD_PM_TIMER;
	if (!r->tsc_hz_check) {
		r->tsc_hz_check = rough;
		r->tsc_check_method = TSC_METHOD_STALL;
	}
	if (probe_tsc_cpuid_taken(cpuid_hz,
				  cpuid_method == TSC_METHOD_CPUID_16H,
				  r->tsc_hz_check, &off_ppm)) {
		r->tsc_hz = cpuid_hz;
		r->tsc_method = cpuid_method;
	} else {
		r->tsc_hz = r->tsc_hz_check;
		r->tsc_method = r->tsc_check_method;
	}
	if (cpuid_hz && r->tsc_method != cpuid_method)
		record_probe(r, PROBE_TSC_FREQUENCY, PROBE_QUIRK, "CPUID %s said "
			     "%llu Hz, %+lld ppm from the %s's %llu Hz: the "
			     "latter is used", tsc_method_name(cpuid_method),
			     (unsigned long long)cpuid_hz, (long long)off_ppm,
			     tsc_method_name(r->tsc_check_method),
			     (unsigned long long)r->tsc_hz_check);
	else if (cpuid_hz)
		record_probe(r, PROBE_TSC_FREQUENCY, PROBE_OK, "%llu Hz by %s; "
			     "the %s says %llu Hz (%+lld ppm)",
			     (unsigned long long)r->tsc_hz,
			     tsc_method_name(r->tsc_method),
			     tsc_method_name(r->tsc_check_method),
			     (unsigned long long)r->tsc_hz_check,
			     (long long)off_ppm);
	else
		record_probe(r, PROBE_TSC_FREQUENCY, PROBE_OK, "%llu Hz "
			     "calibrated on the %s: CPUID gives no frequency",
			     (unsigned long long)r->tsc_hz,
			     tsc_method_name(r->tsc_method));
}

/* The MTRRs (SDM vol. 3A §12.11): IA32_MTRRCAP (FEH) counts the variable
 * ranges, IA32_MTRR_DEF_TYPE (2FFH) enables them (bit 11) and the fixed
 * ones (bit 10), and range n is PHYSBASE (200H + 2n) and PHYSMASK
 * (201H + 2n). */
#define MSR_MTRRCAP 0xfe
#define MSR_MTRR_DEF_TYPE 0x2ff
#define MTRR_ENABLE (1ull << 11)
#define MTRR_FIXED_ENABLE (1ull << 10)

void platform_read_mtrrs(struct mtrr_view *v)
{
	uint64_t cap, def;
	uint32_t i;

	*v = (struct mtrr_view){ 0 };
	if (!cpu_has(X86_FEATURE_MTRR))
		return;
	cap = rdmsr(MSR_MTRRCAP);
	def = rdmsr(MSR_MTRR_DEF_TYPE);
	if (!(def & MTRR_ENABLE))
		return;		/* everything UC: one type everywhere */
	v->fixed_enabled = (cap & (1u << 8)) && (def & MTRR_FIXED_ENABLE);
	v->n_variable = (uint32_t)(cap & 0xff);
	if (v->n_variable > MTRR_MAX_VARIABLE)
		v->n_variable = MTRR_MAX_VARIABLE;
	for (i = 0; i < v->n_variable; i++) {
		v->variable[i].base = rdmsr(0x200 + 2 * i);
		v->variable[i].mask = rdmsr(0x201 + 2 * i);
	}
}

void platform_save_tables(struct volume *v, const struct platform *p,
			  const char *dir, char *scratch)
{
	char path[128];
	unsigned i;

	if (!volume_usable(v) || volume_mkdir_p(v, dir))
		return;
	for (i = 0; i < sizeof(p->tables) / sizeof(p->tables[0]); i++) {
		const struct acpi_sdt_header *t = p->tables[i];

		if (!t || t->length > REPORT_TEXT_BYTES)
			continue;
		fmt_snprintf(path, sizeof(path), "%s\\%.4s.bin", dir,
			     t->signature);
		if (volume_write_verified(v, path, t, t->length, scratch))
			log_printf("could not save %s\n", path);
	}
	fmt_snprintf(path, sizeof(path), "%s\\SMBIOS.bin", dir);
	if (p->smbios && p->smbios_length <= REPORT_TEXT_BYTES &&
	    volume_write_verified(v, path, p->smbios, p->smbios_length,
				 scratch))
		log_printf("could not save the SMBIOS table\n");
}
