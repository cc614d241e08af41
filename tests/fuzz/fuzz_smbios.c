/* libFuzzer harness for the SMBIOS parsers: the entry point and the
 * structure table are whatever the firmware left in memory. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/smbios.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smbios_system sys;
	uint64_t table;
	uint32_t length;
	uint8_t *copy;

	(void)smbios_entry_point(data, size, &table, &length);
	/* An exact-size copy, so ASan sees any read past the end. */
	copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (smbios_system_info(copy, size, &sys) == 0 &&
	    (memchr(sys.vendor, 0, sizeof(sys.vendor)) == NULL ||
	     memchr(sys.product, 0, sizeof(sys.product)) == NULL ||
	     memchr(sys.version, 0, sizeof(sys.version)) == NULL))
		abort();	/* a string left unterminated */
	free(copy);
	return 0;
}
