/* The experiment plan: every row the run will take, built before any
 * runs. A row's behaviour comes from its fields (scheme, source, entry
 * variant, cache state, APIC mode, vector, samples), never from its
 * name; its identity is its ids (struct row_id), and its name, made from
 * them by row_name(), is only a label for the log and the reports. */
#ifndef IRQLAB_BENCH_RUN_PLAN_H
#define IRQLAB_BENCH_RUN_PLAN_H

#include <stddef.h>

#include "bench/model/config.h"
#include "bench/run/plan_row.h"

/* Fills `rows` in the order they run, each source on `lines`; returns
 * how many. Call once the CPU, the page tables and the lines
 * (source_lines_probe) are known: which schemes and sources can run
 * here decides how many rows a source gets. */
size_t plan_build(struct plan_row *rows, size_t cap,
		  const struct irqlab_config *c, struct source_lines *lines);

#endif
