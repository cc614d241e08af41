#include "firmware/varstore.h"

#include "arch/lib/fmt.h"
#include "arch/lib/le.h"

/* EFI_FIRMWARE_VOLUME_HEADER (PI spec vol. 3, §3.2.1). */
#define FV_FILE_SYSTEM_GUID 16
#define FV_SIGNATURE 40
#define FV_HEADER_LENGTH 48
#define FV_MIN_HEADER 56
/* VARIABLE_STORE_HEADER: signature GUID, Size, Format, State, reserved. */
#define STORE_HEADER_BYTES 28
#define STORE_SIZE 16
#define STORE_FORMAT 20
#define STORE_FORMATTED 0x5a
/* VARIABLE_HEADER and AUTHENTICATED_VARIABLE_HEADER; each variable
 * starts 4-byte aligned, its data right after its name (ALIGNMENT is 1
 * on x86). */
#define VARIABLE_START_ID 0x55aa
#define VARIABLE_STATE 2
#define VAR_ADDED 0x3f
/* VAR_ADDED with VAR_IN_DELETED_TRANSITION cleared: still the live copy
 * until its successor is complete. */
#define VAR_ADDED_IN_TRANSITION 0x3e
#define HEADER_BYTES 32
#define AUTH_HEADER_BYTES 60

/* gEfiSystemNvDataFvGuid, gEfiVariableGuid, gEfiAuthenticatedVariableGuid
 * in their in-memory byte order. */
static const uint8_t nv_data_fv[16] = {
	0x8d, 0x2b, 0xf1, 0xff, 0x96, 0x76, 0x8b, 0x4c,
	0xa9, 0x85, 0x27, 0x47, 0x07, 0x5b, 0x4f, 0x50 };
static const uint8_t variable_store[16] = {
	0x16, 0x36, 0xcf, 0xdd, 0x75, 0x32, 0x64, 0x41,
	0x98, 0xb6, 0xfe, 0x85, 0x70, 0x7f, 0xfe, 0x7d };
static const uint8_t auth_variable_store[16] = {
	0x78, 0x2c, 0xf3, 0xaa, 0x7b, 0x94, 0x9a, 0x43,
	0xa1, 0x80, 0x2e, 0x14, 0x4e, 0xc3, 0x77, 0x92 };

static uint32_t align4(uint64_t v)
{
	return (uint32_t)((v + 3) & ~3ull);
}

enum varstore_status varstore_read(const uint8_t *fv, size_t len,
				   struct varstore_usage *u)
{
	return varstore_each(fv, len, u, 0, 0);
}

enum varstore_status varstore_each(const uint8_t *fv, size_t len,
				   struct varstore_usage *u,
				   void (*visit)(void *ctx,
						 const struct varstore_variable *v),
				   void *ctx)
{
	const uint8_t *store;
	uint32_t header, size, at, name_at, header_bytes;

	*u = (struct varstore_usage){ 0 };
	if (len < FV_MIN_HEADER || !bytes_eq(fv + FV_SIGNATURE, "_FVH", 4) ||
	    !bytes_eq(fv + FV_FILE_SYSTEM_GUID, nv_data_fv, 16))
		return VARSTORE_NOT_NV_DATA;
	header = (uint32_t)le_get(fv + FV_HEADER_LENGTH, 2);
	if (header < FV_MIN_HEADER ||
	    (uint64_t)header + STORE_HEADER_BYTES > len)
		return VARSTORE_BAD_LENGTH;
	store = fv + header;
	if (bytes_eq(store, auth_variable_store, 16))
		u->authenticated = 1;
	else if (!bytes_eq(store, variable_store, 16))
		return VARSTORE_UNKNOWN_FORMAT;
	if (store[STORE_FORMAT] != STORE_FORMATTED)
		return VARSTORE_UNKNOWN_FORMAT;
	size = (uint32_t)le_get(store + STORE_SIZE, 4);
	if (size < STORE_HEADER_BYTES || (uint64_t)header + size > len)
		return VARSTORE_BAD_LENGTH;
	u->store_bytes = size;
	header_bytes = u->authenticated ? AUTH_HEADER_BYTES : HEADER_BYTES;
	/* NameSize and DataSize are the header's last three fields but the
	 * GUID: at header_bytes - 24 and - 20. */
	for (at = align4(STORE_HEADER_BYTES);
	     (uint64_t)at + header_bytes <= size &&
	     (uint32_t)le_get(store + at, 2) == VARIABLE_START_ID;) {
		uint32_t name = (uint32_t)le_get(store + at + header_bytes - 24, 4);
		uint32_t data = (uint32_t)le_get(store + at + header_bytes - 20, 4);
		uint64_t next;
		int live;

		name_at = at + header_bytes;
		next = align4((uint64_t)name_at + name + data);
		if (name > size || data > size || next > size)
			return VARSTORE_BAD_VARIABLE;
		u->variables++;
		live = store[at + VARIABLE_STATE] == VAR_ADDED ||
		       store[at + VARIABLE_STATE] == VAR_ADDED_IN_TRANSITION;
		if (live)
			u->live_bytes += (uint32_t)next - at;
		else
			u->deleted_bytes += (uint32_t)next - at;
		if (visit) {
			/* VendorGuid is the header's last field. */
			const struct varstore_variable v = {
				.name = store + name_at, .name_bytes = name,
				.guid = store + at + header_bytes - 16,
				.data = store + name_at + name,
				.data_bytes = data, .live = (uint8_t)live };

			visit(ctx, &v);
		}
		at = (uint32_t)next;
	}
	u->used_bytes = at;
	return VARSTORE_OK;
}
