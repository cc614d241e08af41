#include <efi.h>
#include <efilib.h>

#include "efi/network_files.h"

#include "arch/lib/fmt.h"
#include "efi/files.h"
#include "firmware/netboot.h"

/* The PXE base code that loaded the image, started. edk2's PXE load
 * (EfiPxeLoadFile) leaves it started, holding the DHCP packets the boot
 * used; firmware that stops it after the load gets it started again
 * over the IP version the image came by, and DHCP run again for the
 * packets (UEFI 2.10 §24.3, Start and Dhcp). */
static EFI_PXE_BASE_CODE_PROTOCOL *loading_pxe(EFI_HANDLE image)
{
	EFI_HANDLE device = files_loaded_device(image);
	EFI_PXE_BASE_CODE_PROTOCOL *pxe = NULL;
	struct boot_origin o;

	if (!device ||
	    EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, device,
					&PxeBaseCodeProtocol, (void **)&pxe)) ||
	    !pxe || !pxe->Mode)
		return NULL;
	if (!pxe->Mode->Started &&
	    (files_boot_origin(image, &o) || o.medium != BOOT_FROM_PXE ||
	     EFI_ERROR(uefi_call_wrapper(pxe->Start, 2, pxe,
					 (BOOLEAN)(o.ip_version == 6))) ||
	     EFI_ERROR(uefi_call_wrapper(pxe->Dhcp, 2, pxe, TRUE))))
		return NULL;
	return pxe;
}

/* The packet the boot file came from, as edk2's PXE takes it: a boot
 * server's PXE reply, else a proxy DHCP server's offer, else the DHCP
 * ACK; over IPv6, a DHCPv6 reply. */
static const EFI_PXE_BASE_CODE_PACKET *boot_packet(
	const EFI_PXE_BASE_CODE_MODE *m)
{
	return m->PxeReplyReceived ? &m->PxeReply
	       : m->ProxyOfferReceived ? &m->ProxyOffer : &m->DhcpAck;
}

/* Over IPv4 (docs/lab.md): the server is the address the packet's
 * option 66 names, where it names one: QEMU's user networking answers
 * every TFTP request to siaddr itself and only reads, so a lab there
 * names its own server so. Else siaddr, or where that is 0.0.0.0 the
 * server identifier (option 54). The folder is the boot file name's. */
static int server_over_ipv4(const EFI_PXE_BASE_CODE_PACKET *packet,
			    struct lab_server *s)
{
	const EFI_PXE_BASE_CODE_DHCPV4_PACKET *offer = &packet->Dhcpv4;
	UINTN options = sizeof(*packet) -
			(UINTN)(offer->DhcpOptions - packet->Raw);
	UINT8 *a = s->address.v4.Addr;
	unsigned folder = 0, i;

	if (dhcp_tftp_server(offer->DhcpOptions, options, a) != 0) {
		CopyMem(a, (void *)offer->BootpSiAddr, 4);
		if (!(a[0] | a[1] | a[2] | a[3]) &&
		    dhcp_option(offer->DhcpOptions, options, 54, a, 4) != 4)
			return -1;
	}
	for (i = 0; i < sizeof(offer->BootpBootFile) &&
		    offer->BootpBootFile[i]; i++)
		if (offer->BootpBootFile[i] == '/')
			folder = i + 1;
	if (folder >= sizeof(s->folder))
		folder = 0;
	CopyMem(s->folder, (void *)offer->BootpBootFile, folder);
	s->folder[folder] = '\0';
	return 0;
}

/* Over IPv6: the server and folder the boot file URL names (DHCPv6
 * option 59, RFC 5970 §3.1), as edk2's PXE reads them: by address, the
 * URL's host in brackets. */
static int server_over_ipv6(const EFI_PXE_BASE_CODE_PACKET *packet,
			    struct lab_server *s)
{
	const EFI_PXE_BASE_CODE_DHCPV6_PACKET *reply = &packet->Dhcpv6;
	char url[256];
	int n = dhcp6_option(reply->DhcpOptions, sizeof(reply->DhcpOptions),
			     59, (UINT8 *)url, sizeof(url));

	if (n <= 0 || n > (int)sizeof(url))
		return -1;
	return tftp_url_split(url, (size_t)n, s->address.v6.Addr, s->folder,
			      sizeof(s->folder));
}

int lab_server_open(EFI_HANDLE image, struct lab_server *s)
{
	ZeroMem(s, sizeof(*s));
	s->pxe = loading_pxe(image);
	if (!s->pxe) {
		struct boot_origin o;

		if (files_boot_origin(image, &o) ||
		    http_link_open(image, &o, &s->http, s->folder,
				   sizeof(s->folder)))
			return -1;
		s->by_http = 1;
		return 0;
	}
	s->ipv6 = s->pxe->Mode->UsingIpv6;
	if ((s->ipv6 ? server_over_ipv6 : server_over_ipv4)(
		    boot_packet(s->pxe->Mode), s)) {
		s->pxe = NULL;
		return -1;
	}
	return 0;
}

INTN lab_server_read(const struct lab_server *s, const char *path, void *buf,
		     UINTN cap)
{
	UINT64 size = cap;
	EFI_STATUS st;

	if (s->by_http) {
		UINTN len;
		unsigned status;

		st = http_link_get(&s->http, path, buf, cap, &len, &status);
		if (st == EFI_BUFFER_TOO_SMALL)
			return (INTN)cap;
		return EFI_ERROR(st) ? -1 : (INTN)len;
	}
	st = uefi_call_wrapper(s->pxe->Mtftp, 10, s->pxe,
			       EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, FALSE,
			       &size, NULL, (EFI_IP_ADDRESS *)&s->address,
			       (UINT8 *)path, NULL, FALSE);
	if (st == EFI_BUFFER_TOO_SMALL)
		return (INTN)cap;
	return EFI_ERROR(st) ? -1 : (INTN)size;
}

