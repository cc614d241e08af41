/* EDK2's variable store, read as bytes: where its used part ends.
 *
 * At runtime EDK2 appends every write at the end of the store and never
 * reclaims the space deleted variables hold, so only the bytes after the
 * last variable can take phase B's records. QueryVariableInfo before
 * ExitBootServices cannot tell: it counts deleted space as free, since a
 * boot-time write reclaims it. The layout is EDK2's, described in
 * docs/uefi-variables.md ("The store's layout"): a firmware volume whose
 * file system is the NV data GUID, a variable store header, then
 * variables that each begin with 0x55AA and are 4-byte aligned. Other
 * firmware stores are reported unrecognised. */
#ifndef IRQLAB_FIRMWARE_VARSTORE_H
#define IRQLAB_FIRMWARE_VARSTORE_H

#include <stddef.h>
#include <stdint.h>

enum varstore_status {
	VARSTORE_OK = 0,
	VARSTORE_NOT_NV_DATA,	/* not a firmware volume of NV data */
	VARSTORE_UNKNOWN_FORMAT,	/* no EDK2 variable store header */
	VARSTORE_BAD_LENGTH,	/* sizes beyond the bytes given */
	VARSTORE_BAD_VARIABLE,	/* a variable runs past the store */
};

struct varstore_usage {
	uint32_t store_bytes;	/* the store, header included */
	uint32_t used_bytes;	/* header and every variable, deleted or not */
	uint32_t live_bytes;	/* variables still in use (state "added") */
	uint32_t deleted_bytes;	/* variables the next reclaim drops */
	uint32_t variables;
	uint8_t authenticated;	/* authenticated variable headers */
};

/* Free bytes at the end of the store. */
static inline uint32_t varstore_end_free(const struct varstore_usage *u)
{
	return u->store_bytes - u->used_bytes;
}

/* Walks the firmware volume `fv` of `len` bytes. */
enum varstore_status varstore_read(const uint8_t *fv, size_t len,
				   struct varstore_usage *u);

/* One variable as the walk finds it: its name in UCS-2 (name_bytes
 * long, its NUL included), vendor GUID in memory order, data, and
 * whether it is the live copy. */
struct varstore_variable {
	const uint8_t *name;
	uint32_t name_bytes;
	const uint8_t *guid;
	const uint8_t *data;
	uint32_t data_bytes;
	uint8_t live;
};

/* The same walk, calling `visit` for each variable (live or deleted) in
 * store order; a store refused part-way has visited what came before. */
enum varstore_status varstore_each(const uint8_t *fv, size_t len,
				   struct varstore_usage *u,
				   void (*visit)(void *ctx,
						 const struct varstore_variable *v),
				   void *ctx);

#endif
