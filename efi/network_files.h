/* The lab's server irqlab was booted from (docs/lab.md): PXE-booted,
 * through the firmware's PXE base code, the instance on the handle that
 * loaded the image (UEFI 2.10 §24.3), by TFTP to the server and the
 * folder its boot file came from; HTTP-booted, through the firmware's
 * HTTP protocol on the same NIC (efi/http_link.h), by GET and PUT. */
#ifndef IRQLAB_EFI_NETWORK_FILES_H
#define IRQLAB_EFI_NETWORK_FILES_H

#include <efi.h>
#include <efilib.h>

#include "efi/http_link.h"

struct lab_server {
	EFI_PXE_BASE_CODE_PROTOCOL *pxe;	/* TFTP, or NULL */
	int by_http;				/* else HTTP, by `http` */
	struct http_link http;
	EFI_IP_ADDRESS address;			/* TFTP's server */
	int ipv6;				/* the address is IPv6's */
	/* The boot file's folder on the server: empty, or ending in '/'. */
	char folder[128];
};

/* The server and folder irqlab's boot file came from. Returns 0, or -1
 * where irqlab was not PXE- or HTTP-booted, or no server is named (over
 * IPv6, by address: irqlab looks up no name). */
int lab_server_open(EFI_HANDLE image, struct lab_server *s);
/* Reads `path` (from the server's root) into buf. Returns the length
 * read, `cap` where the file is larger, or -1 where the server has no
 * such file. */
INTN lab_server_read(const struct lab_server *s, const char *path, void *buf,
		     UINTN cap);
/* Sends `path`, then reads it back into `scratch` (len + 1 bytes) and
 * compares. Returns NULL, or what went wrong: the server's own TFTP
 * error where it sent one (RFC 1350 §5), or its HTTP status. */
const char *lab_server_write(const struct lab_server *s, const char *path,
			     const void *data, UINTN len, void *scratch);
/* "tftp://SERVER/PATH" ("tftp://[ADDRESS]/PATH" over IPv6), or HTTP's
 * "http://SERVER/PATH". */
void lab_server_url(const struct lab_server *s, const char *path, char *out,
		    UINTN cap);

#endif
