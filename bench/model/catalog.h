/* What each dispatch scheme and primitive is, in words, and the seed it
 * comes from: the catalog the reports print. It lives in the host-built
 * model so that phase C and the rescue tool (tools/rescue.c) describe a
 * run the same way. The code that runs them (arch/dispatch/schemes.c,
 * arch/primitives.c, bench/run/sources.c) keeps only the names. */
#ifndef IRQLAB_BENCH_MODEL_CATALOG_H
#define IRQLAB_BENCH_MODEL_CATALOG_H

#include <stddef.h>

struct catalog_entry {
	const char *name;
	const char *description;
	const char *seed;	/* the mailing-list thread(s) it comes from */
};

extern const struct catalog_entry catalog_schemes[];
extern const size_t catalog_scheme_count;
/* The primitives in the order they run, then seed 004's IO-APIC
 * sequences. */
extern const struct catalog_entry catalog_primitives[];
extern const size_t catalog_primitive_count;

/* The CPU mode a scheme runs in: "protected-32" for the i386 schemes of
 * the 32-bit phase (docs/protected-mode.md), else "long". */
const char *catalog_cpu_mode(const char *scheme);

/* The entry of that name, or NULL. */
const struct catalog_entry *catalog_find(const struct catalog_entry *table,
					 size_t n, const char *name);

#endif
