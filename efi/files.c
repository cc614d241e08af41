#include <efi.h>
#include <efilib.h>

#include "efi/files.h"

#include "arch/lib/fmt.h"

#define PATH_MAX_CHARS 128

static void widen(CHAR16 *out, const char *in)
{
	unsigned i;

	for (i = 0; in[i] && i < PATH_MAX_CHARS - 1; i++)
		out[i] = (CHAR16)(unsigned char)in[i];
	out[i] = 0;
}

EFI_HANDLE files_loaded_device(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE *loaded = NULL;
	EFI_STATUS st;

	st = uefi_call_wrapper(BS->HandleProtocol, 3, image,
			       &LoadedImageProtocol, (void **)&loaded);
	return EFI_ERROR(st) || !loaded ? NULL : loaded->DeviceHandle;
}

EFI_FILE_HANDLE files_open_root(EFI_HANDLE image)
{
	EFI_HANDLE device = files_loaded_device(image);

	return device ? LibOpenRoot(device) : NULL;
}

/* EFI_PARTITION_INFO_PROTOCOL (UEFI 2.10 §13.18), which gnu-efi does
 * not define: only its head is read. System is 1 on an EFI system
 * partition, GPT or MBR alike. */
static EFI_GUID partition_info_guid = {
	0x8cf2f62c, 0xbc9b, 0x4821,
	{ 0x80, 0x8d, 0xec, 0x9e, 0xc4, 0x21, 0xa1, 0xa0 }
};

struct partition_info_head {
	UINT32 revision;
	UINT32 type;		/* 0 other, 1 MBR, 2 GPT */
	UINT8 system;
} __attribute__((packed));

EFI_FILE_HANDLE files_open_system_partition(void)
{
	EFI_HANDLE *handles = NULL, found = NULL;
	UINTN n = 0, i;

	if (EFI_ERROR(uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol,
					&partition_info_guid, NULL, &n,
					&handles)))
		return NULL;
	for (i = 0; i < n && !found; i++) {
		struct partition_info_head *info = NULL;
		EFI_FILE_HANDLE root;
		EFI_FILE_SYSTEM_INFO *fs;
		int writable;

		if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3,
						handles[i],
						&partition_info_guid,
						(void **)&info)) ||
		    !info || info->system != 1)
			continue;
		root = LibOpenRoot(handles[i]);
		if (!root)
			continue;
		fs = LibFileSystemInfo(root);
		writable = fs && !fs->ReadOnly;
		if (fs)
			FreePool(fs);
		if (writable) {
			FreePool(handles);
			return root;
		}
		uefi_call_wrapper(root->Close, 1, root);
	}
	FreePool(handles);
	return NULL;
}

int files_boot_origin(EFI_HANDLE image, struct boot_origin *out)
{
	EFI_HANDLE device = files_loaded_device(image);
	EFI_DEVICE_PATH *path = NULL;
	EFI_STATUS st;

	if (!device)
		return -1;
	st = uefi_call_wrapper(BS->HandleProtocol, 3, device,
			       &DevicePathProtocol, (void **)&path);
	if (EFI_ERROR(st) || !path)
		return -1;
	/* DevicePathSize walks to the end node, which it counts. */
	return boot_origin_read((const uint8_t *)path, DevicePathSize(path),
				out);
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

/* Bytes the volume has free, or -1 when the firmware does not say. */
static INT64 free_space(EFI_FILE_HANDLE root)
{
	EFI_FILE_SYSTEM_INFO *info = LibFileSystemInfo(root);
	INT64 bytes;

	if (!info)
		return -1;
	bytes = (INT64)info->FreeSpace;
	FreePool(info);
	return bytes;
}

/* Renames an open file within its directory (UEFI spec §13.5.14,
 * EFI_FILE_PROTOCOL.SetInfo with a new FileName). */
static int rename_to(EFI_FILE_HANDLE f, const char *name)
{
	EFI_FILE_INFO *info = LibFileInfo(f), *renamed;
	UINTN size, i, n;
	int rc;

	if (!info)
		return -1;
	for (n = 0; name[n]; n++)
		;
	size = SIZE_OF_EFI_FILE_INFO + (n + 1) * sizeof(CHAR16);
	renamed = AllocatePool(size);
	if (!renamed) {
		FreePool(info);
		return -1;
	}
	CopyMem(renamed, info, SIZE_OF_EFI_FILE_INFO);
	renamed->Size = size;
	for (i = 0; i <= n; i++)
		renamed->FileName[i] = (CHAR16)(unsigned char)name[i];
	rc = EFI_ERROR(uefi_call_wrapper(f->SetInfo, 4, f, &GenericFileInfo,
					 size, renamed)) ? -1 : 0;
	FreePool(renamed);
	FreePool(info);
	return rc;
}

const char *files_last_component(const char *path)
{
	const char *last = path;

	for (; *path; path++)
		if (*path == '\\')
			last = path + 1;
	return last;
}

/* What a FAT volume needs beyond the data: a cluster of slack, a
 * directory entry, room for the temporary copy's own cluster. */
#define WRITE_SLACK_BYTES (64 * 1024)

const char *files_write_verified(EFI_FILE_HANDLE root, const char *path,
				 const void *data, UINTN len, void *scratch)
{
	const UINT64 rw = EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE;
	char temp[PATH_MAX_CHARS];
	EFI_FILE_HANDLE f;
	EFI_STATUS st;
	UINTN n = len, i;
	INTN back;
	INT64 room = free_space(root);

	/* Never a 0-byte or partial file under the final name: the data goes
	 * to a temporary name, is read back, and only then renamed. */
	if (room >= 0 && (UINT64)room < len + WRITE_SLACK_BYTES)
		return "disk full";
	fmt_snprintf(temp, sizeof(temp), "%s.tmp", path);
	f = open_file(root, temp, rw);
	if (f)
		uefi_call_wrapper(f->Delete, 1, f);	/* an earlier attempt's */
	f = open_file(root, temp, rw | EFI_FILE_MODE_CREATE);
	if (!f)
		return "cannot create";
	st = uefi_call_wrapper(f->Write, 3, f, &n, (void *)data);
	if (!EFI_ERROR(st) && n == len)
		st = uefi_call_wrapper(f->Flush, 1, f);
	if (EFI_ERROR(st) || n != len) {
		uefi_call_wrapper(f->Delete, 1, f);
		return st == EFI_VOLUME_FULL ? "disk full" : "write failed";
	}
	uefi_call_wrapper(f->Close, 1, f);

	back = files_read(root, temp, scratch, len + 1);
	for (i = 0; back == (INTN)len && i < len; i++)
		if (((const uint8_t *)data)[i] != ((const uint8_t *)scratch)[i])
			break;
	f = open_file(root, temp, rw);
	if (!f)
		return "the written copy vanished";
	if (back != (INTN)len || i != len) {
		uefi_call_wrapper(f->Delete, 1, f);
		return back != (INTN)len ? "read-back length differs"
					 : "read-back content differs";
	}
	/* Replace the final name only now. */
	{
		EFI_FILE_HANDLE old = open_file(root, path, rw);

		if (old)
			uefi_call_wrapper(old->Delete, 1, old);
	}
	if (rename_to(f, files_last_component(path))) {
		uefi_call_wrapper(f->Close, 1, f);
		return "rename failed";
	}
	uefi_call_wrapper(f->Close, 1, f);
	return NULL;
}
