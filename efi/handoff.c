#include <efi.h>
#include <efilib.h>

#include "efi/handoff.h"

#include "arch/lib/fmt.h"
#include "arch/lib/log.h"

/* irqlab's own vendor GUID: no other software's variables are touched. */
static EFI_GUID irqlab_guid = {
	0x5f2b0c1e, 0x8a4d, 0x4c6b,
	{ 0x9b, 0x1f, 0x3e, 0x7a, 0x2d, 0x9c, 0x4f, 0x61 }
};

/* QueryVariableInfo arrived with UEFI 2.0 (major in the high 16 bits). */
#define UEFI_2_0_REVISION (2u << 16)

#define HANDOFF_ATTRIBUTES                                              \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |  \
	 EFI_VARIABLE_RUNTIME_ACCESS)

static void record_name(CHAR16 *out, unsigned seq)
{
	static const CHAR16 prefix[] = L"IrqlabRecord";
	unsigned i;

	for (i = 0; prefix[i]; i++)
		out[i] = prefix[i];
	out[i++] = (CHAR16)(L'0' + seq / 10);
	out[i++] = (CHAR16)(L'0' + seq % 10);
	out[i] = 0;
}

static const char *store_room(UINT64 needed, char *why, size_t cap)
{
	UINT64 max_storage = 0, remaining = 0, max_variable = 0;
	EFI_STATUS st;

	if (RT->Hdr.Revision < UEFI_2_0_REVISION) {
		fmt_snprintf(why, cap, "firmware predates QueryVariableInfo");
		return why;
	}
	st = uefi_call_wrapper(RT->QueryVariableInfo, 4, HANDOFF_ATTRIBUTES,
			       &max_storage, &remaining, &max_variable);
	if (EFI_ERROR(st)) {
		fmt_snprintf(why, cap, "QueryVariableInfo failed (0x%llx)",
			     (unsigned long long)st);
		return why;
	}
	if (max_variable < RECORD_MAX_BYTES) {
		fmt_snprintf(why, cap,
			     "variables are limited to %llu bytes, a record needs %u",
			     (unsigned long long)max_variable, RECORD_MAX_BYTES);
		return why;
	}
	if (remaining < needed + HANDOFF_STORE_RESERVE) {
		fmt_snprintf(why, cap,
			     "store has %llu bytes free; %llu needed plus a %u-byte reserve",
			     (unsigned long long)remaining,
			     (unsigned long long)needed, HANDOFF_STORE_RESERVE);
		return why;
	}
	return 0;
}

const char *handoff_precheck(char *why, size_t cap)
{
	return store_room(HANDOFF_MAX_BYTES +
			  HANDOFF_MAX_RECORDS * HANDOFF_VARIABLE_OVERHEAD,
			  why, cap);
}

const char *handoff_store(const uint8_t *blob, size_t len, uint64_t run_id,
			  char *why, size_t cap)
{
	static uint8_t record[RECORD_MAX_BYTES];
	size_t total = records_needed(len);
	unsigned seq;

	if (total == 0) {
		fmt_snprintf(why, cap, "results need %llu bytes, over the %u-byte limit",
			     (unsigned long long)len, HANDOFF_MAX_BLOB);
		return why;
	}
	/* All or nothing: check room for every record before the first. */
	if (store_room(len + total * (RECORD_HEADER_BYTES +
				      HANDOFF_VARIABLE_OVERHEAD), why, cap))
		return why;
	for (seq = 0; seq < total; seq++) {
		CHAR16 name[32];
		size_t n = record_encode(record, run_id, (uint16_t)seq, blob, len);
		EFI_STATUS st;

		record_name(name, seq);
		/* Each name is written once per boot (efi-pstore's rule). */
		st = uefi_call_wrapper(RT->SetVariable, 5, name, &irqlab_guid,
				       HANDOFF_ATTRIBUTES, n, record);
		if (EFI_ERROR(st)) {
			fmt_snprintf(why, cap, "SetVariable of record %u failed (0x%llx)",
				     seq, (unsigned long long)st);
			return why;
		}
	}
	return 0;
}

