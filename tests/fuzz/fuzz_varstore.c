/* libFuzzer harness for the variable store reader: phase A walks the
 * firmware's flash, whatever another tool or a bad update left there. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "firmware/varstore.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct varstore_usage u;
	uint8_t *copy = malloc(size ? size : 1);

	/* An exact-size copy, so ASan sees any read past the end. */
	memcpy(copy, data, size);
	if (varstore_read(copy, size, &u) == VARSTORE_OK &&
	    (u.used_bytes > u.store_bytes ||
	     u.live_bytes + u.deleted_bytes > u.used_bytes))
		abort();	/* the end reported beyond the store */
	free(copy);
	return 0;
}
