/* Phase A's look at the machine: CPU and firmware identity, the ACPI
 * tables irqlab needs, and the TSC frequency. */
#ifndef IRQLAB_EFI_PLATFORM_H
#define IRQLAB_EFI_PLATFORM_H

#include <efi.h>

#include "firmware/acpi.h"
#include "firmware/memory_map.h"
#include "bench/model/results.h"

struct platform {
	const void *rsdp;
	uint16_t pm_timer_port;	/* 0: none */
	int pm_timer_32bit;
	struct madt_info madt;
	enum acpi_status madt_status;	/* ACPI_TOO_SHORT also when absent */
	struct hpet_info hpet;
	enum acpi_status hpet_status;
	struct dmar_info dmar;
	enum acpi_status dmar_status;	/* ACPI_TOO_SHORT also when absent */
	/* MADT, HPET, FADT and DMAR as found, for the copies on the ESP. */
	const struct acpi_sdt_header *tables[4];
	const uint8_t *smbios;	/* the SMBIOS structure table */
	uint32_t smbios_length;
	/* SMBIOS type 1's system UUID, as stored; has_ 0 where none. */
	uint8_t system_uuid[16];
	uint8_t has_system_uuid;
};

void platform_identify(EFI_SYSTEM_TABLE *st, struct machine_info *m,
		       struct platform *p);
/* The MTRRs as they are now (none where the CPU has none or they are
 * off: then one type holds everywhere), for the page attributes. */
void platform_read_mtrrs(struct mtrr_view *v);
/* Raw copies of the ACPI tables and the SMBIOS table found, into `dir`
 * (the run's acpi\ folder), so what irqlab saw of the machine can be
 * checked (and replayed by the parser tests) offline. */
struct volume;
void platform_save_tables(struct volume *v, const struct platform *p,
			  const char *dir, char *scratch);
/* The UART the log and a serial handoff go to after ExitBootServices
 * (docs/run.md "A serial port that exists"): the one ACPI's SPCR
 * describes where it is a 16550 irqlab can reach, else the first legacy
 * COM port that answers. It is put in use (arch/serial.h serial_use) and
 * `said` says which and how it was found; returns 1, or 0 where none
 * answers, `said` then saying what was tried. */
int platform_find_serial(const void *rsdp, char *said, size_t cap);
/* The same for phase C, which has no struct platform. */
int platform_find_serial_now(char *said, size_t cap);

/* Fills r->tsc_hz and r->tsc_method. */
void platform_tsc_frequency(const struct platform *p, struct run_result *r);

#endif
