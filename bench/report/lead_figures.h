/* The figures a report leads with (docs/timing.md "Core cycles"): core
 * cycles where the counted pass measured them on a real CPU's counters
 * (the clock is TSC ticks); else the TSC's. The answer, the headline and
 * the seed verdicts read them here. */
#ifndef IRQLAB_BENCH_REPORT_LEAD_FIGURES_H
#define IRQLAB_BENCH_REPORT_LEAD_FIGURES_H

#include <stdint.h>

#include "bench/model/results.h"

/* Whether the report leads with core cycles. An emulator's counters,
 * whose cycle is an instruction step, never lead. */
int report_leads_with_cycles(const struct run_result *r);
/* The unit of the figures it leads with: "core cycles", or the clock's. */
const char *lead_unit(const struct run_result *r);
/* ... in at most 120 characters, for the end screen. */
const char *lead_short_unit(const struct run_result *r);
/* What the counted pass's cycle counter counts: "core cycles" on a real
 * CPU, the emulator's instruction steps under an emulator. */
const char *counted_cycles_unit(const struct run_result *r);
/* Row e's TSC median of metric k, net of the floor of the processor it
 * ran on (row_floor). */
int64_t row_net_median(const struct run_result *r,
		       const struct experiment_result *e, unsigned k);
/* Row e's counted median of metric k in core cycles, net of the cycle
 * floor, a real CPU's or an emulator's; INT64_MIN where it has none. */
int64_t counted_median(const struct run_result *r,
		       const struct experiment_result *e, unsigned k);
/* ... and over its baseline's, INT64_MIN where either has none. */
int64_t counted_median_over(const struct run_result *r,
			    const struct experiment_result *e,
			    const struct experiment_result *base, unsigned k);
/* Row e's median of metric k, net of its floor, in the figures the
 * report leads with; INT64_MIN where the row has none there. */
int64_t lead_median(const struct run_result *r,
		    const struct experiment_result *e, unsigned k);
/* ... and over its baseline's, INT64_MIN where either has none. */
int64_t lead_median_over(const struct run_result *r,
			 const struct experiment_result *e,
			 const struct experiment_result *base, unsigned k);

#endif
