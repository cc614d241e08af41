#include <efi.h>
#include <efilib.h>

#include "efi/network_files.h"

#include "arch/lib/fmt.h"
#include "efi/files.h"
#include "firmware/netboot.h"

/* The PXE base code that loaded the image, started over IPv4. */
static EFI_PXE_BASE_CODE_PROTOCOL *loading_pxe(EFI_HANDLE image)
{
	EFI_HANDLE device = files_loaded_device(image);
	EFI_PXE_BASE_CODE_PROTOCOL *pxe = NULL;

	if (!device ||
	    EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, device,
					&PxeBaseCodeProtocol, (void **)&pxe)) ||
	    !pxe || !pxe->Mode || !pxe->Mode->Started ||
	    pxe->Mode->UsingIpv6)
		return NULL;
	return pxe;
}

INTN network_files_read(EFI_HANDLE image, const char *name, void *buf,
			UINTN cap, char *from, UINTN from_cap)
{
	EFI_PXE_BASE_CODE_PROTOCOL *pxe = loading_pxe(image);
	const EFI_PXE_BASE_CODE_MODE *m;
	const EFI_PXE_BASE_CODE_PACKET *packet;
	const EFI_PXE_BASE_CODE_DHCPV4_PACKET *offer;
	EFI_IP_ADDRESS server;
	char path[200];
	unsigned folder = 0, i;
	UINT64 size = cap;
	EFI_STATUS st;

	if (!pxe)
		return -1;
	/* The boot file and its server, as edk2's PXE takes them: from a
	 * boot server's PXE reply, else a proxy DHCP server's offer, else
	 * the DHCP ACK (docs/lab.md); the server is siaddr, or where that
	 * is 0.0.0.0 the packet's server identifier (option 54). */
	m = pxe->Mode;
	packet = m->PxeReplyReceived ? &m->PxeReply
		 : m->ProxyOfferReceived ? &m->ProxyOffer : &m->DhcpAck;
	offer = &packet->Dhcpv4;
	ZeroMem(&server, sizeof(server));
	CopyMem(server.v4.Addr, (void *)offer->BootpSiAddr, 4);
	if (!(server.v4.Addr[0] | server.v4.Addr[1] | server.v4.Addr[2] |
	      server.v4.Addr[3]) &&
	    dhcp_option(offer->DhcpOptions,
			sizeof(*packet) - (UINTN)(offer->DhcpOptions -
						  packet->Raw),
			54, server.v4.Addr, 4) != 4)
		return -1;
	for (i = 0; i < sizeof(offer->BootpBootFile) &&
		    offer->BootpBootFile[i]; i++)
		if (offer->BootpBootFile[i] == '/')
			folder = i + 1;
	fmt_snprintf(path, sizeof(path), "%.*s%s", (int)folder,
		     (const char *)offer->BootpBootFile, name);
	fmt_snprintf(from, from_cap, "tftp://%u.%u.%u.%u/%s",
		     server.v4.Addr[0], server.v4.Addr[1], server.v4.Addr[2],
		     server.v4.Addr[3], path);
	st = uefi_call_wrapper(pxe->Mtftp, 10, pxe,
			       EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, FALSE,
			       &size, NULL, &server, (UINT8 *)path, NULL,
			       FALSE);
	if (st == EFI_BUFFER_TOO_SMALL)
		return (INTN)cap;
	return EFI_ERROR(st) ? -1 : (INTN)size;
}
