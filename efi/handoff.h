/* The results handoff through UEFI variables (docs/run.md,
 * docs/uefi-variables.md). Phase B stores the encoded results as CRC-checked
 * records with runtime SetVariable; phase C finds, reassembles and, once
 * the files are verified, deletes them. */
#ifndef IRQLAB_EFI_HANDOFF_H
#define IRQLAB_EFI_HANDOFF_H

#include <efi.h>

#include "bench/model/records.h"
#include "bench/report/report.h"

/* Linux efi-pstore's reserve: never leave less than this free
 * (arch/x86/platform/efi/quirks.c, after the 2013 Samsung bricking). */
#define HANDOFF_STORE_RESERVE (5 * 1024)
/* What one variable costs the store beyond its data: EDK2's authenticated
 * variable header (~60 bytes) plus the UCS-2 name, rounded up. */
#define HANDOFF_VARIABLE_OVERHEAD 128

/* Phase A: whether the store can take a full-size handoff. Returns NULL
 * or the reason it cannot. */
const char *handoff_precheck(char *why, size_t cap);

/* Phase B (runtime services only). Returns NULL on success or why the
 * results were not persisted. */
const char *handoff_store(const uint8_t *blob, size_t len, uint64_t run_id,
			  char *why, size_t cap);

/* Phase C (boot services). Foreign names kept for the report. */
#define HANDOFF_FOREIGN_NAMES 4

struct handoff_found {
	uint32_t n;
	struct {
		CHAR16 name[32];
		char name_ascii[32];
		uint8_t data[RECORD_MAX_BYTES];
		UINTN len;
		uint8_t oversize;	/* larger than any record can be */
	} rec[HANDOFF_SCAN_RECORDS];
	/* Variables under irqlab's GUID that are not its records. */
	uint32_t n_foreign;
	char foreign[HANDOFF_FOREIGN_NAMES][64];
};

/* Reads every irqlab variable. Returns how many there are. */
uint32_t handoff_find(struct handoff_found *found);
/* Deletes every variable found. Returns how many deletions failed. */
uint32_t handoff_delete(const struct handoff_found *found);

#endif
