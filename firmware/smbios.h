/* SMBIOS: the system's vendor, product and version (type 1), so results
 * from QEMU, whose product names the machine type and version, or from a
 * real board are recognisable. DMTF DSP0134. */
#ifndef IRQLAB_FIRMWARE_SMBIOS_H
#define IRQLAB_FIRMWARE_SMBIOS_H

#include <stddef.h>
#include <stdint.h>

struct smbios_system {
	char vendor[48];
	char product[48];
	char version[48];
	/* The system UUID (offset 08h, SMBIOS 2.1 on), as stored; has_uuid
	 * is 0 where the structure is too short to hold one. */
	uint8_t uuid[16];
	uint8_t has_uuid;
};

/* Where the structure table is, from a 2.x ("_SM_") or 3.x ("_SM3_")
 * entry point. Returns 0, or -1 for a malformed entry point. */
int smbios_entry_point(const uint8_t *ep, size_t available, uint64_t *table,
		       uint32_t *length);

/* Finds the type 1 structure in `len` bytes of structure table. Returns
 * 0, or -1 when there is none or the table is malformed. Missing strings
 * are left empty. */
int smbios_system_info(const uint8_t *table, size_t len,
		       struct smbios_system *out);

#endif
