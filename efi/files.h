/* Files on the volume irqlab was loaded from (the ESP), through the
 * firmware's Simple File System protocol. Paths are ASCII with '\'. */
#ifndef IRQLAB_EFI_FILES_H
#define IRQLAB_EFI_FILES_H

#include <efi.h>

#include "firmware/netboot.h"

/* The handle of the device the image was loaded from (its loaded image
 * protocol's DeviceHandle), or NULL. */
EFI_HANDLE files_loaded_device(EFI_HANDLE image);
EFI_FILE_HANDLE files_open_root(EFI_HANDLE image);
/* The root of the machine's first EFI system partition whose file system
 * is writable, or NULL: where a network-booted irqlab keeps a copy of its
 * files (docs/lab.md "Where the results go"). */
EFI_FILE_HANDLE files_open_system_partition(void);
/* Where the image was loaded from: its device's path, read by
 * boot_origin_read (a network boot has a MAC node; docs/lab.md).
 * Returns 0, or -1 where the firmware gives no readable path. */
int files_boot_origin(EFI_HANDLE image, struct boot_origin *out);
/* Creates every directory along `path`. Returns 0 or -1. */
int files_mkdir_p(EFI_FILE_HANDLE root, const char *path);
/* Writes `data` under a temporary name, reads it back into `scratch` (at
 * least len bytes) and compares, and only then replaces the file: the
 * final name never holds a partial copy. Returns NULL or what went
 * wrong ("disk full" when the volume lacks the room). */
const char *files_write_verified(EFI_FILE_HANDLE root, const char *path,
				 const void *data, UINTN len, void *scratch);
/* What follows the last backslash of a path. */
const char *files_last_component(const char *path);
/* Reads up to cap bytes. Returns the length read, or -1. */
INTN files_read(EFI_FILE_HANDLE root, const char *path, void *buf, UINTN cap);

#endif
