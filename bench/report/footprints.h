/* Each dispatch scheme's footprint in the built binary: its stub, its
 * code and the descriptors it adds, in the catalog's words. */
#ifndef IRQLAB_BENCH_REPORT_FOOTPRINTS_H
#define IRQLAB_BENCH_REPORT_FOOTPRINTS_H

#include "arch/lib/fmt.h"
#include "bench/report/context.h"
#include "bench/report/json.h"

/* results.json's "schemes", and summary.txt's table. */
void footprints_json(struct json_writer *w, const struct report_context *ctx);
void footprints_summary(struct text_buf *tb, const struct report_context *ctx);

#endif
