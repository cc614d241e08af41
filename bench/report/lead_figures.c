#include "bench/report/lead_figures.h"

int report_leads_with_cycles(const struct run_result *r)
{
	/* An emulator's cycle counter counts instruction steps: it has no
	 * pipeline, cache or clock (docs/emulators.md "The counting PMU"),
	 * so its "core cycles" never lead as cycles. */
	return results_counted_state(r) == COUNTED_MEASURED &&
	       r->clock_kind == CLOCK_TSC_TICKS;
}

const char *lead_unit(const struct run_result *r)
{
	return report_leads_with_cycles(r) ? "core cycles"
					   : clock_kind_unit(r->clock_kind);
}

const char *lead_short_unit(const struct run_result *r)
{
	return report_leads_with_cycles(r) ? "core cycles"
					   : clock_kind_short_unit(r->clock_kind);
}

const char *counted_cycles_unit(const struct run_result *r)
{
	return r->clock_kind == CLOCK_TSC_TICKS
		       ? "core cycles"
		       : "the emulator's cycle counter: one per instruction "
			 "step, not cycles";
}

int64_t row_net_median(const struct run_result *r,
		       const struct experiment_result *e, unsigned k)
{
	return net_of_floor(e->metric[k].median, row_floor(r, e));
}

int64_t counted_median(const struct run_result *r,
		       const struct experiment_result *e, unsigned k)
{
	const struct counted_row *c = results_counted(r, (uint32_t)(e - r->exp));

	return c ? net_of_floor(c->cycles[k].median, r->cycles_floor.min)
		 : INT64_MIN;
}

int64_t lead_median(const struct run_result *r,
		    const struct experiment_result *e, unsigned k)
{
	if (!report_leads_with_cycles(r))
		return row_net_median(r, e, k);
	return counted_median(r, e, k);
}

/* a - b, or INT64_MIN where either is. */
static int64_t over(int64_t a, int64_t b)
{
	return a == INT64_MIN || b == INT64_MIN ? INT64_MIN : a - b;
}

int64_t lead_median_over(const struct run_result *r,
			 const struct experiment_result *e,
			 const struct experiment_result *base, unsigned k)
{
	return over(lead_median(r, e, k), lead_median(r, base, k));
}

int64_t counted_median_over(const struct run_result *r,
			    const struct experiment_result *e,
			    const struct experiment_result *base, unsigned k)
{
	return over(counted_median(r, e, k), counted_median(r, base, k));
}
