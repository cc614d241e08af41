/* Entry-path variants and cache states: the knobs seeds 000, 002 and 003
 * argued about, as rows of two tables. An entry variant replaces the
 * handler (variants.S); a cache state runs before every timed sample of
 * any scheme. */
#ifndef IRQLAB_ARCH_DISPATCH_VARIANTS_H
#define IRQLAB_ARCH_DISPATCH_VARIANTS_H

#include <stddef.h>
#include <stdint.h>

#include "arch/matrix.h"
#include "arch/dispatch/schemes.h"

struct entry_variant {
	uint8_t id;		/* enum variant_id (arch/matrix.h) */
	const void *handler[HANDLER_KINDS];	/* for VARIANT_VECTOR */
	const char *(*unsupported)(void);	/* NULL: always runs */
	void (*prepare)(void);			/* may be NULL */
	void (*finish)(void);			/* may be NULL */
	void (*before_sample)(void);		/* may be NULL */
	/* The variant its figures are measured against; VARIANT_ABSENT
	 * (0): the first row, which adds nothing. */
	uint8_t against;
	/* A file of `make ENTRY=...` (docs/your-entry.md): its checked
	 * handler, which the checks run first, and the bounds of its two
	 * parts there, [entry_part[0], entry_part[1]) and the exit's; NULL
	 * for the built-in variants. */
	const void *checked;
	const char *entry_part[2], *exit_part[2];
};

/* RSP around a file's parts in its checked handler (arch/dispatch/
 * yours.h, whose offsets these are). */
struct yours_stack {
	uint64_t at_entry, after_entry, before_exit, after_exit;
};
extern struct yours_stack yours_stack;

extern const struct entry_variant entry_variants[];
extern const size_t entry_variant_count;

/* What a cache state acts on for one scheme and vector. */
struct cache_target {
	const void *idt_line;	/* the gate */
	const void *code_line;	/* the code the gate reaches */
	const void *gdt_line;	/* the gate's code descriptor */
};

struct cache_state {
	uint8_t id;		/* enum variant_id (arch/matrix.h) */
	const char *(*unsupported)(void);
	void (*before_sample)(const struct cache_target *t);
	/* Rewrites a whole buffer before every sample: it takes the
	 * thrash_samples count, and seed 004's cached level line is timed
	 * under it too. */
	uint8_t heavy;
};

extern const struct cache_state cache_states[];
extern const size_t cache_state_count;

void cache_target_for(const struct dispatch_scheme *s, uint8_t vector,
		      enum handler_kind kind, struct cache_target *t);
/* The same for an entry variant's handler at VARIANT_VECTOR. */
void cache_target_for_variant(const struct entry_variant *v,
			      enum handler_kind kind, struct cache_target *t);
/* A buffer larger than the last-level cache, for the thrash state. */
void cache_set_thrash_buffer(uint8_t *buffer, uint64_t bytes);

#endif
