#include "bench/report/primitives.h"

#include "bench/report/stats_cells.h"

/* The catalog's words for a primitive; empty ones for an unknown name. */
static const struct primitive_entry *primitive_info(
	const struct report_context *ctx, const char *name)
{
	static const struct primitive_entry unknown = { "", "", "" };
	size_t i;

	for (i = 0; ctx && i < ctx->n_primitives; i++)
		if (str_eq(ctx->primitives[i].name, name))
			return &ctx->primitives[i];
	return &unknown;
}

/* A block's median net of its floor, per repetition, in thousandths:
 * the one figure results.json, report.html and summary.txt all give
 * (three decimals each). */
static int64_t per_rep_milli(uint64_t block_median, uint64_t floor)
{
	return net_of_floor(block_median, floor) * 1000 / PRIMITIVE_BLOCK_REPS;
}

void primitives_json(struct json_writer *w, const struct run_result *r,
		     const struct report_context *ctx)
{
	uint64_t floor = r->floor.min;
	uint32_t i;

	json_key(w, "primitives");
	json_begin_object(w);
	json_kv_uint(w, "reps_per_block", PRIMITIVE_BLOCK_REPS);
	json_kv_string(w, "unit", clock_kind_unit(r->clock_kind));
	json_key(w, "rows");
	json_begin_array(w);
	for (i = 0; i < r->n_primitives; i++) {
		const struct primitive_result *p = &r->prim[i];
		const struct primitive_entry *info = primitive_info(ctx, p->name);

		json_begin_object(w);
		json_kv_string(w, "name", p->name);
		json_kv_string(w, "description", info->description);
		json_kv_string(w, "seed", info->seed);
		json_status(w, p->status, p->reason);
		if (p->status == EXP_OK) {
			json_kv_uint(w, "blocks", p->block.count);
			json_key(w, "block");
			json_figures(w, &p->block, floor);
			json_key(w, "median_per_rep");
			json_milli(w, per_rep_milli(p->block.median, floor));
			/* The counted pass: core cycles per block, net of
			 * the cycle floor; null where it did not run. */
			json_key(w, "cycles");
			if (p->cycles_block.count) {
				json_begin_object(w);
				json_kv_string(w, "state", counted_state_name(
						results_counted_state(r)));
				json_key(w, "block");
				json_figures(w, &p->cycles_block,
					     r->cycles_floor.min);
				json_key(w, "median_per_rep");
				json_milli(w, per_rep_milli(p->cycles_block.median,
							    r->cycles_floor.min));
				json_end_object(w);
			} else {
				json_null(w);
			}
		}
		json_end_object(w);
	}
	json_end_array(w);
	json_end_object(w);
}

void primitives_summary(struct text_buf *tb, const struct run_result *r,
			const struct report_context *ctx)
{
	uint64_t floor = r->floor.min;
	uint32_t i;

	if (!r->n_primitives)
		return;
	tb_printf(tb, "\nPrimitives: per block of %u repetitions, net of the "
		  "floor (seeds 000, 002, 003); per rep: the median block over "
		  "%u, as report.html gives it\n", PRIMITIVE_BLOCK_REPS,
		  PRIMITIVE_BLOCK_REPS);
	tb_printf(tb, "%-26s %-4s %9s %9s %9s %9s %9s  %s\n", "primitive",
		  "seed", "min", "median", "p99", "max", "per rep",
		  "what it is");
	for (i = 0; i < r->n_primitives; i++) {
		const struct primitive_result *p = &r->prim[i];
		const struct primitive_entry *info = primitive_info(ctx, p->name);
		char per_rep[24];

		if (p->status != EXP_OK) {
			tb_printf(tb, "%-26s %-4s %s: %s\n", p->name, info->seed,
				  exp_status_name(p->status), p->reason);
			continue;
		}
		summary_milli(per_rep, sizeof(per_rep),
			      per_rep_milli(p->block.median, floor), 3);
		tb_printf(tb, "%-26s %-4s %9lld %9lld %9lld %9lld %9s  %s\n",
			  p->name, info->seed,
			  (long long)net_of_floor(p->block.min, floor),
			  (long long)net_of_floor(p->block.median, floor),
			  (long long)net_of_floor(p->block.p99, floor),
			  (long long)net_of_floor(p->block.max, floor), per_rep,
			  info->description);
		if (!p->cycles_block.count)
			continue;
		summary_milli(per_rep, sizeof(per_rep),
			      per_rep_milli(p->cycles_block.median,
					    r->cycles_floor.min), 3);
		tb_printf(tb, "%-26s %-4s %9s %9lld %9s %9s %9s  core cycles%s\n",
			  "", "", "", (long long)net_of_floor(
				  p->cycles_block.median, r->cycles_floor.min),
			  "", "", per_rep,
			  r->clock_kind != CLOCK_TSC_TICKS
				  ? " (instruction steps)" : "");
	}
}
