/* What every section of the reports reads besides the run itself: the
 * catalog's words for the schemes and primitives, the runs of a series,
 * the handoff, the report page's template and the icount reference. */
#ifndef IRQLAB_BENCH_REPORT_CONTEXT_H
#define IRQLAB_BENCH_REPORT_CONTEXT_H

#include <stddef.h>

#include "arch/lib/fmt.h"
#include "bench/model/path_reference.h"
#include "bench/model/records.h"
#include "bench/model/results.h"

/* A dispatch scheme as the reports describe it: its words from the
 * catalog, its footprint from the run. */
struct scheme_entry {
	const char *name;
	const char *description;
	const char *seed;
	uint32_t stub_bytes;	/* one vector's stub */
	uint32_t code_bytes;	/* all of the scheme's code */
	uint32_t data_bytes;	/* descriptors it adds */
};

/* What the binary says about each primitive micro-benchmark. */
struct primitive_entry {
	const char *name;
	const char *description;
	const char *seed;
};

/* Everything a report needs besides the run itself; any part may be
 * NULL / empty. */
struct report_context {
	const struct handoff_report *handoff;
	const struct scheme_entry *schemes;
	size_t n_schemes;
	const struct primitive_entry *primitives;
	size_t n_primitives;
	/* Every run of a repeated series, in order; the run being reported
	 * is the last. Empty for a single run. */
	const struct run_result *const *runs;
	size_t n_runs;
	/* The report page's template (web/report.html, inlined at build
	 * time), or NULL where none was found: report.html is then not
	 * written. */
	const char *html_template;
	size_t html_template_len;
	/* The icount reference the stick carries (docs/timing.md "The path
	 * length, checked"), or NULL with path_reference_problem saying
	 * why. */
	const struct path_reference *path_reference;
	const char *path_reference_problem;
};

/* Room for the catalog a report context points into. */
struct report_catalog {
	struct scheme_entry schemes[RESULTS_MAX_SCHEMES];
	struct primitive_entry primitives[RESULTS_MAX_PRIMITIVES];
};

/* The context phase C and the rescue tool both report with: each scheme
 * the run carries a footprint of, in words from bench/model/catalog.c,
 * and every primitive. `h` and `store` must outlive `ctx`. */
void report_context_build(struct report_context *ctx,
			  struct report_catalog *store,
			  const struct run_result *r,
			  const struct handoff_report *h);

/* Room for one rendered file of a run's folder, and for the report
 * page's template. */
#define REPORT_TEXT_BYTES (4 * 1024 * 1024)
#define REPORT_TEMPLATE_BYTES (256 * 1024)

/* Each file's writer returns 0 on success, -1 if the buffer was too
 * small, and REPORT_NOT_WRITTEN where the file has nothing to be made
 * from. */
#define REPORT_NOT_WRITTEN 1

#endif
