/* The other processors (docs/cross-cpu.md "The matrix on another
 * processor"): the rows run again in the boot CPU's place, each against
 * the boot CPU's, and how each processor's clock was pinned. */
#ifndef IRQLAB_BENCH_REPORT_OTHER_PROCESSORS_H
#define IRQLAB_BENCH_REPORT_OTHER_PROCESSORS_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/json.h"

/* results.json's "matrix_on_other_cpus", and summary.txt's section. */
void other_processors_json(struct json_writer *w, const struct run_result *r);
void other_processors_summary(struct text_buf *tb, const struct run_result *r);

/* Each other processor that ran rows or sent IPIs: its pin, LFENCE and
 * APERF/MPERF ratio (docs/timing.md "Pinning the frequency"), as
 * results.json's clock's "other_cpus" and a line each of summary.txt's
 * clock. */
void other_cpu_clocks_json(struct json_writer *w, const struct run_result *r);
void other_cpu_clocks_summary(struct text_buf *tb, const struct run_result *r);

#endif
