/* The progress log every floor writes to. Where the text goes is decided
 * at the top: phase A plugs in the firmware console, phase B the serial
 * port (efi/console.c). Before a sink is plugged in, text is dropped. */
#ifndef IRQLAB_ARCH_LIB_LOG_H
#define IRQLAB_ARCH_LIB_LOG_H

typedef void (*log_sink)(const char *text);

void log_set_sink(log_sink sink);
void log_printf(const char *format, ...) __attribute__((format(printf, 1, 2)));
void log_write(const char *text);

#endif
