/* What the handoff took: the variable-store records a run used, the
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
/* The part of the summary about discarded records alone, also for a
 * boot that found records but no complete run to write. */
void report_discards(struct text_buf *tb, const struct handoff_report *h);

#endif
