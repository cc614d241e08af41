#include <efi.h>
#include <efilib.h>

#include "efi/handoff.h"
#include "efi/runtime.h"

#include "arch/lib/fmt.h"
#include "arch/lib/le.h"
#include "firmware/varstore.h"
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

/* PREFIX then two digits: the names of irqlab's variables. */
static void numbered_name(CHAR16 *out, const CHAR16 *prefix, unsigned seq)
{
	unsigned i;

	for (i = 0; prefix[i]; i++)
		out[i] = prefix[i];
	out[i++] = (CHAR16)(L'0' + seq / 10);
	out[i++] = (CHAR16)(L'0' + seq % 10);
	out[i] = 0;
}

/* "IrqlabRecordNN": the handoff's records. */
static void record_name(CHAR16 *out, unsigned seq)
{
	numbered_name(out, L"IrqlabRecord", seq);
}

/* The store's free space and largest variable, as QueryVariableInfo
 * gives them now: before ExitBootServices EDK2 counts the space deleted
 * variables hold as free, since a boot-time write may reclaim it; at
 * runtime it does not (docs/uefi-variables.md). */
static const char *query_store(UINT64 *remaining, UINT64 *max_variable,
			       char *why, size_t cap)
{
	UINT64 max_storage = 0;
	EFI_STATUS st;

	*remaining = *max_variable = 0;
	if (RT->Hdr.Revision < UEFI_2_0_REVISION) {
		fmt_snprintf(why, cap, "firmware predates QueryVariableInfo");
		return why;
	}
	st = runtime_query_variable_info(HANDOFF_ATTRIBUTES, &max_storage,
					 remaining, max_variable);
	if (EFI_ERROR(st)) {
		fmt_snprintf(why, cap, "QueryVariableInfo failed (0x%llx)",
			     (unsigned long long)st);
		return why;
	}
	if (*max_variable < RECORD_MAX_BYTES) {
		fmt_snprintf(why, cap,
			     "variables are limited to %llu bytes, a record needs %u",
			     (unsigned long long)*max_variable, RECORD_MAX_BYTES);
		return why;
	}
	return 0;
}

uint64_t handoff_room_needed(size_t blob_len)
{
	/* The records, and one write of the marker: phase B rewrites it
	 * when the records cannot be written. */
	return blob_len +
	       records_needed(blob_len) *
		       (uint64_t)(RECORD_HEADER_BYTES + HANDOFF_VARIABLE_OVERHEAD) +
	       MARKER_MAX_BYTES + HANDOFF_VARIABLE_OVERHEAD +
	       HANDOFF_STORE_RESERVE;
}

static const char *too_little_room(UINT64 remaining, UINT64 needed,
				   const char *view, char *why, size_t cap)
{
	fmt_snprintf(why, cap,
		     "the variable store has %llu bytes free%s; a run needs %llu "
		     "(its results in records, plus a %u-byte reserve)",
		     (unsigned long long)remaining, view,
		     (unsigned long long)needed, HANDOFF_STORE_RESERVE);
	return why;
}

/* "IrqlabProbeNN": the variables phase A writes and deletes to make the
 * firmware reclaim. Boot-time only, never records. */
static void probe_name(CHAR16 *out, unsigned seq)
{
	numbered_name(out, L"IrqlabProbe", seq);
}

#define PROBE_MAX_VARIABLES 64
#define PROBE_CHUNK_BYTES (32 * 1024)
/* Left free beyond the rule for what the firmware itself writes
 * between phase A and phase B. */
#define PROBE_SLACK (2 * 1024)

static void delete_probes(void)
{
	unsigned seq;

	for (seq = 0; seq < PROBE_MAX_VARIABLES; seq++) {
		CHAR16 name[16];

		probe_name(name, seq);
		runtime_set_variable(name, &irqlab_guid,
				     EFI_VARIABLE_NON_VOLATILE |
					     EFI_VARIABLE_BOOTSERVICE_ACCESS,
				     0, NULL);
	}
}

/* EFI_FIRMWARE_VOLUME_BLOCK2_PROTOCOL (PI spec vol. 3, §3.4.2); only
 * GetPhysicalAddress is called. */
