#include "bench/model/yours.h"

#include "arch/matrix.h"

/* yours_files.h is written by image/your-entry.py from the assembled
 * files (the build's own folder is on the include path); a host build
 * without it, as the unit tests', has no files. */
#if defined(__has_include)
#if __has_include("yours_files.h")
#include "yours_files.h"
#endif
#endif
#ifndef YOURS_FILE_LIST
#define YOURS_FILE_LIST(F)
#endif

#define YOURS_FILE(id, file, sha, entry, exit)                              \
	{ VARIANT_##id, file, sha, entry, exit },
/* A zero-length array is not C: the last row only ends the table. */
const struct yours_file yours_files[] = { YOURS_FILE_LIST(YOURS_FILE){ 0 } };
#undef YOURS_FILE

const size_t yours_file_count =
	sizeof(yours_files) / sizeof(yours_files[0]) - 1;

const struct yours_file *yours_file_of(unsigned variant)
{
	size_t i;

	for (i = 0; i < yours_file_count; i++)
		if (yours_files[i].variant == variant)
			return &yours_files[i];
	return 0;
}
