/* Noise the measurements must not absorb: SMIs (Intel's MSR_SMI_COUNT,
 * docs/timing.md) and NMIs. Samples are taken in batches; a batch during which
 * either count moved is discarded, counted, and taken again. */
#ifndef IRQLAB_ARCH_NOISE_H
#define IRQLAB_ARCH_NOISE_H

#include <stdint.h>

#define NOISE_BATCH 1000	/* samples per batch, at most */
#define NOISE_BATCH_MS 10	/* and at most this long (TSC time) */
/* Disturbed batches a row may discard; past it, and past as many as it
 * kept, the row fails as too noisy. */
#define NOISE_MAX_DISCARDS 16

/* Probes MSR_SMI_COUNT once (Intel only; a #GP elsewhere is caught).
 * Returns NULL when it can be read, else why not. */
const char *noise_init(void);
/* Both counts folded into one: it changes when either does. */
uint64_t noise_snapshot(void);
/* Test hook: the next snapshot reads as if one SMI had happened. */
void noise_inject_smi(void);

/* Makes sure LFENCE orders RDTSC as the timestamps assume, per vendor,
 * and says how, for the results. */
const char *fences_prepare(void);

#endif
