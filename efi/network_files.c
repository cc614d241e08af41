#include <efi.h>
#include <efilib.h>

#include "efi/network_files.h"

#include "arch/lib/fmt.h"

/* The PXE base code that loaded the image, started over IPv4. */
static EFI_PXE_BASE_CODE_PROTOCOL *loading_pxe(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE *loaded = NULL;
	EFI_PXE_BASE_CODE_PROTOCOL *pxe = NULL;

	if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, image,
					&LoadedImageProtocol,
					(void **)&loaded)) || !loaded ||
	    EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3,
					loaded->DeviceHandle,
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
	const EFI_PXE_BASE_CODE_DHCPV4_PACKET *offer;
	EFI_IP_ADDRESS server;
	char path[200];
	unsigned folder = 0, i;
	UINT64 size = cap;
	EFI_STATUS st;

	if (!pxe)
		return -1;
	/* The boot file and its server: from a proxy DHCP server's offer
	 * where one answered (docs/lab.md), else from the DHCP ACK. */
	offer = pxe->Mode->ProxyOfferReceived ? &pxe->Mode->ProxyOffer.Dhcpv4
					      : &pxe->Mode->DhcpAck.Dhcpv4;
	ZeroMem(&server, sizeof(server));
	CopyMem(server.v4.Addr, (void *)offer->BootpSiAddr, 4);
	if (!(server.v4.Addr[0] | server.v4.Addr[1] | server.v4.Addr[2] |
	      server.v4.Addr[3]))
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
