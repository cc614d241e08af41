/* The mitigations on the interrupt path (docs/mitigations.md): each
 * sequence's cost over its baseline, warm and cold, whether this CPU
 * needs it and why, what Linux's defaults would run here in all, and
 * the IDT with its set against FRED with its own. */
#ifndef IRQLAB_BENCH_REPORT_MITIGATIONS_H
#define IRQLAB_BENCH_REPORT_MITIGATIONS_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/json.h"

/* results.json's "mitigations", and summary.txt's section. */
void mitigations_json(struct json_writer *w, const struct run_result *r);
void mitigations_summary(struct text_buf *tb, const struct run_result *r);

#endif
