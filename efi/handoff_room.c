#include <efi.h>
#include <efilib.h>

#include "efi/handoff_variables.h"
#include "efi/runtime.h"

#include "arch/lib/fmt.h"
#include "arch/lib/le.h"
#include "firmware/varstore.h"

/* "IrqlabProbeNN": the variables phase A writes and deletes to make the
 * firmware reclaim. Boot-time only, never records. */
static void reclaim_variable_name(CHAR16 *out, unsigned seq)
{
	handoff_numbered_name(out, L"IrqlabProbe", seq);
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

		reclaim_variable_name(name, seq);
		runtime_set_variable(name, &handoff_guid,
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
 * written, deleting each as soon as it is written: deleted, a probe
 * still takes the store's end until the firmware reclaims, so the write
 * that does not fit makes it reclaim all the probes before it, and only
 * the probes written after that reclaim are left as deleted space (one,
 * where `bytes` is the end's free space; when all were kept until the
 * end, every probe the reclaim kept was left so: 15 KB of OVMF's 2 MB
 * store). Returns 0, or the status of a write the firmware refused. */
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

		reclaim_variable_name(name, seq);
		st = runtime_set_variable(name, &handoff_guid,
					  EFI_VARIABLE_NON_VOLATILE |
						  EFI_VARIABLE_BOOTSERVICE_ACCESS,
					  (UINTN)data, zeros);
		if (EFI_ERROR(st))
			return st;
		runtime_set_variable(name, &handoff_guid,
				     EFI_VARIABLE_NON_VOLATILE |
					     EFI_VARIABLE_BOOTSERVICE_ACCESS,
				     0, NULL);
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
 * end is too small, probes make the firmware reclaim
 * (probe_until_reclaimed), and the store is read again. */
/* What the end may keep before the probe that makes the firmware
 * reclaim: that probe, just larger, is the one left as deleted space. */
#define PROBE_LAST_BYTES 1024

/* Where the store can be read: probes deleted as each is written fill
 * its end until under PROBE_LAST_BYTES stay, each sized from the store
 * read again; then one just larger than what stays does not fit, and
 * the firmware reclaims, dropping every deleted probe. Only that last
 * one, about a KiB, is left as deleted space: one probe of the end's
 * size at once left the end's size (a part's second boot on a store
 * other software had filled found 7500 bytes at its end after the
 * reclaim, of 18536). Stops early where the end holds `needed` again.
 * `written` says what the probes wrote. Returns 0, or -1 with `why`. */
static int probe_until_reclaimed(struct varstore_usage *u, UINT64 needed,
				 UINT64 chunk, UINT64 *written, char *why,
				 size_t cap)
{
	unsigned step;

	*written = 0;
	for (step = 0; step < PROBE_MAX_VARIABLES; step++) {
		UINT64 end = varstore_end_free(u), bytes;

		/* OVMF reclaims by itself once the end falls below its
		 * largest variable: the deleted probes are gone already. */
		if (step && end >= needed)
			return 0;
		if (end <= PROBE_LAST_BYTES + HANDOFF_VARIABLE_OVERHEAD) {
			*written += end + 1;
			return probe_round(end, chunk, why, cap);
		}
		bytes = end - PROBE_LAST_BYTES - HANDOFF_VARIABLE_OVERHEAD;
		if (bytes > chunk)
			bytes = chunk;
		*written += bytes;
		/* one probe of `bytes`, which fits */
		if (probe_round(bytes - 1, chunk, why, cap))
			return -1;
		if (read_store_usage(u)) {
			fmt_snprintf(why, cap, "the variable store could not be "
				     "read again while reclaiming it");
			return -1;
		}
	}
	fmt_snprintf(why, cap, "the variable store's end did not fill with %u "
		     "probes", PROBE_MAX_VARIABLES);
	return -1;
}

static const char *reclaim_seen(struct handoff_room *room,
				const struct varstore_usage *before,
				UINT64 chunk, UINT64 max_variable,
				uint32_t most_records, char *why, size_t cap)
{
	struct varstore_usage after;
	uint32_t records;

	room->end_free_before = varstore_end_free(before);
	room->end_free = room->end_free_before;
	if (room->end_free >= room->needed)
		return 0;
	after = *before;
	if (probe_until_reclaimed(&after, room->needed, chunk,
				  &room->probe_bytes, why, cap))
		return why;
	room->reclaimed = 1;
	if (read_store_usage(&after)) {
		fmt_snprintf(why, cap, "the variable store could not be read "
			     "again after reclaiming it");
		return why;
	}
	room->end_free = varstore_end_free(&after);
	if (room->end_free >= room->needed)
		return 0;
	/* The reclaim gave back less than the store's reading promised
	 * (its last probe is deleted space at the end): the handoff is
	 * sized again to what the end has, and the run goes in more parts
	 * rather than none. */
	records = handoff_records_for(room->end_free, max_variable);
	if (most_records && most_records < records)
		records = most_records;
	if (handoff_room_needed(records * RECORD_MAX_PAYLOAD) > room->end_free)
		return handoff_too_little_room(room->end_free, room->needed,
				       " at its end even after a reclaim",
				       why, cap);
	room->blob_budget = records * RECORD_MAX_PAYLOAD;
	room->needed = handoff_room_needed(room->blob_budget);
	room->resized = 1;
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
				 uint32_t most_records, UINT64 chunk, char *why,
				 size_t cap)
{
	uint32_t records;
	UINT64 target = 0;
	unsigned round;

	for (records = most_records && most_records < HANDOFF_BLIND_RECORDS
			       ? most_records : HANDOFF_BLIND_RECORDS;
	     records >= HANDOFF_MIN_RECORDS; records -= HANDOFF_RECORDS_STEP) {
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
			      uint32_t most_records, char *why, size_t cap)
{
	struct varstore_usage usage;
	UINT64 remaining, max_variable, chunk;

	*room = (struct handoff_room){
		.needed = handoff_room_needed(HANDOFF_MIN_RECORDS *
					      RECORD_MAX_PAYLOAD),
		.blob_budget = HANDOFF_MIN_RECORDS * RECORD_MAX_PAYLOAD,
		.guaranteed = 1,
	};
	delete_probes();	/* left by a run that stopped mid-probe */
	if (handoff_query_store(&remaining, &max_variable, why, cap))
		return why;
	room->free_boot = remaining;
	room->max_variable = max_variable;
	if (remaining < handoff_room_needed(HANDOFF_MIN_RECORDS *
					    RECORD_MAX_PAYLOAD))
		return handoff_too_little_room(remaining, room->needed,
				       ", counting what deleted variables hold",
				       why, cap);
	chunk = max_variable > 2 * HANDOFF_VARIABLE_OVERHEAD
			? max_variable - 2 * HANDOFF_VARIABLE_OVERHEAD
			: RECORD_MAX_BYTES;
	if (chunk > PROBE_CHUNK_BYTES)
		chunk = PROBE_CHUNK_BYTES;
	if (!store_unreadable && read_store_usage(&usage) == 0) {
		/* Sized to the store: its share of what is free now, deleted
		 * variables' space counted, since a reclaim gives it back;
		 * the store's own reading where it says less than
		 * QueryVariableInfo (OVMF's 2 MB store: 40788 bytes at the
		 * end of a fresh store that QueryVariableInfo says has
		 * 45780 free). */
		UINT64 reclaimable = varstore_end_free(&usage) +
				     (UINT64)usage.deleted_bytes;
		uint32_t records = handoff_records_for(
			reclaimable < remaining ? reclaimable : remaining,
			max_variable);

		room->store_seen = 1;
		if (most_records && most_records < records)
			records = most_records;
		room->blob_budget = records * RECORD_MAX_PAYLOAD;
		room->needed = handoff_room_needed(room->blob_budget);
		if (remaining < room->needed)
			return handoff_too_little_room(remaining, room->needed,
					       ", counting what deleted variables "
					       "hold", why, cap);
		return reclaim_seen(room, &usage, chunk, max_variable,
				    most_records, why, cap);
	}
	return reclaim_blind(room, remaining, most_records, chunk, why, cap);
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

		if (handoff_query_store(&remaining, &max_variable, why, sizeof(why)) ||
		    remaining < handoff_room_needed(blob_len))
			break;
		/* IrqlabTestFillA00 .. IrqlabTestFillD99 */
		handoff_numbered_name(name, L"IrqlabTestFillA", n % 100);
		name[14] = (CHAR16)(L'A' + n / 100);
		if (EFI_ERROR(runtime_set_variable(name, &fill_guid,
						   HANDOFF_ATTRIBUTES,
						   sizeof(data), data)))
			break;
	}
	return n;
}
