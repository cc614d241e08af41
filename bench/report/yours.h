/* Your own entry code (docs/your-entry.md): each file of `make
 * ENTRY=...`, what it is, and its rows against direct, the gate's floor,
 * Linux's set and the first file. Nothing without ENTRY. */
#ifndef IRQLAB_BENCH_REPORT_YOURS_H
#define IRQLAB_BENCH_REPORT_YOURS_H

#include "arch/lib/fmt.h"
#include "bench/model/results.h"
#include "bench/report/json.h"

/* results.json's "yours", and summary.txt's section. */
void yours_json(struct json_writer *w, const struct run_result *r);
void yours_summary(struct text_buf *tb, const struct run_result *r);

/* The rows a file's row is set against, each NULL where it did not run
 * ok: the same source's direct row (its baseline), the gate's floor
 * there, Linux's set on the same source (INT n only), and the first
 * file's row where this is a later file's. */
struct yours_against {
	const struct experiment_result *direct, *gate, *linux_set, *first;
};
void yours_against_of(const struct run_result *r,
		      const struct experiment_result *e,
		      struct yours_against *out);

#endif
