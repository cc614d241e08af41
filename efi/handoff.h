/* The results handoff through UEFI variables (docs/run.md,
 * docs/uefi-variables.md). Phase B stores the encoded results as CRC-checked
 * records with runtime SetVariable; phase C finds, reassembles and, once
 * the files are verified, deletes them. The parts: making room in phase
 * A (handoff_room.c), the records (handoff_records.c), the marker
 * (handoff_marker.c); what they share is in handoff_variables.c. */
#ifndef IRQLAB_EFI_HANDOFF_H
#define IRQLAB_EFI_HANDOFF_H

#include <efi.h>

#include "bench/model/records.h"

/* What phase A found in the store and did to it. */
struct handoff_room {
	uint64_t free_boot;	/* QueryVariableInfo before ExitBootServices */
	uint64_t max_variable;
	uint64_t needed;	/* handoff_room_needed(blob_budget) */
	uint8_t store_seen;	/* the store's bytes could be read */
	uint8_t reclaimed;	/* probes made the firmware reclaim */
	uint8_t resized;	/* the reclaim gave back less: sized again */
	uint64_t end_free_before, end_free;	/* at its end: what runtime can use */
	uint64_t probe_bytes;	/* written and deleted (per round, when blind) */
	uint32_t rounds;	/* blind rounds */
	/* The blob one handoff may carry: handoff_records_for the store's
	 * free space, or the blind path's (more parts where it is less). */
	uint32_t blob_budget;
	/* The room is made sure of: always where the store is seen; blind,
	 * unless the probe was capped. */
	uint8_t guaranteed;
};

/* Phase A: makes sure phase B will find room for a full-size handoff,
 * reclaiming space deleted variables hold while boot services can
 * (docs/uefi-variables.md). `store_unreadable` takes the blind path as
 * if the store's layout were not edk2's (simulate = store-unreadable).
 * `most_records`, when not 0, caps the handoff (the handoff_kib key).
 * Returns NULL, or why a run's results could not be kept, in which case
 * phase A must not measure. */
const char *handoff_make_room(struct handoff_room *room, int store_unreadable,
			      uint32_t most_records, char *why, size_t cap);

/* Phase B (runtime services only). Returns NULL on success or why the
 * results were not persisted; says what the store had free. */
const char *handoff_store(const uint8_t *blob, size_t len, uint64_t run_id,
			  uint64_t *free_at_runtime, char *why, size_t cap);
/* simulate = store-fills: writes 1000-byte variables of a test GUID at
 * runtime until the store has less room than a blob of `blob_len`
 * needs. Returns how many. */
uint32_t handoff_fill_store(size_t blob_len);

/* Phase C (boot services). Foreign names kept for the report. */
#define HANDOFF_FOREIGN_NAMES 4

struct handoff_found {
	uint32_t n;
	struct {
		CHAR16 name[32];
		char name_ascii[32];
		uint8_t seq;		/* the NN of IrqlabRecordNN */
		uint8_t data[RECORD_MAX_BYTES];
		UINTN len;
		uint8_t oversize;	/* larger than any record can be */
		uint8_t chosen;		/* for handoff_delete_chosen */
		uint8_t undeletable;	/* a deletion failed */
	} rec[HANDOFF_SCAN_RECORDS];
	/* The "measuring" marker, when there is one. */
	uint8_t marker_found, marker_readable;
	struct run_marker marker;
	/* Variables under irqlab's GUID that are not its records. */
	uint32_t n_foreign;
	char foreign[HANDOFF_FOREIGN_NAMES][64];
};

/* The "measuring" marker (docs/run.md "No loop after a hang"): set by
 * phase A, changed by phase B when the store refused the records, and
 * cleared once they are written. Set returns NULL or why not. */
const char *handoff_mark(const struct run_marker *m, char *why, size_t cap);
/* Returns 0 when it is gone (or never was), -1 when it cannot be deleted. */
int handoff_clear_mark(void);

/* Reads every irqlab variable. Returns how many there are. */
uint32_t handoff_find(struct handoff_found *found);
/* Deletes every variable found. Returns how many deletions failed, and
 * marks those undeletable. */
uint32_t handoff_delete(struct handoff_found *found);
/* Deletes the chosen ones only and drops them from `found`; those that
 * cannot be deleted stay, marked undeletable. Returns how many. */
uint32_t handoff_delete_chosen(struct handoff_found *found);

/* Drops the records marked undeletable from `found`, saying so, and
 * keeps phase B's records past every name they hold. Returns how many. */
uint32_t handoff_set_aside_undeletable(struct handoff_found *found);

#endif
