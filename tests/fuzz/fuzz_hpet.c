/* libFuzzer harness for the ACPI HPET table parser. */
#include <stddef.h>
#include <stdint.h>

#include "firmware/acpi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hpet_info h;

	hpet_parse(data, size, &h);
	return 0;
}
