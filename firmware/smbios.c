#include "firmware/smbios.h"

#include "arch/lib/le.h"

static int prefix(const uint8_t *p, const char *s)
{
	for (; *s; s++, p++)
		if (*p != (uint8_t)*s)
			return 0;
	return 1;
}

static int sums_to_zero(const uint8_t *p, size_t n)
{
	uint8_t sum = 0;

	while (n--)
		sum = (uint8_t)(sum + *p++);
	return sum == 0;
}

int smbios_entry_point(const uint8_t *ep, size_t available, uint64_t *table,
		       uint32_t *length)
{
	if (available >= 0x18 && prefix(ep, "_SM3_")) {
		/* 3.x: length at 6, max table size at 0x0C, address at 0x10 */
		if (ep[6] < 0x18 || ep[6] > available || !sums_to_zero(ep, ep[6]))
			return -1;
		*length = (uint32_t)le_get(ep + 0x0c, 4);
		*table = le_get(ep + 0x10, 8);
		return 0;
	}
	if (available >= 0x1f && prefix(ep, "_SM_")) {
		/* 2.x: length at 5; table length at 0x16, address at 0x18 */
		if (ep[5] < 0x1f || ep[5] > available || !sums_to_zero(ep, ep[5]) ||
		    !prefix(ep + 0x10, "_DMI_"))
			return -1;
		*length = (uint32_t)le_get(ep + 0x16, 2);
		*table = le_get(ep + 0x18, 4);
		return 0;
	}
	return -1;
}

/* Copies string `index` (1-based) of a structure whose strings start at
 * `s` and end by `end`; index 0 means "none". */
static void copy_string(const uint8_t *s, const uint8_t *end, uint8_t index,
			char *out, size_t cap)
{
	size_t n = 0;

	out[0] = '\0';
	if (!index)
		return;
	while (--index) {
		while (s < end && *s)
			s++;
		if (s >= end)
			return;
		s++;
	}
	while (s < end && *s && n + 1 < cap) {
		out[n++] = (char)(*s >= 0x20 && *s < 0x7f ? *s : '?');
		s++;
	}
	out[n] = '\0';
}

#define SMBIOS_TYPE_SYSTEM 1
#define SMBIOS_TYPE_END 127
/* Type 1's UUID: bytes 08h to 17h (DSP0134 §7.2). */
#define SMBIOS_SYSTEM_UUID_END 0x18

int smbios_system_info(const uint8_t *table, size_t len,
		       struct smbios_system *out)
{
	size_t off = 0;

	out->vendor[0] = out->product[0] = out->version[0] = '\0';
	out->has_uuid = 0;
	while (off + 4 <= len) {
		const uint8_t *h = table + off;
		const uint8_t *strings = h + h[1], *end = table + len, *p;

		if (h[1] < 4 || off + h[1] > len)
			return -1;
		/* the string set ends with two NULs */
		for (p = strings; p + 1 < end && (p[0] || p[1]); p++)
			;
		if (p + 1 >= end)
			return -1;
		if (h[0] == SMBIOS_TYPE_SYSTEM && h[1] >= 8) {
			copy_string(strings, p + 1, h[4], out->vendor,
				    sizeof(out->vendor));
			copy_string(strings, p + 1, h[5], out->product,
				    sizeof(out->product));
			copy_string(strings, p + 1, h[6], out->version,
				    sizeof(out->version));
			if (h[1] >= SMBIOS_SYSTEM_UUID_END) {
				unsigned i;

				for (i = 0; i < 16; i++)
					out->uuid[i] = h[8 + i];
				out->has_uuid = 1;
			}
			return 0;
		}
		if (h[0] == SMBIOS_TYPE_END)
			return -1;
		off = (size_t)(p + 2 - table);
	}
	return -1;
}
