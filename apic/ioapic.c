#include "apic/ioapic.h"

#define NO_INDEX 0xffffffffu

static void select_reg(struct ioapic *io, uint32_t reg)
{
	if (io->access != IOAPIC_UNCACHED && io->last_index == reg)
		return;	/* seed 004: the index register already holds it */
	io->base[IOAPIC_REGSEL / 4] = reg;
	io->last_index = reg;
}

uint32_t ioapic_read(struct ioapic *io, uint32_t reg)
{
	if (io->access == IOAPIC_VALUE_CACHED && reg < IOAPIC_SHADOW_REGS)
		return io->shadow[reg];
	select_reg(io, reg);
	return io->base[IOAPIC_WINDOW / 4];
}

void ioapic_write(struct ioapic *io, uint32_t reg, uint32_t value)
{
	select_reg(io, reg);
	io->base[IOAPIC_WINDOW / 4] = value;
	if (reg < IOAPIC_SHADOW_REGS)
		io->shadow[reg] = value;
	if (io->flush)
		/* A read flushes the posted write (Linux io_apic.c,
		 * io_apic_modify with sis_apic_bug; seed 004's POSTFLUSH). */
		(void)io->base[IOAPIC_WINDOW / 4];
}

int ioapic_register_defined(const struct ioapic *io, uint32_t reg)
{
	return reg <= IOAPIC_REG_ARB ||
	       (reg >= IOAPIC_REDIR(0) && reg < IOAPIC_REDIR(io->pins));
}

void ioapic_set_access(struct ioapic *io, enum ioapic_access access, int flush)
{
	uint32_t reg;

	io->access = (uint8_t)access;
	io->flush = (uint8_t)!!flush;
	io->last_index = NO_INDEX;
	/* The shadow starts from what the hardware holds now, read from
	 * the registers the IO-APIC defines only: ID, version, arbitration
	 * and the redirection entries the version register counts (82093AA
	 * datasheet §3.2). Others are undefined, and an emulator may stop on
	 * a read of one. */
	for (reg = 0; reg < IOAPIC_SHADOW_REGS; reg++) {
		if (!ioapic_register_defined(io, reg))
			continue;
		io->base[IOAPIC_REGSEL / 4] = reg;
		io->shadow[reg] = io->base[IOAPIC_WINDOW / 4];
	}
}

void ioapic_init(struct ioapic *io, uint64_t address, uint32_t gsi_base)
{
	uint32_t ver;
	unsigned pin;

	io->base = (volatile uint32_t *)(uintptr_t)address;
	io->gsi_base = gsi_base;
	io->access = IOAPIC_UNCACHED;
	io->flush = 1;
	io->last_index = NO_INDEX;
	ver = ioapic_read(io, IOAPIC_REG_VER);
	io->version = (uint8_t)ver;
	io->pins = (uint8_t)(((ver >> 16) & 0xff) + 1);
	for (pin = 0; pin < io->pins; pin++)
		ioapic_mask(io, pin);
	ioapic_set_access(io, IOAPIC_UNCACHED, 1);
}

void ioapic_route(struct ioapic *io, unsigned pin, uint8_t vector,
		  uint32_t dest, enum ioapic_trigger trigger,
		  enum ioapic_polarity polarity)
{
	uint32_t low = vector |
		       (trigger == IOAPIC_LEVEL ? IOAPIC_RTE_LEVEL : 0) |
		       (polarity == IOAPIC_ACTIVE_LOW ? IOAPIC_RTE_ACTIVE_LOW : 0);

	/* Unmasking: the high word (destination) before the low word that
	 * unmasks, so the entry is never live half-written (docs/controllers.md). */
	ioapic_write(io, IOAPIC_REDIR(pin) + 1, dest << IOAPIC_RTE_DEST_SHIFT);
	ioapic_write(io, IOAPIC_REDIR(pin), low);
}

void ioapic_mask(struct ioapic *io, unsigned pin)
{
	/* Masking: the low word first. */
	ioapic_write(io, IOAPIC_REDIR(pin),
		     ioapic_read(io, IOAPIC_REDIR(pin)) | IOAPIC_RTE_MASKED);
}

void ioapic_unmask(struct ioapic *io, unsigned pin)
{
	ioapic_write(io, IOAPIC_REDIR(pin),
		     ioapic_read(io, IOAPIC_REDIR(pin)) & ~IOAPIC_RTE_MASKED);
}

void ioapic_level_eoi(struct ioapic *io, unsigned pin, uint8_t vector)
{
	uint32_t low;

	if (io->version >= 0x20) {
		io->base[IOAPIC_EOI / 4] = vector;
		return;
	}
	/* Older IO-APICs: switching the entry to edge clears Remote IRR
	 * (Linux __eoi_ioapic_pin), masked meanwhile. */
	low = ioapic_read(io, IOAPIC_REDIR(pin));
	ioapic_write(io, IOAPIC_REDIR(pin),
		     (low | IOAPIC_RTE_MASKED) & ~IOAPIC_RTE_LEVEL);
	ioapic_write(io, IOAPIC_REDIR(pin), low);
}
