#include "bench/report/context.h"

#include "bench/model/catalog.h"

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
