/* The files of `make ENTRY=...` (docs/your-entry.md): what the results
 * say of each, beside its rows. Empty without ENTRY. */
#ifndef IRQLAB_BENCH_MODEL_YOURS_H
#define IRQLAB_BENCH_MODEL_YOURS_H

#include <stddef.h>
#include <stdint.h>

struct yours_file {
	uint8_t variant;		/* enum variant_id: VARIANT_YOURS_<k> */
	const char *file;		/* the file's name, without its folder */
	const char *sha256;		/* of its text, 64 hex digits */
	/* The instructions of each part in the build's listing (objdump),
	 * which an instruction-counting clock must measure. */
	uint32_t entry_instructions, exit_instructions;
};

extern const struct yours_file yours_files[];
extern const size_t yours_file_count;

/* The file of a VARIANT_KIND_YOURS variant, or NULL. */
const struct yours_file *yours_file_of(unsigned variant);

#endif
