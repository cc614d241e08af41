/* What the handoff's parts share (docs/uefi-variables.md): irqlab's
 * GUID and its variables' attributes and names, and the store's room as
 * QueryVariableInfo gives it. The parts: making room in phase A
 * (handoff_room.c), the records (handoff_records.c), the marker
 * (handoff_marker.c); the pieces here, in handoff_variables.c. */
#ifndef IRQLAB_EFI_HANDOFF_VARIABLES_H
#define IRQLAB_EFI_HANDOFF_VARIABLES_H

#include <efi.h>

#include "efi/handoff.h"

/* irqlab's own vendor GUID: no other software's variables are touched. */
extern EFI_GUID handoff_guid;

#define HANDOFF_ATTRIBUTES                                              \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |  \
	 EFI_VARIABLE_RUNTIME_ACCESS)

/* PREFIX then two digits: the names of irqlab's variables. */
void handoff_numbered_name(CHAR16 *out, const CHAR16 *prefix, unsigned seq);

/* The store's free space and largest variable now; NULL, or why not
 * (in `why`). */
const char *handoff_query_store(UINT64 *remaining, UINT64 *max_variable,
				char *why, size_t cap);

/* Says in `why` that `remaining` bytes (seen as `view` says) are fewer
 * than a run's `needed`; returns `why`. */
const char *handoff_too_little_room(UINT64 remaining, UINT64 needed,
				    const char *view, char *why, size_t cap);

/* Whether `name` is the marker's, and the marker read into `found`
 * (handoff_marker.c), for handoff_find's walk. */
int handoff_is_marker(const CHAR16 *name);
void handoff_read_marker(struct handoff_found *found);

#endif
