#include "bench/report/baselines.h"

#include "arch/lib/fmt.h"

const struct experiment_result *comparable_baseline(
	const struct run_result *r, const struct experiment_result *e)
{
	const struct experiment_result *base;

	if (e->status != EXP_OK || !results_has_baseline(e))
		return 0;
	base = results_find(r, &e->baseline);
	return base && base->status == EXP_OK ? base : 0;
}

void baseline_name(const struct experiment_result *e, char *out, size_t cap)
{
	if (e->id.selftest != SELFTEST_ABSENT)
		fmt_snprintf(out, cap, "%s", "");
	else
		row_name(&e->baseline, out, cap);
}

int64_t median_over(const struct experiment_result *e,
		    const struct experiment_result *base, unsigned k)
{
	return (int64_t)(e->metric[k].median - base->metric[k].median);
}
