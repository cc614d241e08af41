/* Noise the measurements must not absorb: SMIs (Intel's MSR_SMI_COUNT,
 * AMD's SMI event, docs/timing.md) and NMIs. Samples are taken in batches; a batch during which
 * either count moved is discarded, counted, and taken again. */
#ifndef IRQLAB_ARCH_NOISE_H
#define IRQLAB_ARCH_NOISE_H

#include <stdint.h>

#define NOISE_BATCH 1000	/* samples per batch, at most */
#define NOISE_BATCH_MS 10	/* and at most this long (TSC time) */
/* Disturbed batches a row may discard; past it, and past as many as it
 * kept, the row fails as too noisy. */
#define NOISE_MAX_DISCARDS 16

/* Finds the CPU's SMI counter: Intel's MSR_SMI_COUNT, or on AMD family
 * 17h and later a core performance counter set to count SMIs received
 * (each access guarded). Returns NULL when one is watched, else why
 * not. */
const char *noise_init(void);
/* The SMI counter noise_init found, by name, or NULL. */
const char *noise_counter(void);
/* Puts back what noise_init changed (AMD's counter 3 and its
 * PerfMonV2 enable), before the reset. */
void noise_finish(void);
/* Both counts folded into one: it changes when either does. */
uint64_t noise_snapshot(void);
/* Test hook: the next snapshot reads as if one SMI had happened. */
void noise_inject_smi(void);

/* Makes sure LFENCE orders RDTSC as the timestamps assume, per vendor,
 * and says how, for the results. */
const char *fences_prepare(void);
/* The same on another processor, after fences_prepare on the boot CPU:
 * DE_CFG's bit set there too where the boot CPU set its own. */
enum fence_kind {
	FENCE_NOT_PREPARED,
	FENCE_ARCHITECTURAL,	/* Intel's, or AMD's CPUID 8000_0021 EAX[2] */
	FENCE_DE_CFG,		/* DE_CFG[1] set and read back */
	FENCE_IN_ORDER,		/* QEMU's TCG */
	FENCE_UNCONFIRMED,
};
enum fence_kind fences_prepare_here(void);

#endif
