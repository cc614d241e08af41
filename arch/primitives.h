/* Primitive micro-benchmarks (seed 000 TEST1/2/3, seeds 002 and 003), as
 * rows of one table. */
#ifndef IRQLAB_ARCH_PRIMITIVES_H
#define IRQLAB_ARCH_PRIMITIVES_H

#define PRIMITIVE_REPS 1024	/* per timed block, as in seed 000 */
#define MSR_GS_BASE 0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102

#ifndef __ASSEMBLER__

#include <stddef.h>
#include <stdint.h>

struct primitive {
	const char *name;	/* its words are in bench/model/catalog.c */
	const char *(*unsupported)(void);	/* NULL: always runs */
	uint64_t (*block)(void);		/* NULL: never runs here */
};

extern const struct primitive primitives[];
extern const size_t primitive_count;

/* Turns on CR4.FSGSBASE where CPUID offers it; returns whether it is on. */
int primitives_enable_fsgsbase(void);

#endif
#endif
