/* Which rows the config's lists keep (docs/run.md "Choosing what
 * runs"): the plan is built whole (bench/run/plan.h), then cut to them. */
#ifndef IRQLAB_BENCH_RUN_PLAN_SELECT_H
#define IRQLAB_BENCH_RUN_PLAN_SELECT_H

#include <stddef.h>

#include "bench/model/config.h"
#include "bench/run/plan_row.h"

/* Drops the rows the config's lists (schemes, sources, variants,
 * apic_modes) leave out, keeping the order; returns how many remain. */
size_t plan_keep_selected(struct plan_row *rows, size_t n,
			  const struct irqlab_config *c);

#endif
