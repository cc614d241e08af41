/* libFuzzer harness for the FADT's PM timer fields. The parser trusts the
 * table's own length (firmware tables are checksummed before use), so the
 * harness makes that length the input's: every field it reads must lie
 * inside it. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arch/lib/le.h"
#include "firmware/acpi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *table;
	int wide;

	if (size < sizeof(struct acpi_sdt_header))
		return 0;
	/* An exact-size copy, so ASan sees any read past the end. */
	table = malloc(size);
	memcpy(table, data, size);
	le_put(table + 4, size, 4);
	(void)acpi_pm_timer_port((const struct acpi_sdt_header *)table, &wide);
	free(table);
	return 0;
}