static EFI_GUID fvb2_guid = {
	0x8f644fa9, 0xe850, 0x4db1,
	{ 0x9c, 0xe2, 0x0b, 0x44, 0x69, 0x8e, 0x8d, 0xa4 }
};

struct fvb2 {
	void *get_attributes, *set_attributes;
	EFI_STATUS(EFIAPI *get_physical_address)(struct fvb2 *self,
						 EFI_PHYSICAL_ADDRESS *address);
};

#define FV_LENGTH_OFFSET 32

/* The variable store as the firmware keeps it in flash, read through the
 * memory-mapped firmware volume. Returns 0 and fills `u`, or -1 when no
 * volume holds a store irqlab can read. */
static int read_store_usage(struct varstore_usage *u)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0, i;
	int found = -1;

	if (EFI_ERROR(uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol,
					&fvb2_guid, NULL, &n, &handles)))
		return -1;
	for (i = 0; i < n && found; i++) {
		struct fvb2 *fvb = NULL;
		EFI_PHYSICAL_ADDRESS base = 0;
		const uint8_t *fv;

		if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, handles[i],
						&fvb2_guid, (void **)&fvb)) ||
		    EFI_ERROR(uefi_call_wrapper(fvb->get_physical_address, 2,
						fvb, &base)) ||
		    base == 0)
			continue;
		fv = (const uint8_t *)(uintptr_t)base;
		if (varstore_read(fv, (size_t)le_get(fv + FV_LENGTH_OFFSET, 8),
				  u) == VARSTORE_OK)
			found = 0;
	}
	uefi_call_wrapper(BS->FreePool, 1, handles);
	return found;
}

/* Writes probe variables of `chunk` bytes until more than `bytes` are
 * written. Returns 0, or the status of a write the firmware refused. */
static EFI_STATUS write_probes(UINT64 bytes, UINT64 chunk)
{
	static uint8_t zeros[PROBE_CHUNK_BYTES];
	UINT64 written = 0;
	unsigned seq;

	for (seq = 0; written <= bytes && seq < PROBE_MAX_VARIABLES; seq++) {
		UINT64 data = bytes + 1 - written < chunk ? bytes + 1 - written
							 : chunk;
		CHAR16 name[16];
		EFI_STATUS st;

		probe_name(name, seq);
		st = runtime_set_variable(name, &irqlab_guid,
					  EFI_VARIABLE_NON_VOLATILE |
						  EFI_VARIABLE_BOOTSERVICE_ACCESS,
					  (UINTN)data, zeros);
		if (EFI_ERROR(st))
			return st;
		written += data;
	}
	return EFI_SUCCESS;
}

/* One write-and-delete of more than `bytes` in probes. Returns 0, or -1
 * with `why` saying which write the firmware refused. */
static int probe_round(UINT64 bytes, UINT64 chunk, char *why, size_t cap)
{
	EFI_STATUS st = write_probes(bytes, chunk);

	delete_probes();
	if (!EFI_ERROR(st))
		return 0;
	fmt_snprintf(why, cap, "the firmware refused a boot-time write while "
		     "reclaiming the variable store (0x%llx)",
		     (unsigned long long)st);
	return -1;
}

/* Before ExitBootServices EDK2 reclaims the store when a write does not
 * fit in the free space at its end: deleted variables are dropped and the
 * rest compacted. At runtime it never does, and only that end counts; a
 * write-and-delete leaves its own deleted space there (measured on OVMF,
 * docs/uefi-variables.md). So phase A reads where the store ends; if the
 * end is too small, one probe write just larger than it makes the
 * firmware reclaim, the probe is deleted, and the store is read again. */
static const char *reclaim_seen(struct handoff_room *room,
				const struct varstore_usage *before,
				UINT64 chunk, char *why, size_t cap)
{
	struct varstore_usage after;

	room->end_free_before = varstore_end_free(before);
	room->end_free = room->end_free_before;
	if (room->end_free >= room->needed)
		return 0;
	room->probe_bytes = room->end_free + 1;
	if (probe_round(room->probe_bytes, chunk, why, cap))
		return why;
	room->reclaimed = 1;
	if (read_store_usage(&after)) {
		fmt_snprintf(why, cap, "the variable store could not be read "
			     "again after reclaiming it");
		return why;
	}
	room->end_free = varstore_end_free(&after);
	if (room->end_free < room->needed)
		return too_little_room(room->end_free, room->needed,
				       " at its end even after a reclaim",
				       why, cap);
	return 0;
}

