/* Each row's path length against the icount reference (docs/timing.md
 * "The path length, checked"): instructions per round trip through the
 * bare handlers, net of the floor, from the CPU's counters or from a
 * clock that counts instructions, beside what QEMU -icount gave the same
 * build. Written by phase C and irqlab-rescue alike. */
#ifndef IRQLAB_BENCH_REPORT_PATH_LENGTH_H
#define IRQLAB_BENCH_REPORT_PATH_LENGTH_H

#include <stddef.h>
#include <stdint.h>

#include "arch/lib/fmt.h"
#include "bench/model/path_reference.h"
#include "bench/model/results.h"
#include "bench/report/context.h"
#include "bench/report/json.h"

enum path_state {
	PATH_COMPARED = 0,
	PATH_NO_REFERENCE,	/* none was found, or it did not parse */
	PATH_OTHER_BUILD,	/* it names another build: never compared */
	PATH_NO_COUNTS,		/* the run has no instruction counts */
	PATH_STATE_COUNT
};
const char *path_state_name(unsigned state);

#define PATH_MAX_DIFFERENCES 24

/* What one event delivery adds to instructions retired on a processor
 * (path_length_compare): measured from the rows that deliver one or two
 * events a round trip, as the most common difference per delivery from
 * the reference, which counts none. */
#define PATH_MAX_CPUS 16
struct path_delivery_constant {
	uint8_t cpu;		/* as struct row_id's: 0 the boot CPU */
	int64_t per_delivery;
	uint32_t rows, agreeing;	/* rows with a delivery; at the mode */
};

struct path_comparison {
	uint8_t state;		/* enum path_state */
	char why[RESULTS_REASON_LEN];	/* for every state but compared */
	const char *counts_from;	/* where this run's counts come from */
	uint32_t compared, equal;
	uint32_t n_constants;
	struct path_delivery_constant constant[PATH_MAX_CPUS];
	uint32_t n_differences;	/* all of them; the first few are kept */
	struct {
		uint32_t row;	/* index in exp[] */
		int64_t here, reference;
	} difference[PATH_MAX_DIFFERENCES];
};

/* Compares run r with `ref` (NULL: none, with `problem` saying why). */
void path_length_compare(const struct run_result *r,
			 const struct path_reference *ref, const char *problem,
			 struct path_comparison *out);

/* The comparison in words, for summary.txt. */
void path_comparison_summary(struct text_buf *tb, const struct run_result *r,
			     const struct path_comparison *c);

/* The run compared with the context's reference: results.json's
 * "path_length", and summary.txt's section. */
void path_length_json(struct json_writer *w, const struct run_result *r,
		      const struct report_context *ctx);
void path_length_summary(struct text_buf *tb, const struct run_result *r,
			 const struct report_context *ctx);

#endif
