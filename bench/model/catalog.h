/* What each primitive is, in words, and the seed it comes from: the
 * catalog the reports print, made from PRIMITIVE_LIST (arch/matrix.h),
 * where the schemes' and variants' words are too. It lives in the
 * host-built model so that phase C and the rescue tool (tools/rescue.c) describe a run the same
 * way. The code that runs them (arch/primitives.c, bench/run/sequences.c)
 * names them by id. */
#ifndef IRQLAB_BENCH_MODEL_CATALOG_H
#define IRQLAB_BENCH_MODEL_CATALOG_H

#include <stddef.h>

struct catalog_entry {
	const char *name;
	const char *description;
	const char *seed;	/* the mailing-list thread(s) it comes from */
};

/* The primitives in the order they run, then seed 004's IO-APIC
 * sequences: catalog_primitives[id] for enum primitive_id. */
extern const struct catalog_entry catalog_primitives[];
extern const size_t catalog_primitive_count;

/* The entry of that name, or NULL. */
const struct catalog_entry *catalog_find(const struct catalog_entry *table,
					 size_t n, const char *name);

#endif
