/* The installed OS of the one-time-boot test: a disk first in BootOrder.
 * It says so on the console (which OVMF mirrors to serial) and powers
 * off, so a boot that lands here instead of on irqlab's stick is seen. */
#include <efi.h>
#include <efilib.h>

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	InitializeLib(image, systab);
	Print(L"irqlab-test: the other disk booted\n");
	uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown, EFI_SUCCESS, 0,
			  NULL);
	return EFI_SUCCESS;
}
