/* Which speculative-execution mitigations Linux's defaults would run on
 * an interrupt on this CPU, and why (docs/mitigations.md names the
 * kernel files and version the rule follows). One rule, read by the
 * runner, which composes the "linux" variant from it, and by the
 * reports, which state each decision. Plain C, host-built too. */
#ifndef IRQLAB_BENCH_MODEL_MITIGATIONS_H
#define IRQLAB_BENCH_MODEL_MITIGATIONS_H

#include <stddef.h>
#include <stdint.h>

#include "arch/mitigations.h"

/* What the rule reads, as the runner found it: CPUID words and
 * IA32_ARCH_CAPABILITIES. */
struct mitigation_bits {
	uint32_t leaf1_ecx;	/* PCID (17) */
	uint32_t leaf7_ebx;	/* RTM (11), SMAP (20) */
	uint32_t leaf7_edx;	/* MD_CLEAR (10), IBRS/IBPB (26),
				 * ARCH_CAPABILITIES (29) */
	uint32_t leaf7_2_edx;	/* BHI_CTRL (4) */
	uint32_t ext8_ebx;	/* AMD: IBPB (12), IBRS (14) */
	uint64_t arch_capabilities;	/* 0 where not read */
	/* 1 when the MSR was read; 0 where CPUID says it is absent or the
	 * read faulted. */
	uint8_t arch_capabilities_read;
};

/* X(ID, "name"): each decision the report states, in its order. A
 * mitigation variant names the one its row answers to in its LINUX
 * column (VARIANT_LIST, arch/matrix.h); LINUX_CHOICE_NONE is none. */
#define LINUX_CHOICE_LIST(X)                                                \
	X(PTI, "PTI")                                                       \
	X(IBRS, "IBRS")                                                     \
	X(VERW, "VERW")                                                     \
	X(BHB, "BHB clear")                                                 \
	X(IBPB, "IBPB")                                                     \
	X(LFENCE_SWAPGS, "LFENCE after swapgs")                             \
	X(RSB, "RSB fill")

#define LINUX_CHOICE_ID(id, name) LINUX_CHOICE_##id,
enum linux_choice_id {
	LINUX_CHOICE_NONE = -1,
	LINUX_CHOICE_LIST(LINUX_CHOICE_ID) LINUX_CHOICE_COUNT
};
#undef LINUX_CHOICE_ID

struct linux_choice {
	/* The CPU has the weakness and Linux mitigates it with this
	 * sequence, somewhere. */
	uint8_t needed;
	/* ... and on the interrupt path: then it is a step of the "linux"
	 * variant. */
	uint8_t per_interrupt;
	char why[160];		/* "on (MDS_NO is 0; MD_CLEAR present: ...)" */
};

struct linux_choices {
	struct linux_choice choice[LINUX_CHOICE_COUNT];
	uint32_t steps;		/* LINUX_STEP_* bits (arch/mitigations.h) */
};

/* The rule. vendor is CPUID 0's twelve characters. */
void linux_choose(const char *vendor, uint32_t family, uint32_t model,
		  const struct mitigation_bits *b, struct linux_choices *out);
const char *linux_choice_name(unsigned id);

/* simulate = linux-every-step: the steps of the "linux" variant this
 * CPU can run, whatever the rule takes, so that every site and its
 * set-up runs where no emulated CPU makes Linux take them all. A step
 * whose CPUID bit is 0 stays off, and why_not[step] says why (the words
 * of arch/mitigations.h); the others' why_not is NULL. */
uint32_t linux_every_step(const char *vendor, const struct mitigation_bits *b,
			  const char *why_not[LINUX_STEPS]);
/* The decision a variant's row answers to (its LINUX column in
 * VARIANT_LIST), or -1 (LINUX_CHOICE_NONE) for a variant that answers to
 * none: the "linux" set itself, and every variant not a mitigation. */
int linux_choice_of_variant(unsigned variant);

/* The Linux version the rule follows, for the reports (its files:
 * docs/mitigations.md). */
extern const char linux_rule_source[];

#endif
