/* Files on the volume irqlab was loaded from (the ESP), through the
 * firmware's Simple File System protocol. Paths are ASCII with '\'. */
#ifndef IRQLAB_EFI_FILES_H
#define IRQLAB_EFI_FILES_H

#include <efi.h>

EFI_FILE_HANDLE files_open_root(EFI_HANDLE image);
/* Creates every directory along `path`. Returns 0 or -1. */
int files_mkdir_p(EFI_FILE_HANDLE root, const char *path);
/* Replaces the file with `data`, then reads it back into `scratch` (at
 * least len bytes) and compares. Returns NULL or what went wrong. */
const char *files_write_verified(EFI_FILE_HANDLE root, const char *path,
				 const void *data, UINTN len, void *scratch);
/* Reads up to cap bytes. Returns the length read, or -1. */
INTN files_read(EFI_FILE_HANDLE root, const char *path, void *buf, UINTN cap);

#endif
