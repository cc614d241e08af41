/* The gap method (seed 000): what an interrupt costs the code it
 * interrupts, from a TSC loop a periodic timer interrupts. */
#ifndef IRQLAB_BENCH_REPORT_GAPS_H
#define IRQLAB_BENCH_REPORT_GAPS_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/json.h"

/* results.json's "gap_method", and summary.txt's table. */
void gaps_json(struct json_writer *w, const struct run_result *r);
void gaps_summary(struct text_buf *tb, const struct run_result *r);

#endif
