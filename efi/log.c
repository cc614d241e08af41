#include <efi.h>
#include <efilib.h>

#include "log.h"

#include "../arch/serial.h"
#include "../bench/fmt.h"

static int use_serial;

void log_use_serial(void)
{
	serial_init();
	use_serial = 1;
}

static void console_write(const char *text)
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

void log_write(const char *text)
{
	size_t n = 0;

	if (!use_serial) {
		console_write(text);
		return;
	}
	while (text[n])
		n++;
	serial_write(text, n);
}

void log_printf(const char *format, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, format);
	fmt_vsnprintf(line, sizeof(line), format, ap);
	va_end(ap);
	log_write(line);
}
