#include "bench/report/report.h"

#include "bench/model/catalog.h"

/* headline.txt: the end screen's page, naming the run's folder on the
 * stick, for the runners to print first (README "Reading the results"). */
static int report_headline(struct text_buf *tb, const struct run_result *r,
			   const struct report_context *ctx)
{
	char name[32], folder[64];

	(void)ctx;
	run_folder_name(r->run_id, name, sizeof(name));
	fmt_snprintf(folder, sizeof(folder), "%s\\%s", REPORT_RESULTS_ROOT,
		     name);
	report_end_screen(tb, r, folder);
	return tb->overflow ? -1 : 0;
}

const struct report_output report_outputs[] = {
	{ "results.json", report_json },
	{ "summary.txt", report_summary },
	{ "report.html", report_html },
	{ "headline.txt", report_headline },
};

const size_t report_output_count =
	sizeof(report_outputs) / sizeof(report_outputs[0]);

void report_context_build(struct report_context *ctx,
			  struct report_catalog *store,
			  const struct run_result *r,
			  const struct handoff_report *h)
{
	size_t i, n = 0, np = 0;

	for (i = 0; r && i < r->n_schemes && n < RESULTS_MAX_SCHEMES; i++) {
		const struct scheme_footprint *f = &r->scheme[i];

		store->schemes[n++] = (struct scheme_entry){
			.name = scheme_name(f->scheme),
			.description = scheme_words(f->scheme),
			.seed = scheme_seed(f->scheme),
			.stub_bytes = f->stub_bytes,
			.code_bytes = f->code_bytes,
			.data_bytes = f->data_bytes,
		};
	}
	for (i = 0; i < catalog_primitive_count && np < RESULTS_MAX_PRIMITIVES;
	     i++, np++)
		store->primitives[np] = (struct primitive_entry){
			catalog_primitives[i].name,
			catalog_primitives[i].description,
			catalog_primitives[i].seed };
	*ctx = (struct report_context){ .handoff = h, .schemes = store->schemes,
					.n_schemes = n,
					.primitives = store->primitives,
					.n_primitives = np };
}