/* "IrqlabRecordNN", as record_name writes it. */
static int is_record_name(const CHAR16 *name)
{
	CHAR16 expected[32];
	unsigned i;

	if (!(name[12] >= L'0' && name[12] <= L'9' && name[13] >= L'0' &&
	      name[13] <= L'9'))
		return 0;
	record_name(expected, (unsigned)(name[12] - L'0') * 10 +
				      (unsigned)(name[13] - L'0'));
	for (i = 0; expected[i]; i++)
		if (name[i] != expected[i])
			return 0;
	return name[i] == 0;
}

static void note_foreign(struct handoff_found *found, const CHAR16 *name)
{
	char *out;
	unsigned i;

	if (found->n_foreign++ >= HANDOFF_FOREIGN_NAMES)
		return;
	out = found->foreign[found->n_foreign - 1];
	for (i = 0; name[i] && i < sizeof(found->foreign[0]) - 1; i++)
		out[i] = name[i] >= 0x20 && name[i] < 0x7f ? (char)name[i] : '?';
	out[i] = '\0';
}

uint32_t handoff_find(struct handoff_found *found)
{
	/* Other software's names can be long, and GetNextVariableName can
	 * only continue from the full previous name: leave ample room. */
	static CHAR16 name[2048];
	EFI_GUID guid;

	found->n = 0;
	found->n_foreign = 0;
	name[0] = 0;
	for (;;) {
		UINTN size = sizeof(name), len;
		UINT32 attributes;
		EFI_STATUS st;
		unsigned i;

		st = uefi_call_wrapper(RT->GetNextVariableName, 3, &size, name,
				       &guid);
		if (EFI_ERROR(st)) {
			/* EFI_NOT_FOUND is the end; anything else stops the
			 * walk, and says so. */
			if (st != EFI_NOT_FOUND)
				log_printf("phase C: variable walk stopped (0x%llx)\n",
					   (unsigned long long)st);
			break;
		}
		if (CompareGuid(&guid, &irqlab_guid) != 0)
			continue;
		/* Only names irqlab writes are its records. Anything else under
		 * its GUID is another tool's: reported, never read, never
		 * deleted, and never a reason not to measure. */
		if (!is_record_name(name)) {
			note_foreign(found, name);
			continue;
		}
		if (found->n >= sizeof(found->rec) / sizeof(found->rec[0]))
			break;
		for (i = 0; i < 31 && name[i]; i++) {
			found->rec[found->n].name[i] = name[i];
			found->rec[found->n].name_ascii[i] =
				name[i] < 0x80 ? (char)name[i] : '?';
		}
		found->rec[found->n].name[i] = 0;
		found->rec[found->n].name_ascii[i] = '\0';
		len = sizeof(found->rec[found->n].data);
		st = uefi_call_wrapper(RT->GetVariable, 5, name, &guid,
				       &attributes, &len,
				       found->rec[found->n].data);
		found->rec[found->n].oversize = st == EFI_BUFFER_TOO_SMALL;
		found->rec[found->n].len = EFI_ERROR(st) ? 0 : len;
		found->n++;
	}
	return found->n;
}

uint32_t handoff_delete(const struct handoff_found *found)
{
	uint32_t i, failed = 0;

	for (i = 0; i < found->n; i++) {
		EFI_STATUS st = uefi_call_wrapper(
			RT->SetVariable, 5, (CHAR16 *)found->rec[i].name,
			&irqlab_guid, HANDOFF_ATTRIBUTES, 0, NULL);

		if (EFI_ERROR(st) && st != EFI_NOT_FOUND) {
			log_printf("could not delete %s (0x%llx)\n",
				   found->rec[i].name_ascii,
				   (unsigned long long)st);
			failed++;
		}
	}
	return failed;
}
