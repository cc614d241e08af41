/* The two places the log can go: the firmware console while boot
 * services run (OVMF and most firmware mirror it on the serial port),
 * and the serial port phase A found (efi/platform.h), COM1 unless it
 * found another, after ExitBootServices. */
#ifndef IRQLAB_EFI_CONSOLE_H
#define IRQLAB_EFI_CONSOLE_H

/* Sends the log to the firmware console; call first in efi_main. */
void console_log_to_firmware(void);

/* Sends the log to the serial port in use; call right after
 * ExitBootServices. */
void console_log_to_serial(void);

#endif
