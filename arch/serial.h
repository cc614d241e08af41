/* Polled 16550 UART: the log once boot services and the firmware console
 * are gone. The port is COM1 (I/O 3F8H) unless phase A found another
 * (efi/platform.c platform_find_serial): in ACPI's SPCR, which may put
 * it in I/O or memory space with registers 1 or 4 bytes apart, or at
 * another legacy COM port (docs/run.md "A serial port that exists"). */
#ifndef IRQLAB_ARCH_SERIAL_H
#define IRQLAB_ARCH_SERIAL_H

#include <stddef.h>
#include <stdint.h>

struct serial_port {
	uint64_t base;		/* I/O port or physical address */
	uint8_t mmio;		/* base is in memory space */
	uint8_t wide;		/* 32-bit registers, 4 bytes apart (else 8-bit,
				 * 1 apart) */
	uint16_t divisor;	/* of the 115200-baud clock; 0 keeps the
				 * firmware's */
};

#define SERIAL_LEGACY_PORTS 4
/* COM1-COM4 at their ISA ports, 115200 baud. */
extern const struct serial_port serial_legacy[SERIAL_LEGACY_PORTS];

/* Whether a UART answers at `port`: its scratch register keeps a byte
 * (no UART reads back FFH from every register). Programs nothing. */
int serial_answers(const struct serial_port *port);
/* The port serial_init programs and the log goes to from now on. */
void serial_use(const struct serial_port *port);
/* Programs the port in use 8N1, polled, at its divisor, if it answers.
 * Returns 1 if present. */
int serial_init(void);
void serial_write(const char *s, size_t n);

#endif
