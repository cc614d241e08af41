#include "bench/report/footprints.h"

/* 64-byte lines `bytes` spans at the least. */
static uint32_t cache_lines(uint32_t bytes)
{
	return (bytes + 63) / 64;
}

void footprints_json(struct json_writer *w, const struct report_context *ctx)
{
	size_t i;

	json_key(w, "schemes");
	json_begin_array(w);
	for (i = 0; ctx && i < ctx->n_schemes; i++) {
		const struct scheme_entry *s = &ctx->schemes[i];

		json_begin_object(w);
		json_kv_string(w, "name", s->name);
		json_kv_string(w, "description", s->description);
		json_kv_string(w, "seed", s->seed);
		json_kv_uint(w, "stub_bytes", s->stub_bytes);
		json_kv_uint(w, "code_bytes", s->code_bytes);
		json_kv_uint(w, "code_cache_lines", cache_lines(s->code_bytes));
		json_kv_uint(w, "data_bytes", s->data_bytes);
		json_end_object(w);
	}
	json_end_array(w);
}

void footprints_summary(struct text_buf *tb, const struct report_context *ctx)
{
	size_t k;

	if (!ctx || !ctx->n_schemes)
		return;
	tb_printf(tb, "\nScheme footprint (from the built binary)\n");
	tb_printf(tb, "%-24s %-8s %6s %7s %6s %7s  %s\n", "scheme", "seed",
		  "stub B", "code B", "lines", "data B", "what it is");
	for (k = 0; k < ctx->n_schemes; k++) {
		const struct scheme_entry *s = &ctx->schemes[k];

		tb_printf(tb, "%-24s %-8s %6u %7u %6u %7u  %s\n", s->name,
			  s->seed, s->stub_bytes, s->code_bytes,
			  cache_lines(s->code_bytes), s->data_bytes,
			  s->description);
	}
}
