/* The IO-APIC, with the register access strategies seed 004 compared:
 * IOREGSEL written on every access (uncached), skipped when the index is
 * unchanged (index-cached), or reads served from a shadow copy
 * (value-cached, which also caches the index); each with or without the
 * read that flushes posted writes. Registers: docs/controllers.md. */
#ifndef IRQLAB_APIC_IOAPIC_H
#define IRQLAB_APIC_IOAPIC_H

#include <stdint.h>

#define IOAPIC_REGSEL	0x00	/* index register */
#define IOAPIC_WINDOW	0x10	/* data window */
#define IOAPIC_EOI	0x40	/* version >= 0x20 only */
#define IOAPIC_REG_ID	0x00
#define IOAPIC_REG_VER	0x01	/* bits 7:0 version, 23:16 max redirection */
#define IOAPIC_REG_ARB	0x02	/* arbitration ID */
#define IOAPIC_REDIR(pin) (0x10u + 2u * (pin))	/* low; +1 is high */
#define   IOAPIC_RTE_VECTOR_MASK 0xffu		/* bits 7:0 */
#define   IOAPIC_RTE_ACTIVE_LOW	(1u << 13)	/* polarity */
#define   IOAPIC_RTE_REMOTE_IRR	(1u << 14)	/* level: accepted, no EOI yet */
#define   IOAPIC_RTE_LEVEL	(1u << 15)	/* trigger mode */
#define   IOAPIC_RTE_MASKED	(1u << 16)
#define   IOAPIC_RTE_DEST_SHIFT	24		/* high word: APIC ID, 31:24 */
#define IOAPIC_SHADOW_REGS	0x40

enum ioapic_trigger {
	IOAPIC_EDGE = 0,
	IOAPIC_LEVEL = 1,
};

enum ioapic_polarity {
	IOAPIC_ACTIVE_HIGH = 0,
	IOAPIC_ACTIVE_LOW = 1,
};

enum ioapic_access {
	IOAPIC_UNCACHED = 0,
	IOAPIC_INDEX_CACHED,
	IOAPIC_VALUE_CACHED,
	IOAPIC_ACCESS_COUNT
};

struct ioapic {
	volatile uint32_t *base;
	uint32_t gsi_base;
	uint8_t version;
	uint8_t pins;
	uint8_t access;		/* enum ioapic_access */
	uint8_t flush;		/* read back after every write */
	uint32_t last_index;	/* for the cached modes; ~0 when unknown */
	uint32_t shadow[IOAPIC_SHADOW_REGS];
};

/* Reads version and size, masks every pin, fills the shadow. */
void ioapic_init(struct ioapic *io, uint64_t address, uint32_t gsi_base);
void ioapic_set_access(struct ioapic *io, enum ioapic_access access,
		       int flush);

/* Whether the IO-APIC defines register `reg` (once io->pins is known). */
int ioapic_register_defined(const struct ioapic *io, uint32_t reg);

uint32_t ioapic_read(struct ioapic *io, uint32_t reg);
void ioapic_write(struct ioapic *io, uint32_t reg, uint32_t value);

/* Routes `pin` to `vector` on the APIC `dest`, fixed delivery, physical
 * destination, and unmasks it. */
void ioapic_route(struct ioapic *io, unsigned pin, uint8_t vector,
		  uint32_t dest, enum ioapic_trigger trigger,
		  enum ioapic_polarity polarity);
void ioapic_mask(struct ioapic *io, unsigned pin);
void ioapic_unmask(struct ioapic *io, unsigned pin);
/* Ends a level-triggered interrupt at the IO-APIC: the EOI register from
 * version 0x20, else the edge/level toggle that clears Remote IRR. */
void ioapic_level_eoi(struct ioapic *io, unsigned pin, uint8_t vector);

#endif