/* Where the store cannot be read, only rounds of write-and-delete of P
 * bytes, P over half the free space R, make sure: after the first
 * reclaim each round reclaims again, and the end keeps R - P. So a run
 * needs R of twice its room, and the smallest handoff that fits is
 * chosen: the run then goes in more parts instead of being refused
 * (docs/uefi-variables.md "A store irqlab cannot read"). P is capped at
 * four times the room, so a large store is not half rewritten twice a
 * boot; a capped probe no longer makes sure, and says so: phase B then
 * finds out at runtime, and keeps the results on screen and COM1 if the
 * store refuses them. */
#define BLIND_PROBE_CAP_ROOMS 4

static const char *reclaim_blind(struct handoff_room *room, UINT64 remaining,
				 UINT64 chunk, char *why, size_t cap)
{
	uint32_t records;
	UINT64 target = 0;
	unsigned round;

	for (records = HANDOFF_MAX_RECORDS; records >= HANDOFF_MIN_RECORDS;
	     records -= HANDOFF_RECORDS_STEP) {
		room->blob_budget = records * RECORD_MAX_PAYLOAD;
		room->needed = handoff_room_needed(room->blob_budget);
		target = room->needed + PROBE_SLACK;
		if (remaining >= 2 * target)
			break;
	}
	if (remaining < 2 * target) {
		fmt_snprintf(why, cap,
			     "irqlab cannot read this firmware's variable store, "
			     "and with %llu bytes free it cannot make sure that even "
			     "the %llu its smallest handoff needs are free at "
			     "runtime (it needs twice that to force a reclaim blind)",
			     (unsigned long long)remaining,
			     (unsigned long long)room->needed);
		return why;
	}
	room->probe_bytes = remaining / 2 + PROBE_SLACK;
	room->guaranteed = 1;
	if (room->probe_bytes > BLIND_PROBE_CAP_ROOMS * target) {
		room->probe_bytes = BLIND_PROBE_CAP_ROOMS * target;
		room->guaranteed = 0;
	}
	room->rounds = 2;
	for (round = 0; round < room->rounds; round++)
		if (probe_round(room->probe_bytes, chunk, why, cap))
			return why;
	room->reclaimed = 1;
	return 0;
}

const char *handoff_make_room(struct handoff_room *room, int store_unreadable,
			      char *why, size_t cap)
{
	struct varstore_usage usage;
	UINT64 remaining, max_variable, chunk;

	*room = (struct handoff_room){
		.needed = handoff_room_needed(HANDOFF_MAX_BLOB),
		.blob_budget = HANDOFF_MAX_BLOB, .guaranteed = 1,
	};
	delete_probes();	/* left by a run that stopped mid-probe */
	if (query_store(&remaining, &max_variable, why, cap))
		return why;
	room->free_boot = remaining;
	room->max_variable = max_variable;
	if (remaining < handoff_room_needed(HANDOFF_MIN_RECORDS *
					    RECORD_MAX_PAYLOAD))
		return too_little_room(remaining, room->needed,
				       ", counting what deleted variables hold",
				       why, cap);
	chunk = max_variable > 2 * HANDOFF_VARIABLE_OVERHEAD
			? max_variable - 2 * HANDOFF_VARIABLE_OVERHEAD
			: RECORD_MAX_BYTES;
	if (chunk > PROBE_CHUNK_BYTES)
		chunk = PROBE_CHUNK_BYTES;
	if (!store_unreadable && read_store_usage(&usage) == 0) {
		room->store_seen = 1;
		if (remaining < room->needed)
			return too_little_room(remaining, room->needed,
					       ", counting what deleted variables "
					       "hold", why, cap);
		return reclaim_seen(room, &usage, chunk, why, cap);
	}
	return reclaim_blind(room, remaining, chunk, why, cap);
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

		if (query_store(&remaining, &max_variable, why, cap))
			return why;
		*free_at_runtime = remaining;
		if (remaining < handoff_room_needed(len))
			return too_little_room(remaining, handoff_room_needed(len),
					       " at runtime", why, cap);
	}
	for (seq = 0; seq < total; seq++) {
		CHAR16 name[32];
		size_t n = record_encode(record, run_id, (uint16_t)seq, blob, len);
		EFI_STATUS st;

		record_name(name, handoff_first_name + seq);
		/* Each name is written once per boot (efi-pstore's rule). */
		st = runtime_set_variable(name, &irqlab_guid,
					  HANDOFF_ATTRIBUTES, n, record);
		if (EFI_ERROR(st)) {
			fmt_snprintf(why, cap, "SetVariable of record %u failed (0x%llx)",
				     seq, (unsigned long long)st);
			return why;
		}
	}
	return 0;
}

