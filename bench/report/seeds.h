/* The mailing-list threads irqlab comes from, each as a section of the
 * reports: the thread's own table, this machine's figures beside it, and
 * a one-line verdict on the thread's claim. */
#ifndef IRQLAB_BENCH_REPORT_SEEDS_H
#define IRQLAB_BENCH_REPORT_SEEDS_H

#include "arch/lib/fmt.h"
#include "bench/report/json.h"
#include "bench/model/results.h"

void seeds_json(struct json_writer *w, const struct run_result *r);
void seeds_summary(struct text_buf *tb, const struct run_result *r);

#endif
