/* Polled 16550 UART on COM1 (I/O port 0x3F8): the log once boot services
 * and the firmware console are gone. */
#ifndef IRQLAB_ARCH_SERIAL_H
#define IRQLAB_ARCH_SERIAL_H

#include <stddef.h>

/* Programs 115200 8N1 if a UART answers at COM1. Returns 1 if present. */
int serial_init(void);
void serial_write(const char *s, size_t n);

#endif
