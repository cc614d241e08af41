/* The handoff records: the encoded results split into small, CRC-checked
 * pieces, each stored as one UEFI variable. The limits follow what Linux's
 * efi-pstore learned (docs/uefi-variables.md): records of at most 1 KiB;
 * how many a handoff takes is sized to the store's free room by phase A
 * (efi/handoff_room.c), up to HANDOFF_MAX_BYTES. */
#ifndef IRQLAB_BENCH_MODEL_RECORDS_H
#define IRQLAB_BENCH_MODEL_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#define RECORD_MAGIC 0x4c515249u	/* "IRQL" little-endian */
#define RECORD_VERSION 1
#define RECORD_HEADER_BYTES 36
#define RECORD_MAX_BYTES 1024
/* The most one handoff takes of any store: 64 records, under a third
 * of what OVMF's 4 MB store has free, leaving the names from 64 to 99
 * for records a firmware would not delete. */
#define HANDOFF_MAX_BYTES (64 * 1024)
#define HANDOFF_MAX_RECORDS (HANDOFF_MAX_BYTES / RECORD_MAX_BYTES)
#define RECORD_MAX_PAYLOAD (RECORD_MAX_BYTES - RECORD_HEADER_BYTES)
#define HANDOFF_MAX_BLOB (HANDOFF_MAX_RECORDS * RECORD_MAX_PAYLOAD)
/* Record names run from IrqlabRecord00 to IrqlabRecord99. */
#define HANDOFF_NAME_LIMIT 100
/* How many variables under irqlab's GUID phase C reads and judges: one
 * for every name a record can have. */
#define HANDOFF_SCAN_RECORDS HANDOFF_NAME_LIMIT

/* Linux efi-pstore's reserve: never leave less than this free
 * (arch/x86/platform/efi/quirks.c, after the 2013 Samsung bricking). */
#define HANDOFF_STORE_RESERVE (5 * 1024)
/* What one variable costs the store beyond its data: EDK2's authenticated
 * variable header (~60 bytes) plus the UCS-2 name, rounded up. */
#define HANDOFF_VARIABLE_OVERHEAD 128
/* A handoff is never less than 8 records: below that a part would be
 * mostly the run's header. The blind path (efi/handoff_room.c) tries 16
 * records down to 8, 4 at a time. */
#define HANDOFF_MIN_RECORDS 8
#define HANDOFF_BLIND_RECORDS 16
#define HANDOFF_RECORDS_STEP 4

/* The one budget rule, phase A's and phase B's: what the store must have
 * free to take a blob of `blob_len` bytes (the records, each with its
 * header and the store's overhead, one rewrite of the marker, and the
 * reserve). */
uint64_t handoff_room_needed(size_t blob_len);

/* How many records a handoff may take of a store with `free_bytes` free
 * whose largest variable may be `largest_variable` bytes
 * (QueryVariableInfo's MaximumVariableSize): the most whose room beyond
 * the reserve is at most three quarters of what is free beyond it, and
 * leaves the firmware room for its largest variable too; never more
 * than HANDOFF_MAX_RECORDS, never fewer than HANDOFF_MIN_RECORDS (phase
 * A refuses a store without room for those). docs/uefi-variables.md
 * "The handoff's size". */
uint32_t handoff_records_for(uint64_t free_bytes, uint64_t largest_variable);

uint32_t crc32_update(uint32_t crc, const void *data, size_t len);
uint32_t crc32(const void *data, size_t len);

struct record_view {
	uint64_t run_id;
	uint16_t seq;		/* 0 .. total-1 */
	uint16_t total;
	uint32_t blob_len;	/* of the whole reassembled blob */
	uint32_t blob_crc;
	uint16_t payload_len;
	const uint8_t *payload;
};

enum record_status {
	RECORD_OK = 0,
	RECORD_TRUNCATED,
	RECORD_BAD_MAGIC,
	RECORD_BAD_VERSION,
	RECORD_BAD_CRC,
	RECORD_BAD_LENGTH,
};

const char *record_status_name(enum record_status s);

/* Number of records `blob_len` bytes need, or 0 if they would not fit. */
size_t records_needed(size_t blob_len);

/* Writes record `seq` of the blob into `out` (RECORD_MAX_BYTES at least).
 * Returns the record's length, or 0 if seq is out of range. */
size_t record_encode(uint8_t *out, uint64_t run_id, uint16_t seq,
		     const uint8_t *blob, size_t blob_len);

enum record_status record_decode(const uint8_t *rec, size_t len,
				 struct record_view *v);

/* What phase C decided about each record it found. */
enum record_fate {
	FATE_USED = 0,	/* part of the run whose files were written */
	FATE_CORRUPT,	/* failed its own checks */
	FATE_STALE,	/* valid, but of an incomplete or superseded run */
};

struct handoff_item {
	const uint8_t *data;
	size_t len;
	/* filled by handoff_select */
	uint8_t fate;	/* enum record_fate */
	char why[64];
};

/* Picks the newest run whose records are complete and consistent and
 * reassembles its blob. Every item gets a fate and, unless used, a reason.
 * Returns 1 and fills blob/len/run_id when a run was reassembled. */
int handoff_select(struct handoff_item *items, size_t n, uint8_t *blob,
		   size_t cap, size_t *blob_len, uint64_t *run_id);

/* Records a report names one by one; more are only counted. */
#define HANDOFF_MAX_DISCARDS 64

/* What phase C found in the variable store besides the run it wrote. */
struct handoff_report {
	uint32_t records_used;
	uint32_t n_discarded;
	struct {
		char name[32];
		uint8_t fate;	/* enum record_fate */
		char why[64];
	} discarded[HANDOFF_MAX_DISCARDS];
};

/* The report of what handoff_select decided about each record, whose
 * names are `names`. */
void handoff_report_fill(struct handoff_report *h,
			 const struct handoff_item *items,
			 const char *const *names, size_t n);

const char *record_fate_name(unsigned fate);

/* The "measuring" marker, one small variable beside the records
 * (docs/run.md "No loop after a hang"): phase A sets it before it
 * measures, and phase B clears it once the records are written, or says
 * in it why they were not. A boot that finds it without records does not
 * measure again. */
#define MARKER_MAGIC 0x4d515249u	/* "IRQM" little-endian */
#define MARKER_VERSION 1
#define MARKER_WHY_LEN 160
#define MARKER_HEADER_BYTES 19
#define MARKER_MAX_BYTES (MARKER_HEADER_BYTES + MARKER_WHY_LEN + 4)

enum marker_state {
	MARKER_MEASURING = 1,	/* phase A set it: phase B has not ended */
	MARKER_NOT_STORED = 2,	/* phase B measured; the store refused */
	MARKER_STATE_END
};

struct run_marker {
	uint8_t state;		/* enum marker_state */
	uint8_t run_index, part;
	uint16_t first_row;
	uint64_t run_id;
	char why[MARKER_WHY_LEN];	/* MARKER_NOT_STORED: the store's answer */
};

/* Writes the marker into `out` (MARKER_MAX_BYTES); returns its length. */
size_t marker_encode(uint8_t *out, const struct run_marker *m);
/* Returns 0 and fills `m`, or -1 for bytes that are not a marker. */
int marker_decode(const uint8_t *in, size_t len, struct run_marker *m);
const char *marker_state_name(unsigned state);

#endif
