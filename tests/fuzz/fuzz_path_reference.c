/* libFuzzer harness for the icount reference phase C reads from the
 * stick (bench/model/path_reference.c): any bytes must parse or be
 * refused without a crash; a parsed reference names a build of 16 hex
 * digits and at most PATH_REFERENCE_MAX_ROWS rows, each with a name, and
 * a refusal says why. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/model/path_reference.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct path_reference ref;
	char why[128];
	uint32_t i;

	why[0] = 0;
	if (path_reference_parse((const char *)data, size, &ref, why,
				 sizeof(why))) {
		if (!why[0])
			abort();
		return 0;
	}
	if (strlen(ref.build) != 16 || ref.n > PATH_REFERENCE_MAX_ROWS)
		abort();
	for (i = 0; i < ref.n; i++)
		if (!ref.row[i].name[0] ||
		    path_reference_find(&ref, ref.row[i].name) < 0)
			abort();
	return 0;
}
