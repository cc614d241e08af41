/* The dispatch schemes, as rows of one table. Adding a scheme means one
 * assembly file in this folder plus one row in schemes.c; nothing else in
 * the harness knows scheme names. */
#ifndef IRQLAB_ARCH_DISPATCH_SCHEMES_H
#define IRQLAB_ARCH_DISPATCH_SCHEMES_H

#define DIRECT_STRIDE 128

#ifndef __ASSEMBLER__

#include <stddef.h>
#include <stdint.h>

struct dispatch_scheme {
	const char *name;
	const char *description;
	const char *seed;	/* the mailing-list thread it comes from */
	/* NULL when the scheme can run here, else why not. */
	const char *(*unsupported)(void);
	/* Points the gate of `vector` at this scheme's entry. */
	void (*install)(uint8_t vector);
	/* The scheme's code, for its footprint. */
	const char *code_start, *code_end;
};

extern const struct dispatch_scheme dispatch_schemes[];
extern const size_t dispatch_scheme_count;
const struct dispatch_scheme *scheme_find(const char *name);

#endif
#endif
