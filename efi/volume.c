#include <efi.h>
#include <efilib.h>

#include "efi/volume.h"
#include "arch/lib/fmt.h"
#include "efi/files.h"
#include "firmware/netboot.h"

/* Every path irqlab keeps is under this folder of the stick. */
#define STICK_FOLDER "\\EFI\\irqlab\\"

void volume_open(EFI_HANDLE image, const uint8_t *system_uuid,
		 struct volume *v)
{
	struct boot_origin o;

	ZeroMem(v, sizeof(*v));
	v->root = files_open_root(image);
	if (v->root || files_boot_origin(image, &o) ||
	    o.medium == BOOT_FROM_DISK || lab_server_open(image, &v->server) ||
	    lab_machine_name(system_uuid, &o,
			     v->machine, sizeof(v->machine)))
		return;
	v->on_server = 1;
	v->copy = files_open_system_partition();
}

/* Stops copying to the ESP, keeping the first reason. */
static void copy_failed(struct volume *v, const char *path, const char *why)
{
	fmt_snprintf(v->copy_failed, sizeof(v->copy_failed), "%s: %s", path,
		     why);
	uefi_call_wrapper(v->copy->Close, 1, v->copy);
	v->copy = NULL;
}

void volume_copy_where(const struct volume *v, const char *dir, char *out,
		       UINTN cap)
{
	if (v->copy)
		fmt_snprintf(out, cap, "a copy on this machine's ESP: %s", dir);
	else if (v->copy_failed[0])
		fmt_snprintf(out, cap, "no copy on this machine's ESP: %s",
			     v->copy_failed);
	else
		out[0] = '\0';
}

int volume_usable(const struct volume *v)
{
	return v->root || v->on_server;
}

/* The server's path for a stick's path, or -1 where it has none. */
static int server_path(const struct volume *v, const char *path, char *out,
		       UINTN cap)
{
	static const char prefix[] = STICK_FOLDER;
	UINTN i;

	for (i = 0; prefix[i]; i++)
		if (path[i] != prefix[i])
			return -1;
	return lab_server_path(path + i, v->server.folder, v->machine, out, cap);
}

void volume_where(const struct volume *v, const char *path, char *out,
		  UINTN cap)
{
	char on_server[200];

	if (v->on_server && !server_path(v, path, on_server, sizeof(on_server)))
		lab_server_url(&v->server, on_server, out, cap);
	else
		fmt_snprintf(out, cap, "%s", path);
}

const char *volume_place(const struct volume *v)
{
	return v->on_server ? "on the lab's server" : "on the ESP";
}

int volume_mkdir_p(struct volume *v, const char *path)
{
	if (v->root)
		return files_mkdir_p(v->root, path);
	if (v->copy && files_mkdir_p(v->copy, path))
		copy_failed(v, path, "cannot create it");
	return v->on_server ? 0 : -1;
}

/* A file on the server, read back, and listed for the manifest. */
static const char *server_write(struct volume *v, const char *path,
				const void *data, UINTN len, void *scratch)
{
	char on_server[200];
	const char *err;
	int n;

	if (server_path(v, path, on_server, sizeof(on_server)))
		return "a name the lab's server does not take";
	err = lab_server_write(&v->server, on_server, data, len, scratch);
	if (err)
		return err;
	n = fmt_snprintf(v->written + v->written_len,
			 sizeof(v->written) - v->written_len, "%llu %s\n",
			 (unsigned long long)len, on_server);
	if (n > 0 && v->written_len + (UINTN)n < sizeof(v->written))
		v->written_len += (UINTN)n;
	return NULL;
}

const char *volume_write_verified(struct volume *v, const char *path,
				  const void *data, UINTN len, void *scratch)
{
	const char *err;

	if (v->root)
		return files_write_verified(v->root, path, data, len, scratch);
	if (!v->on_server)
		return "no volume to write to";
	err = server_write(v, path, data, len, scratch);
	if (!err && v->copy) {
		const char *why = files_write_verified(v->copy, path, data, len,
						       scratch);
		if (why)
			copy_failed(v, path, why);
	}
	return err;
}

const char *volume_write_manifest(struct volume *v, const char *dir,
				  void *scratch)
{
	char folder[200], path[160], *text = v->written, list[4096];
	UINTN at = 0, folder_len;

	if (!v->on_server)
		return NULL;
	if (server_path(v, dir, folder, sizeof(folder)))
		return "a name the lab's server does not take";
	for (folder_len = 0; folder[folder_len]; folder_len++)
		;
	/* The lines for files in `dir`, their names relative to it. */
	while (*text) {
		char *size = text, *name, *end;
		UINTN i;

		for (name = size; *name != ' '; name++)
			;
		for (end = ++name; *end != '\n'; end++)
			;
		for (i = 0; i < folder_len && name[i] == folder[i]; i++)
			;
		if (i == folder_len && name[i] == '/')
			at += (UINTN)fmt_snprintf(list + at, sizeof(list) - at,
						  "%.*s %.*s\n",
						  (int)(name - 1 - size), size,
						  (int)(end - name - i - 1),
						  name + i + 1);
		text = end + 1;
		if (at >= sizeof(list))
			return "the manifest does not fit";
	}
	/* The server's alone: the copy's files are renamed into place. */
	fmt_snprintf(path, sizeof(path), "%s\\manifest.txt", dir);
	return server_write(v, path, list, at, scratch);
}

INTN volume_read(const struct volume *v, const char *path, void *buf,
		 UINTN cap)
{
	char on_server[200];

	if (v->root)
		return files_read(v->root, path, buf, cap);
	if (!v->on_server || server_path(v, path, on_server, sizeof(on_server)))
		return -1;
	return lab_server_read(&v->server, on_server, buf, cap);
}
