/* Progress log. While boot services run it goes to the firmware console
 * (which OVMF and most firmware also mirror on the serial port); after
 * ExitBootServices it goes straight to COM1. */
#ifndef IRQLAB_EFI_LOG_H
#define IRQLAB_EFI_LOG_H

void log_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));
void log_write(const char *text);

/* Switches the log to COM1; call right after ExitBootServices. */
void log_use_serial(void);

#endif
