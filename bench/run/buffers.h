/* Sample storage, allocated while boot services still run: after
 * ExitBootServices nothing allocates. */
#ifndef IRQLAB_BENCH_RUN_BUFFERS_H
#define IRQLAB_BENCH_RUN_BUFFERS_H

#include <stdint.h>

#include "bench/model/results.h"

struct bench_buffers {
	uint64_t *metric[METRIC_COUNT];	/* config.samples each */
	/* The counted pass's (COUNTED_METRICS, results.h), the same size:
	 * phase A cannot know whether phase B will count. */
	uint64_t *counted[COUNTED_METRICS];
	uint64_t *floor;	/* max(floor_samples, primitive_blocks) */
};

#endif