/* The GUID simulate = store-fills writes under: not irqlab's, so phase
 * C never counts them as its own or as foreign names under its GUID. */
static EFI_GUID fill_guid = {
	0x5f2b0c1e, 0x8a4d, 0x4c6b,
	{ 0x9b, 0x1f, 0x3e, 0x7a, 0x2d, 0x9c, 0x4f, 0x62 }
};
#define FILL_BYTES 1000
#define FILL_MAX_VARIABLES 400

uint32_t handoff_fill_store(size_t blob_len)
{
	static uint8_t data[FILL_BYTES];
	UINT64 remaining, max_variable;
	uint32_t n;
	char why[120];

	for (n = 0; n < FILL_MAX_VARIABLES; n++) {
		CHAR16 name[32];

		if (query_store(&remaining, &max_variable, why, sizeof(why)) ||
		    remaining < handoff_room_needed(blob_len))
			break;
		/* IrqlabTestFillA00 .. IrqlabTestFillD99 */
		numbered_name(name, L"IrqlabTestFillA", n % 100);
		name[14] = (CHAR16)(L'A' + n / 100);
		if (EFI_ERROR(runtime_set_variable(name, &fill_guid,
						   HANDOFF_ATTRIBUTES,
						   sizeof(data), data)))
			break;
	}
	return n;
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

/* The marker's name, beside the records' under irqlab's GUID. */
#define MARKER_NAME L"IrqlabMeasuring"

static void read_marker(struct handoff_found *found)
{
	static uint8_t bytes[MARKER_MAX_BYTES];
	UINTN len = sizeof(bytes);
	UINT32 attributes;

	found->marker_found = 1;
	found->marker_readable =
		!EFI_ERROR(uefi_call_wrapper(RT->GetVariable, 5, MARKER_NAME,
					     &irqlab_guid, &attributes, &len,
					     bytes)) &&
		marker_decode(bytes, len, &found->marker) == 0;
}

const char *handoff_mark(const struct run_marker *m, char *why, size_t cap)
{
	uint8_t bytes[MARKER_MAX_BYTES];
	EFI_STATUS st = runtime_set_variable(MARKER_NAME, &irqlab_guid,
					     HANDOFF_ATTRIBUTES,
					     marker_encode(bytes, m), bytes);

	if (!EFI_ERROR(st)) {
		log_status(STATUS_MARKER, "state=%s", marker_state_name(m->state));
		return 0;
	}
	fmt_snprintf(why, cap, "SetVariable of the marker failed (0x%llx)",
		     (unsigned long long)st);
	return why;
}

int handoff_clear_mark(void)
{
	EFI_STATUS st = runtime_set_variable(MARKER_NAME, &irqlab_guid,
					     HANDOFF_ATTRIBUTES, 0, NULL);

	if (EFI_ERROR(st) && st != EFI_NOT_FOUND) {
		log_printf("could not delete the marker (0x%llx)\n",
			   (unsigned long long)st);
		return -1;
	}
	log_status(STATUS_MARKER, "state=cleared");
	return 0;
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
		if (CompareGuid(&guid, &irqlab_guid) != 0)
			continue;
		if (StrCmp(name, MARKER_NAME) == 0) {
			read_marker(found);
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
	EFI_STATUS st = runtime_set_variable(found->rec[i].name, &irqlab_guid,
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
