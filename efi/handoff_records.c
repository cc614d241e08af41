#include <efi.h>
#include <efilib.h>

#include "efi/handoff_variables.h"
#include "efi/runtime.h"

#include "arch/lib/fmt.h"
#include "arch/lib/log.h"

/* "IrqlabRecordNN": the handoff's records. */
static void record_name(CHAR16 *out, unsigned seq)
{
	handoff_numbered_name(out, L"IrqlabRecord", seq);
}

/* The first record name phase B may use: past every name a record that
 * could not be deleted still holds, so an old record is never
 * overwritten or mixed in. 0 when none is held. */
static unsigned handoff_first_name;

const char *handoff_store(const uint8_t *blob, size_t len, uint64_t run_id,
			  uint64_t *free_at_runtime, char *why, size_t cap)
{
	static uint8_t record[RECORD_MAX_BYTES];
	size_t total = records_needed(len);
	unsigned seq;

	if (handoff_first_name + total > HANDOFF_NAME_LIMIT) {
		fmt_snprintf(why, cap, "records that cannot be deleted hold the "
			     "names up to IrqlabRecord%02u", handoff_first_name - 1);
		return why;
	}
	if (total == 0) {
		fmt_snprintf(why, cap, "results need %llu bytes, over the %u-byte limit",
			     (unsigned long long)len, HANDOFF_MAX_BLOB);
		return why;
	}
	/* All or nothing: check room for every record before the first. */
	{
		UINT64 remaining, max_variable;

		if (handoff_query_store(&remaining, &max_variable, why, cap))
			return why;
		*free_at_runtime = remaining;
		if (remaining < handoff_room_needed(len))
			return handoff_too_little_room(remaining, handoff_room_needed(len),
					       " at runtime", why, cap);
	}
	for (seq = 0; seq < total; seq++) {
		CHAR16 name[32];
		size_t n = record_encode(record, run_id, (uint16_t)seq, blob, len);
		EFI_STATUS st;

		record_name(name, handoff_first_name + seq);
		/* Each name is written once per boot (efi-pstore's rule). */
		st = runtime_set_variable(name, &handoff_guid,
					  HANDOFF_ATTRIBUTES, n, record);
		if (EFI_ERROR(st)) {
			fmt_snprintf(why, cap, "SetVariable of record %u failed (0x%llx)",
				     seq, (unsigned long long)st);
			return why;
		}
	}
	return 0;
}

/* "IrqlabRecordNN", as record_name writes it: returns NN, or -1 for
 * any other name. */
static int record_number(const CHAR16 *name)
{
	CHAR16 expected[32];
	unsigned i, seq;

	for (i = 0; i < 12; i++)
		if (name[i] == 0)
			return -1;
	if (!(name[12] >= L'0' && name[12] <= L'9' && name[13] >= L'0' &&
	      name[13] <= L'9'))
		return -1;
	seq = (unsigned)(name[12] - L'0') * 10 + (unsigned)(name[13] - L'0');
	record_name(expected, seq);
	for (i = 0; expected[i]; i++)
		if (name[i] != expected[i])
			return -1;
	return name[i] == 0 ? (int)seq : -1;
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
	found->marker_found = 0;
	name[0] = 0;
	for (;;) {
		UINTN size = sizeof(name), len;
		UINT32 attributes;
		EFI_STATUS st;
		unsigned i;
		int seq;

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
		if (CompareGuid(&guid, &handoff_guid) != 0)
			continue;
		if (handoff_is_marker(name)) {
			handoff_read_marker(found);
			continue;
		}
		/* Only names irqlab writes are its records (and its marker).
		 * Anything else under its GUID is another tool's: reported,
		 * never read, never deleted, and never a reason not to
		 * measure. */
		seq = record_number(name);
		if (seq < 0) {
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
		found->rec[found->n].seq = (uint8_t)seq;
		found->rec[found->n].chosen = 0;
		found->rec[found->n].undeletable = 0;
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

static int delete_record(struct handoff_found *found, uint32_t i)
{
	EFI_STATUS st = runtime_set_variable(found->rec[i].name, &handoff_guid,
					     HANDOFF_ATTRIBUTES, 0, NULL);

	if (!EFI_ERROR(st) || st == EFI_NOT_FOUND)
		return 0;
	log_printf("could not delete %s (0x%llx)\n", found->rec[i].name_ascii,
		   (unsigned long long)st);
	found->rec[i].undeletable = 1;
	return -1;
}

uint32_t handoff_delete(struct handoff_found *found)
{
	uint32_t i, failed = 0;

	for (i = 0; i < found->n; i++)
		if (delete_record(found, i))
			failed++;
	return failed;
}

uint32_t handoff_delete_chosen(struct handoff_found *found)
{
	uint32_t i, kept = 0, failed = 0;

	for (i = 0; i < found->n; i++) {
		if (found->rec[i].chosen && delete_record(found, i) == 0)
			continue;
		if (found->rec[i].chosen)
			failed++;
		if (kept != i)
			found->rec[kept] = found->rec[i];
		kept++;
	}
	found->n = kept;
	return failed;
}

uint32_t handoff_set_aside_undeletable(struct handoff_found *found)
{
	uint32_t i, kept = 0;

	for (i = 0; i < found->n; i++) {
		if (!found->rec[i].undeletable) {
			if (kept != i)
				found->rec[kept] = found->rec[i];
			kept++;
			continue;
		}
		/* Dropped from `found` only: it was tried already. */
		log_printf("phase C: %s cannot be deleted: set aside, never read "
			   "into a run; records are written past it\n",
			   found->rec[i].name_ascii);
		if (found->rec[i].seq + 1u > handoff_first_name)
			handoff_first_name = found->rec[i].seq + 1u;
	}
	i = found->n - kept;
	found->n = kept;
	return i;
}
