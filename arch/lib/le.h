/* Little-endian fields read from and written to byte buffers: the handoff
 * records, ACPI tables and SMBIOS structures are all laid out so, and
 * none of them is aligned. */
#ifndef IRQLAB_ARCH_LIB_LE_H
#define IRQLAB_ARCH_LIB_LE_H

#include <stdint.h>

static inline uint64_t le_get(const void *at, unsigned bytes)
{
	const uint8_t *p = at;
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static inline void le_put(void *at, uint64_t v, unsigned bytes)
{
	uint8_t *p = at;
	unsigned i;

	for (i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

#endif
