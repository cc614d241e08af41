#include <efi.h>
#include <efilib.h>

#include "efi/files.h"

#define PATH_MAX_CHARS 128

static void widen(CHAR16 *out, const char *in)
{
	unsigned i;

	for (i = 0; in[i] && i < PATH_MAX_CHARS - 1; i++)
		out[i] = (CHAR16)(unsigned char)in[i];
	out[i] = 0;
}

EFI_FILE_HANDLE files_open_root(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE *loaded = NULL;
	EFI_STATUS st;

	st = uefi_call_wrapper(BS->HandleProtocol, 3, image,
			       &LoadedImageProtocol, (void **)&loaded);
	if (EFI_ERROR(st) || !loaded)
		return NULL;
	return LibOpenRoot(loaded->DeviceHandle);
}

int files_mkdir_p(EFI_FILE_HANDLE root, const char *path)
{
	CHAR16 wide[PATH_MAX_CHARS];
	unsigned i;

	widen(wide, path);
	/* Open each prefix that ends before a '\', then the whole path. */
	for (i = 1;; i++) {
		if (wide[i] == L'\\' || wide[i] == 0) {
			CHAR16 saved = wide[i];
			EFI_FILE_HANDLE dir;
			EFI_STATUS st;

			wide[i] = 0;
			st = uefi_call_wrapper(root->Open, 5, root, &dir, wide,
					       EFI_FILE_MODE_READ |
						       EFI_FILE_MODE_WRITE |
						       EFI_FILE_MODE_CREATE,
					       EFI_FILE_DIRECTORY);
			wide[i] = saved;
			if (EFI_ERROR(st))
				return -1;
			uefi_call_wrapper(dir->Close, 1, dir);
			if (saved == 0)
				return 0;
		}
	}
}

static EFI_FILE_HANDLE open_file(EFI_FILE_HANDLE root, const char *path,
				 UINT64 mode)
{
	CHAR16 wide[PATH_MAX_CHARS];
	EFI_FILE_HANDLE f;

	widen(wide, path);
	if (EFI_ERROR(uefi_call_wrapper(root->Open, 5, root, &f, wide, mode, 0)))
		return NULL;
	return f;
}

INTN files_read(EFI_FILE_HANDLE root, const char *path, void *buf, UINTN cap)
{
	EFI_FILE_HANDLE f = open_file(root, path, EFI_FILE_MODE_READ);
	UINTN total = 0;

	if (!f)
		return -1;
	while (total < cap) {
		UINTN n = cap - total;

		if (EFI_ERROR(uefi_call_wrapper(f->Read, 3, f, &n,
						(uint8_t *)buf + total))) {
			uefi_call_wrapper(f->Close, 1, f);
			return -1;
		}
		if (n == 0)
			break;
		total += n;
	}
	uefi_call_wrapper(f->Close, 1, f);
	return (INTN)total;
}

const char *files_write_verified(EFI_FILE_HANDLE root, const char *path,
				 const void *data, UINTN len, void *scratch)
{
	const UINT64 rw = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE;
	EFI_FILE_HANDLE f;
	UINTN n = len, i;
	INTN back;

	/* A file left by an interrupted earlier attempt is replaced whole. */
	f = open_file(root, path, rw);
	if (f)
		uefi_call_wrapper(f->Delete, 1, f);
	f = open_file(root, path, rw | EFI_FILE_MODE_CREATE);
	if (!f)
		return "cannot create";
	if (EFI_ERROR(uefi_call_wrapper(f->Write, 3, f, &n, (void *)data)) ||
	    n != len) {
		uefi_call_wrapper(f->Close, 1, f);
		return "write failed";
	}
	if (EFI_ERROR(uefi_call_wrapper(f->Flush, 1, f))) {
		uefi_call_wrapper(f->Close, 1, f);
		return "flush failed";
	}
	uefi_call_wrapper(f->Close, 1, f);

	back = files_read(root, path, scratch, len + 1);
	if (back != (INTN)len)
		return "read-back length differs";
	for (i = 0; i < len; i++)
		if (((const uint8_t *)data)[i] != ((const uint8_t *)scratch)[i])
			return "read-back content differs";
	return NULL;
}
