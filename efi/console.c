#include <efi.h>
#include <efilib.h>

#include "efi/console.h"

#include "arch/lib/log.h"
#include "arch/serial.h"

static void firmware_console_write(const char *text)
{
	CHAR16 wide[129];
	size_t n = 0;

	/* ConOut takes UCS-2 and wants CR LF. */
	for (; *text; text++) {
		if (*text == '\n')
			wide[n++] = L'\r';
		wide[n++] = (CHAR16)(unsigned char)*text;
		if (n >= 127) {
			wide[n] = 0;
			uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut,
					  wide);
			n = 0;
		}
	}
	wide[n] = 0;
	uefi_call_wrapper(ST->ConOut->OutputString, 2, ST->ConOut, wide);
}

static void serial_sink(const char *text)
{
	size_t n = 0;

	while (text[n])
		n++;
	serial_write(text, n);
}

void console_log_to_firmware(void)
{
	log_set_sink(firmware_console_write);
}

void console_log_to_serial(void)
{
	serial_init();
	log_set_sink(serial_sink);
}
