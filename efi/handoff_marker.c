#include <efi.h>
#include <efilib.h>

#include "efi/handoff_variables.h"
#include "efi/runtime.h"

#include "arch/lib/fmt.h"
#include "arch/lib/log.h"

/* The marker's name, beside the records' under irqlab's GUID. */
#define MARKER_NAME L"IrqlabMeasuring"

void handoff_read_marker(struct handoff_found *found)
{
	static uint8_t bytes[MARKER_MAX_BYTES];
	UINTN len = sizeof(bytes);
	UINT32 attributes;

	found->marker_found = 1;
	found->marker_readable =
		!EFI_ERROR(uefi_call_wrapper(RT->GetVariable, 5, MARKER_NAME,
					     &handoff_guid, &attributes, &len,
					     bytes)) &&
		marker_decode(bytes, len, &found->marker) == 0;
}

int handoff_is_marker(const CHAR16 *name)
{
	return StrCmp(name, MARKER_NAME) == 0;
}

const char *handoff_mark(const struct run_marker *m, char *why, size_t cap)
{
	uint8_t bytes[MARKER_MAX_BYTES];
	EFI_STATUS st = runtime_set_variable(MARKER_NAME, &handoff_guid,
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
	EFI_STATUS st = runtime_set_variable(MARKER_NAME, &handoff_guid,
					     HANDOFF_ATTRIBUTES, 0, NULL);

	if (EFI_ERROR(st) && st != EFI_NOT_FOUND) {
		log_printf("could not delete the marker (0x%llx)\n",
			   (unsigned long long)st);
		return -1;
	}
	log_status(STATUS_MARKER, "state=cleared");
	return 0;
}
