/* The dispatch schemes, as rows of one table. Adding a scheme means its
 * entry in SCHEME_LIST (arch/matrix.h), one assembly file in this folder
 * and one row in schemes.c, named by its id. Each assembly file emits its own gate
 * table (GATE_TABLE in irq.h), so C never lists per-vector symbols. */
#ifndef IRQLAB_ARCH_DISPATCH_SCHEMES_H
#define IRQLAB_ARCH_DISPATCH_SCHEMES_H

/* Stub strides, checked by the assembler with .org. */
#define DIRECT_STRIDE 128	/* a whole handler per vector */
#define GATE_STRIDE 128		/* the gate floor's, likewise */
#define PUSH_JMP_STRIDE 8	/* 6A ib, E9 rel32: 7 bytes */
#define PUSH_JMP_IBT_STRIDE 16	/* F3 0F 1E FA first */
#define COMPACT_CHUNK 32	/* 7 stubs in 31 bytes */
#define COMPACT_PER_CHUNK 7
#define CALL_STRIDE 8		/* E8 rel32: 5 bytes */
#define CALL_STRIDE_SHIFT 3
#define INT3_BYTE_STRIDE 2	/* CC, vector */

/* pf-cr2: the gates' target page, canonical, 256-aligned and never
 * mapped: the top 4 KiB of the address space. Written as a sign-extended
 * 32-bit immediate for the assembler's compare. */
#define PF_GATE_BASE (-4096)

/* fred: events in ring 0 enter this far into the entry page. */
#define FRED_RING0_ENTRY 256

/* The one vector the entry-path variants (variants.S) handle. */
#define VARIANT_VECTOR 0x41

#ifndef __ASSEMBLER__

#include <stddef.h>
#include <stdint.h>

#include "arch/matrix.h"

/* Which of a scheme's assemblies (SCHEME_EACH_KIND in irq.h) the gates
 * reach: handlers with the entry and exit timestamps, without them, or
 * with the counted pass's timestamps. */
enum handler_kind {
	HANDLER_TIMED = 0,
	HANDLER_BARE = 1,
	HANDLER_COUNTED = 2,
	HANDLER_KINDS
};

/* What each scheme's assembly file provides (SCHEME_EACH_KIND in irq.h,
 * SCHEME32_EACH_KIND in i386.h): NAME_gates, NAME_code and NAME_code_end,
 * and the same as NAME_bare_... and NAME_counted_... Long mode's table
 * (schemes.c) and i386's (i386.c) declare them so. */
#define SCHEME_SYMBOLS(id)                                                  \
	extern const uint64_t id##_gates[], id##_bare_gates[],              \
		id##_counted_gates[];                                       \
	extern const char id##_code[], id##_code_end[];                     \
	extern const char id##_bare_code[], id##_bare_code_end[];           \
	extern const char id##_counted_code[], id##_counted_code_end[]

/* One assembly of a scheme. */
struct scheme_code {
	const uint64_t *gates;	/* IRQ_VECTORS gate targets; NULL for fred */
	const char *code_start, *code_end;
	/* The #PF or #BP entry the scheme reaches its common path through
	 * (exception_vector), or NULL. */
	const void *exception_entry;
};

struct dispatch_scheme {
	uint8_t id;		/* enum scheme_id (arch/matrix.h) */
	/* NULL when the scheme can run here, else why not. */
	const char *(*unsupported)(void);
	struct scheme_code code[HANDLER_KINDS];
	/* The exception whose gate points at code[].exception_entry while
	 * the scheme is in, or 0. */
	uint8_t exception_vector;
	/* For a scheme without gates (fred): takes every event through the
	 * handlers of one kind, in place of pointing gates at them. */
	void (*install)(enum handler_kind kind);
	/* The gate's code selector; NULL means irqlab's kernel CS. */
	uint16_t (*selector)(uint8_t vector);
	/* One-time set-up beyond the gates (descriptors), and its undoing;
	 * either may be NULL. */
	void (*prepare)(void);
	void (*finish)(void);
	/* Footprint (of the timed assembly): the per-vector stub, and the
	 * data the scheme adds (descriptors). */
	uint32_t stub_bytes;
	uint32_t data_bytes;
	/* The scheme the in-handler fault self-test runs under: one whose
	 * stubs reach a common path, so the fault is raised behind both. */
	uint8_t fault_selftest;
};

extern const struct dispatch_scheme dispatch_schemes[];
extern const size_t dispatch_scheme_count;
/* direct: the lower bound every scheme is compared with, and the scheme
 * installed between rows. */
extern const struct dispatch_scheme *const dispatch_baseline;
/* Points the gate of `vector` at the scheme's entry for it. */
void scheme_install(const struct dispatch_scheme *s, uint8_t vector,
		    enum handler_kind kind);

/* Points every interrupt gate (and the exception the scheme reaches its
 * common path through) at its handlers of one kind; the scheme must be
 * prepared already. */
void scheme_install_all(const struct dispatch_scheme *s, enum handler_kind kind);

/* Prepares the scheme and points every interrupt gate at it. */
void scheme_take_over(const struct dispatch_scheme *s, enum handler_kind kind);

/* Undoes what `used` prepared (NULL: nothing) and puts the baseline's
 * gates back: the state between rows. */
void scheme_rest(const struct dispatch_scheme *used);

/* Set by phase B once irqlab's own page tables are live. */
extern int schemes_own_paging;

#endif
#endif
