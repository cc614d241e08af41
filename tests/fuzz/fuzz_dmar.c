/* libFuzzer harness for the ACPI DMAR table parser. */
#include <stddef.h>
#include <stdint.h>

#include "firmware/acpi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmar_info d;

	dmar_parse(data, size, &d);
	return 0;
}
