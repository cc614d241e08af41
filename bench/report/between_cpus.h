/* The section between CPUs (docs/cross-cpu.md): IPIs from one processor
 * to another, each row by sender, target and relation, and each kind's
 * median over the pairs of a relation. */
#ifndef IRQLAB_BENCH_REPORT_BETWEEN_CPUS_H
#define IRQLAB_BENCH_REPORT_BETWEEN_CPUS_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/json.h"

/* results.json's "cross_cpu", and summary.txt's section. */
void between_cpus_json(struct json_writer *w, const struct run_result *r);
void between_cpus_summary(struct text_buf *tb, const struct run_result *r);

#endif
