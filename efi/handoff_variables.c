#include <efi.h>
#include <efilib.h>

#include "efi/handoff_variables.h"
#include "efi/runtime.h"

#include "arch/lib/fmt.h"

EFI_GUID handoff_guid = {
	0x5f2b0c1e, 0x8a4d, 0x4c6b,
	{ 0x9b, 0x1f, 0x3e, 0x7a, 0x2d, 0x9c, 0x4f, 0x61 }
};

/* QueryVariableInfo arrived with UEFI 2.0 (major in the high 16 bits). */
#define UEFI_2_0_REVISION (2u << 16)

/* PREFIX then two digits: the names of irqlab's variables. */
void handoff_numbered_name(CHAR16 *out, const CHAR16 *prefix, unsigned seq)
{
	unsigned i;

	for (i = 0; prefix[i]; i++)
		out[i] = prefix[i];
	out[i++] = (CHAR16)(L'0' + seq / 10);
	out[i++] = (CHAR16)(L'0' + seq % 10);
	out[i] = 0;
}

/* The store's free space and largest variable, as QueryVariableInfo
 * gives them now: before ExitBootServices EDK2 counts the space deleted
 * variables hold as free, since a boot-time write may reclaim it; at
 * runtime it does not (docs/uefi-variables.md). */
const char *handoff_query_store(UINT64 *remaining, UINT64 *max_variable,
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

const char *handoff_too_little_room(UINT64 remaining, UINT64 needed,
				    const char *view, char *why, size_t cap)
{
	fmt_snprintf(why, cap,
		     "the variable store has %llu bytes free%s; a run needs %llu "
		     "(its results in records, plus a %u-byte reserve)",
		     (unsigned long long)remaining, view,
		     (unsigned long long)needed, HANDOFF_STORE_RESERVE);
	return why;
}
