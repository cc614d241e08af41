/* What the handoff took: how the results came (UEFI variables, or COM1
 * under handoff = serial), the variable-store records a run used, the
 * parts it was measured in, and the records phase C discarded. */
#ifndef IRQLAB_BENCH_REPORT_HANDOFF_RECORDS_H
#define IRQLAB_BENCH_REPORT_HANDOFF_RECORDS_H

#include "arch/lib/fmt.h"
#include "bench/model/records.h"
#include "bench/model/results.h"
#include "bench/report/json.h"

/* results.json's "handoff"; `h` may be NULL. */
void handoff_json(struct json_writer *w, const struct run_result *r,
		  const struct handoff_report *h);
/* summary.txt's line on a run handed over on COM1 (handoff = serial);
 * nothing for one handed over in UEFI variables. */
void handoff_summary(struct text_buf *tb, const struct run_result *r);
/* The part of the summary about discarded records alone, also for a
 * boot that found records but no complete run to write. */
void report_discards(struct text_buf *tb, const struct handoff_report *h);

#endif
