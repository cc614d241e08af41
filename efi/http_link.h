/* The lab's server irqlab was HTTP-booted from (docs/lab.md), through
 * the firmware's own HTTP protocol (UEFI 2.10 §29.6): a child of the
 * HTTP service binding on the NIC that loaded the image, at the station
 * address HTTP boot leased. GET reads a file, PUT sends one. gnu-efi
 * defines none of it; the protocol's own types stay in http_link.c. */
#ifndef IRQLAB_EFI_HTTP_LINK_H
#define IRQLAB_EFI_HTTP_LINK_H

#include <efi.h>

#include "firmware/netboot.h"

/* A response with an HTTP error status (UEFI 2.10 Appendix D), which
 * gnu-efi does not define. */
#ifndef EFI_HTTP_ERROR
#define EFI_HTTP_ERROR EFIERR(35)
#endif

struct http_link {
	void *http;		/* the child's EFI_HTTP_PROTOCOL */
	int ipv6;		/* the NIC was HTTP-booted over IPv6 */
	/* The station address (IPv4's in the first 4 bytes) and IPv4's
	 * subnet mask; zero: the firmware's default. */
	UINT8 station[16], subnet[4];
	char base[96];		/* "http://HOST[:PORT]/" */
	char host[80];		/* the Host header: HOST[:PORT] */
};

/* The HTTP instance for an image HTTP-booted as `o` says, over IPv4 or
 * IPv6, and the boot file's folder. Returns 0, or -1 where the firmware
 * has no HTTP service on its NIC or the URI is not http://. */
int http_link_open(EFI_HANDLE image, const struct boot_origin *o,
		   struct http_link *l, char *folder, UINTN folder_cap);
/* GET base + path into buf: EFI_SUCCESS with *len its length,
 * EFI_BUFFER_TOO_SMALL where it is larger than cap (*len = cap),
 * EFI_NOT_FOUND on 404, EFI_HTTP_ERROR on another status outside 2xx,
 * else the firmware's status; *status is the HTTP status, 0 where no
 * response came. */
EFI_STATUS http_link_get(const struct http_link *l, const char *path,
			 void *buf, UINTN cap, UINTN *len, unsigned *status);
/* PUT data to base + path: EFI_SUCCESS on a 2xx status, whatever body
 * comes with it (never read), else as http_link_get. */
EFI_STATUS http_link_put(const struct http_link *l, const char *path,
			 const void *data, UINTN len, unsigned *status);

#endif
