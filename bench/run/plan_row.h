/* A row of the experiment plan (bench/run/plan.h): what it runs and
 * how, apart from how the plan is built, so that the config's cut of the
 * plan (bench/run/plan_select.c) sits below the builder that calls it. */
#ifndef IRQLAB_BENCH_RUN_PLAN_ROW_H
#define IRQLAB_BENCH_RUN_PLAN_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "arch/dispatch/i386.h"
#include "arch/dispatch/schemes.h"
#include "arch/dispatch/variants.h"
#include "bench/model/config.h"
#include "bench/model/results.h"
#include "bench/run/sources.h"

enum row_kind {
	ROW_EXPERIMENT,	/* entry, exit and round trip of one interrupt */
	ROW_GAP,	/* the gap method under one scheme (seed 000) */
	ROW_I386,	/* an i386 scheme, in 32-bit protected mode */
};

/* What a row becomes when its APIC mode did not come up. */
enum row_without_mode {
	ROW_SKIPPED,	/* a skipped row, with the mode's reason */
	ROW_OMITTED,	/* nothing: its source already said so */
};

enum injected_fault {
	INJECT_NONE = 0,
	INJECT_IN_LOOP,		/* #UD in the measuring code */
	INJECT_IN_HANDLER,	/* #UD inside the scheme's dispatch path */
};

struct plan_row {
	uint8_t kind;		/* enum row_kind */
	struct row_id id;
	struct row_id baseline;	/* the row it is compared with */
	char name[RESULTS_ROW_NAME_LEN];	/* row_name(&id); "gap-<scheme>" */
	const struct dispatch_scheme *scheme;	/* NULL for entry variants */
	const struct entry_variant *entry;	/* replaces the handler */
	const struct cache_state *cache;	/* runs before each sample */
	const struct i386_scheme *i386;		/* ROW_I386 rows */
	const struct i386_variant *i386_entry;	/* replaces its handler */
	const struct irq_source *source;
	struct source_lines *lines;	/* the machine's, which the source uses */
	uint8_t mode;		/* enum lapic_mode it needs; LAPIC_NONE: any */
	uint8_t without_mode;	/* enum row_without_mode */
	uint8_t vector;
	uint8_t inject;		/* enum injected_fault */
	uint8_t inject_smi;	/* self-test: one batch looks disturbed */
	uint32_t samples;
};

#define PLAN_MAX_ROWS (RESULTS_MAX_EXPERIMENTS + RESULTS_MAX_GAPS)

#endif
