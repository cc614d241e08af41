#include <efi.h>
#include <efilib.h>

#include "efi/pages.h"
#include "arch/paging.h"

void *pages_alloc(UINTN bytes)
{
	EFI_PHYSICAL_ADDRESS a = 0;
	UINTN pages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;

	if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4, AllocateAnyPages,
					EfiLoaderData, pages, &a)))
		return NULL;
	return (void *)(uintptr_t)a;
}

/* Pages that end at or below `highest` (AllocateMaxAddress), or NULL. */
static void *pages_at_most(EFI_PHYSICAL_ADDRESS highest, UINTN bytes)
{
	EFI_PHYSICAL_ADDRESS a = highest;
	UINTN pages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;

	if (EFI_ERROR(uefi_call_wrapper(BS->AllocatePages, 4,
					AllocateMaxAddress, EfiLoaderData,
					pages, &a)))
		return NULL;
	return (void *)(uintptr_t)a;
}

void *pages_alloc_below_1m(UINTN bytes)
{
	return pages_at_most(0xfffffull, bytes);
}

/* Page tables below 4 GiB where the firmware has room: the way back from
 * the 32-bit phase loads CR3 with a 32-bit MOV (docs/protected-mode.md).
 * Anywhere else, the i386 rows say so and the rest runs. */
void *pages_alloc_below_4g(UINTN bytes)
{
	void *p = pages_at_most(0xffffffffull, bytes);

	return p ? p : pages_alloc(bytes);
}
