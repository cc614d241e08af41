/* Files on the server irqlab was PXE-booted from (docs/lab.md), read
 * through the firmware's PXE base code: the instance on the handle that
 * loaded the image (UEFI 2.10 §24.3), by TFTP from the server and the
 * folder its boot file came from. */
#ifndef IRQLAB_EFI_NETWORK_FILES_H
#define IRQLAB_EFI_NETWORK_FILES_H

#include <efi.h>

/* Reads `name` (in the boot file's folder) into buf. Returns the length
 * read, `cap` where the file is larger, or -1 where irqlab was not
 * PXE-booted over IPv4 or the server has no such file. `from` gets
 * "tftp://SERVER/FOLDER/NAME". */
INTN network_files_read(EFI_HANDLE image, const char *name, void *buf,
			UINTN cap, char *from, UINTN from_cap);

#endif
