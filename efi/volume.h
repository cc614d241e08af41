/* Where irqlab keeps its files: the volume it was loaded from (the ESP
 * of a stick), or, booted from the network, a lab's server (docs/lab.md). Paths are
 * the stick's, under \EFI\irqlab\; on the server a run's folder is
 * <machine>/<run>/ beside the boot file (lab_server_path). */
#ifndef IRQLAB_EFI_VOLUME_H
#define IRQLAB_EFI_VOLUME_H

#include <efi.h>

#include "efi/network_files.h"

struct volume {
	EFI_FILE_HANDLE root;	/* the ESP, or NULL */
	int on_server;		/* files go to `server` instead */
	struct lab_server server;
	char machine[64];	/* the lab's name for this machine */
	/* On a server: the machine's own writable ESP, which every file
	 * written to the server is copied to, or NULL; copy_failed says why
	 * the copy stopped (its first failure), else is empty. A copy that
	 * fails never keeps the records: the server holds the run. */
	EFI_FILE_HANDLE copy;
	char copy_failed[160];
	/* The files written to the server this boot, for the manifest. */
	char written[4096];
	UINTN written_len;
};

/* The ESP irqlab was loaded from; else, where it was network-booted, the
 * server its boot file came from, the machine named by its SMBIOS system
 * UUID (NULL where it has none) or the NIC's MAC (lab_machine_name). */
void volume_open(EFI_HANDLE image, const uint8_t *system_uuid,
		 struct volume *v);
/* Whether files can be kept anywhere. */
int volume_usable(const struct volume *v);
/* Where `path` is, for people: the stick's own path, or the server's
 * tftp:// URL. */
void volume_where(const struct volume *v, const char *path, char *out,
		  UINTN cap);
/* Where the files are, for a sentence: "on the ESP" or "on the lab's
 * server". */
const char *volume_place(const struct volume *v);
/* As files_mkdir_p, files_write_verified and files_read (efi/files.h);
 * a server's folders need no creating. On a server, folders and files
 * go to the copy too, while it has not failed. */
int volume_mkdir_p(struct volume *v, const char *path);
const char *volume_write_verified(struct volume *v, const char *path,
				  const void *data, UINTN len, void *scratch);
INTN volume_read(const struct volume *v, const char *path, void *buf,
		 UINTN cap);
/* On a server with a copy on the ESP, a line for people: where the copy
 * of `dir` is, or why there is none (empty where there is no copy). */
void volume_copy_where(const struct volume *v, const char *dir, char *out,
		       UINTN cap);
/* On a server, the last file of a run's folder `dir`: manifest.txt, a
 * line "<bytes> <name>" for each file this boot wrote there. The server
 * files a run only once its manifest is in and every file it names has
 * its size (image/serve.sh): TFTP leaves a cut-off upload's part behind,
 * and only this says a run's uploads all ended. Returns NULL (also on
 * the ESP, where each file's rename says so), or why not. */
const char *volume_write_manifest(struct volume *v, const char *dir,
				  void *scratch);

#endif
