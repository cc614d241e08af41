/* The matrix on another processor (docs/cross-cpu.md "The matrix on
 * another processor"): single-CPU rows run again on a processor that
 * takes the boot CPU's place, the boot CPU's GDT, IDT, control
 * registers and segment bases, while the boot CPU halts. On a hybrid
 * CPU that is one processor of each core type; the matrix_cpus key
 * names others. */
#ifndef IRQLAB_BENCH_RUN_OTHER_CPU_MATRIX_H
#define IRQLAB_BENCH_RUN_OTHER_CPU_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "bench/model/config.h"
#include "bench/model/results.h"
#include "bench/run/buffers.h"
#include "bench/run/plan.h"

/* The most processors the rows run on again: each takes about 60 rows
 * of the results table with matrix_cpus_rows = core. */
#define OTHER_CPU_MATRIX_MAX_CPUS RESULTS_MAX_OTHER_CPUS

/* The processors the config's matrix_cpus names, as row ids' cpu
 * fields (MADT index + 1), in MADT order; returns how many. auto takes,
 * on a hybrid CPU, the first processor that started of each core type
 * the boot CPU is not; all, every processor that started; a number,
 * that processor, whether it started or not (its rows then say why). */
size_t other_cpu_matrix_choose(const struct irqlab_config *c,
			       uint8_t *cpus, size_t cap);

/* Whether a row runs again on those processors under matrix_cpus_rows:
 * core, INT n and the self-IPIs under every scheme; all, every
 * long-mode row but those of the 8259 (which reaches the boot CPU's
 * LINT0 alone), of the section between CPUs, the gap method and the
 * self-tests. */
int other_cpu_matrix_takes(const struct plan_row *p,
			   const struct irqlab_config *c);

/* Adds to the plan's n rows (cap at most) the copies of those each
 * chosen processor runs again, in the order the APIC modes allow;
 * returns how many rows the plan has, and adds to *unplanned the rows
 * that did not fit under cap. */
size_t other_cpu_matrix_plan(struct plan_row *rows, size_t n, size_t cap,
			     const struct irqlab_config *c, size_t *unplanned);

/* Runs one row with p->id.cpu != 0 on its processor, started for it (in
 * the boot CPU's APIC mode) unless it is already in place; a row that
 * cannot run there is a skipped row that says why. */
void other_cpu_matrix_run(const struct plan_row *p, struct run_result *r,
			  const struct irqlab_config *c,
			  struct bench_buffers *b);

/* Parks the processor in the boot CPU's place with INIT, if any: before
 * a row of the boot CPU's, so that nothing runs beside it. */
void other_cpu_matrix_release(void);

#endif
