/* Which row each row is compared with, and by how much: the sections
 * that set a row against its baseline read it here, so they cannot
 * disagree. */
#ifndef IRQLAB_BENCH_REPORT_BASELINES_H
#define IRQLAB_BENCH_REPORT_BASELINES_H

#include <stddef.h>
#include <stdint.h>

#include "bench/model/results.h"

/* The ok baseline of an ok row, or NULL when there is nothing to compare. */
const struct experiment_result *comparable_baseline(
	const struct run_result *r, const struct experiment_result *e);
/* The name of the row `e` is compared with; "" for a self-test, which
 * has none. */
void baseline_name(const struct experiment_result *e, char *out, size_t cap);
/* A row's median of metric `k` over its baseline's. */
int64_t median_over(const struct experiment_result *e,
		    const struct experiment_result *base, unsigned k);

#endif
