/* The machine the run measured: its CPU, system and firmware, how it
 * booted back, its display and what the platform probes found. */
#ifndef IRQLAB_BENCH_REPORT_MACHINE_H
#define IRQLAB_BENCH_REPORT_MACHINE_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/json.h"

/* results.json's "machine", "boot_return", "display", "platform" and
 * "firmware". */
void machine_json(struct json_writer *w, const struct run_result *r);
/* summary.txt's lines from "machine" to "platform". */
void machine_summary(struct text_buf *tb, const struct run_result *r);

#endif
