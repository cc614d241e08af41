/* Memory for the run, from the firmware's page allocator while boot
 * services last (UEFI spec §7.2 AllocatePages). */
#ifndef IRQLAB_EFI_PAGES_H
#define IRQLAB_EFI_PAGES_H

#include <efi.h>

/* Whole pages anywhere, as loader data; NULL when the firmware has none. */
void *pages_alloc(UINTN bytes);
/* Whole pages below 1 MiB, where a SIPI can start a processor; NULL
 * when the firmware has none there. */
void *pages_alloc_below_1m(UINTN bytes);
/* Whole pages below 4 GiB where the firmware has room, else anywhere. */
void *pages_alloc_below_4g(UINTN bytes);

#endif