/* Why a transfer failed: the server's TFTP error where it sent one, else
 * what the firmware's status says. A server that is gone shows as a
 * timeout, or where its host still answers, as an ICMP unreachable: the
 * network statuses EFIERR(100..103) of UEFI 2.10 Appendix D, which
 * gnu-efi does not define. */
static const char *why_failed(const struct lab_server *s, EFI_STATUS st,
			      unsigned http_status, const char *what)
{
	static const char *const unreachable[] = {
		"network", "host", "protocol", "port",
	};
	static char why[160];
	const EFI_PXE_BASE_CODE_MODE *m = s->pxe ? s->pxe->Mode : NULL;
	UINTN net = st & ~EFIERR(0);

	if (st == EFI_BAD_BUFFER_SIZE && s->by_http)
		fmt_snprintf(why, sizeof(why), "%s: its URL is over the %u "
			     "characters a request takes", what, HTTP_URL_MAX);
	else if (st == EFI_PROTOCOL_ERROR && s->by_http)
		fmt_snprintf(why, sizeof(why), "%s: the server's Content-Length "
			     "is no length (RFC 9112 6.3)", what);
	else if (http_status && (http_status < 200 || http_status > 299))
		fmt_snprintf(why, sizeof(why), "%s: the server refused it "
			     "(HTTP %u)", what, http_status);
	else if (st == EFI_TFTP_ERROR && m && m->TftpErrorReceived)
		fmt_snprintf(why, sizeof(why), "%s: the server refused it "
			     "(TFTP error %u: %.100s)", what,
			     m->TftpError.ErrorCode,
			     (const char *)m->TftpError.ErrorString);
	else if (st == EFI_TIMEOUT)
		fmt_snprintf(why, sizeof(why), "%s: the server did not answer",
			     what);
	else if (EFI_ERROR(st) && net >= 100 && net <= 103)
		fmt_snprintf(why, sizeof(why), "%s: the server did not answer "
			     "(ICMP: %s unreachable)", what,
			     unreachable[net - 100]);
	else
		fmt_snprintf(why, sizeof(why), "%s: EFI status %llx", what,
			     (unsigned long long)st);
	return why;
}

const char *lab_server_write(const struct lab_server *s, const char *path,
			     const void *data, UINTN len, void *scratch)
{
	UINT64 size = len;
	EFI_STATUS st;
	unsigned status = 0;
	UINTN i, got;

	if (!s->by_http) {
		/* A name the server already holds (an earlier upload of it,
		 * or a run filed under it) is not written to: the lab's
		 * server refuses it with a TFTP error, and OVMF's PXE base
		 * code (UefiPxeBcDxe) faults (#GP) on a write request's
		 * error reply, where a read's is handled (docs/lab.md "What
		 * the server keeps", seen by lab-hostile). One block read
		 * tells: the file, or BUFFER_TOO_SMALL, where it is there. */
		size = 1;
		st = uefi_call_wrapper(s->pxe->Mtftp, 10, s->pxe,
				       EFI_PXE_BASE_CODE_TFTP_READ_FILE,
				       scratch, FALSE, &size, NULL,
				       (EFI_IP_ADDRESS *)&s->address,
				       (UINT8 *)path, NULL, FALSE);
		if (st == EFI_SUCCESS || st == EFI_BUFFER_TOO_SMALL)
			return "upload: the server already holds the name "
			       "(an earlier upload, or another machine's)";
		size = len;
	}
	if (s->by_http)
		st = http_link_put(&s->http, path, data, len, &status);
	else
		st = uefi_call_wrapper(s->pxe->Mtftp, 10, s->pxe,
				       EFI_PXE_BASE_CODE_TFTP_WRITE_FILE,
				       (void *)data, TRUE, &size, NULL,
				       (EFI_IP_ADDRESS *)&s->address,
				       (UINT8 *)path, NULL, FALSE);
	if (EFI_ERROR(st))
		return why_failed(s, st, status, "upload");
	size = len + 1;
	if (s->by_http) {
		st = http_link_get(&s->http, path, scratch, len + 1, &got,
				   &status);
		size = got;
	} else
		st = uefi_call_wrapper(s->pxe->Mtftp, 10, s->pxe,
				       EFI_PXE_BASE_CODE_TFTP_READ_FILE,
				       scratch, FALSE, &size, NULL,
				       (EFI_IP_ADDRESS *)&s->address,
				       (UINT8 *)path, NULL, FALSE);
	if (EFI_ERROR(st))
		return why_failed(s, st, status, "read-back");
	if (size != len)
		return "read-back length differs";
	for (i = 0; i < len; i++)
		if (((const UINT8 *)data)[i] != ((const UINT8 *)scratch)[i])
			return "read-back content differs";
	return NULL;
}

void lab_server_url(const struct lab_server *s, const char *path, char *out,
		    UINTN cap)
{
	const UINT8 *a = s->address.v4.Addr;
	char v6[48];

	if (s->by_http) {
		fmt_snprintf(out, cap, "%s%s", s->http.base, path);
	} else if (s->ipv6) {
		ipv6_text(s->address.v6.Addr, v6, sizeof(v6));
		fmt_snprintf(out, cap, "tftp://[%s]/%s", v6, path);
	} else {
		fmt_snprintf(out, cap, "tftp://%u.%u.%u.%u/%s", a[0], a[1],
			     a[2], a[3], path);
	}
}
