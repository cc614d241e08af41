#include "bench/report/between_cpus.h"

#include "arch/lib/cpuid_bits.h"
#include "bench/model/cross_cpu.h"
#include "bench/report/stats_cells.h"

/* One median of the cross-CPU section, under `key`, with how many rows
 * it is the median of. */
static void json_cross_median(struct json_writer *w, const char *key,
			      uint64_t median, uint32_t rows)
{
	json_key(w, key);
	json_begin_object(w);
	json_kv_uint(w, "median", median);
	json_kv_uint(w, "rows", rows);
	json_end_object(w);
}

/* One row between CPUs: its kind, sender, target and relation, each
 * end's core type (CPUID 1AH, hybrid CPUs), its status, the TSC offset
 * a one-way row was corrected by, and its time. */
static void json_cross_row(struct json_writer *w, const struct run_result *r,
			   uint32_t i)
{
	const struct cross_result *c = &r->cross[i];
	char core[8];
	unsigned k;

	json_begin_object(w);
	json_kv_string(w, "kind", cross_kind_name(c->kind));
	json_kv_uint(w, "sender", c->sender);
	if (c->target == CROSS_ALL_TARGETS)
		json_kv_string(w, "target", "all");
	else
		json_kv_uint(w, "target", c->target);
	json_kv_uint(w, "targets", c->targets);
	json_kv_uint(w, "late_samples", c->late);
	json_kv_string(w, "relation", cpu_relation_name(c->relation));
	json_kv_string(w, "sender_core",
		       core_type_name(c->sender_core, core, sizeof(core)));
	if (c->target != CROSS_ALL_TARGETS)
		json_kv_string(w, "target_core",
			       core_type_name(c->target_core, core,
					      sizeof(core)));
	json_kv_string(w, "apic_mode", apic_mode_name(c->apic_mode));
	json_status(w, c->status, c->reason);
	if (c->kind == CROSS_ONE_WAY && c->skew_low <= c->skew_high) {
		json_key(w, "tsc_offset");
		json_begin_object(w);
		json_kv_int(w, "low", c->skew_low);
		json_kv_int(w, "high", c->skew_high);
		json_kv_uint(w, "plus_minus",
			     (uint64_t)(c->skew_high - c->skew_low) / 2);
		json_end_object(w);
	}
	if (c->status == EXP_OK) {
		json_kv_uint(w, "samples", c->time.count);
		json_key(w, "time");
		json_figures(w, &c->time, 0);
	}
	/* The first ok pair of each relation keeps its buckets:
	 * [low, high, count], raw. */
	for (k = 0; k < r->n_cross_hists; k++)
		if (r->cross_hist[k].row == i) {
			json_key(w, "distribution");
			json_row_histogram(w, &r->cross_hist[k], 0);
		}
	json_end_object(w);
}

/* Each kind's median over the pairs of each relation. */
static void json_cross_by_relation(struct json_writer *w,
				   const struct run_result *r)
{
	uint32_t pairs;
	unsigned k, rel;

	json_key(w, "by_relation");
	json_begin_object(w);
	for (k = 0; k < CROSS_KIND_COUNT; k++) {
		json_key(w, cross_kind_name(k));
		json_begin_object(w);
		for (rel = 0; rel < CPU_RELATION_COUNT; rel++) {
			uint64_t m = cross_relation_median(r, k, rel, &pairs);

			if (pairs)
				json_cross_median(w, cpu_relation_name(rel), m,
						  pairs);
		}
		json_end_object(w);
	}
	json_end_object(w);
}

/* Hybrid CPUs: ipi-ack's median from each core type to each. */
static void json_cross_by_core_type(struct json_writer *w,
				    const struct run_result *r)
{
	static const uint8_t types[] = { CORE_TYPE_CORE, CORE_TYPE_ATOM };
	uint32_t pairs;
	unsigned k;

	json_key(w, "by_core_type");
	json_begin_object(w);
	for (k = 0; cross_hybrid(r) && k < 4; k++) {
		char a[8], b[8], key[24];
		uint64_t m = cross_core_median(r, CROSS_ACK, types[k / 2],
					       types[k % 2], &pairs);

		if (!pairs)
			continue;
		fmt_snprintf(key, sizeof(key), "%s->%s",
			     core_type_name(types[k / 2], a, sizeof(a)),
			     core_type_name(types[k % 2], b, sizeof(b)));
		json_cross_median(w, key, m, pairs);
	}
	json_end_object(w);
}

/* A cell's figure of one kind: its median where ok, else its status
 * and the short name of its reason ("skipped: not-invariant"). */
static void json_cell_figure(struct json_writer *w, unsigned status,
			     unsigned why, uint32_t median)
{
	char said[48];

	if (status == EXP_OK) {
		json_uint(w, median);
		return;
	}
	fmt_snprintf(said, sizeof(said), "%s: %s", exp_status_name(status),
		     cell_why_name(why));
	json_string(w, said);
}

/* The matrix (docs/cross-cpu.md "The matrix"): its processors in
 * topology order, with where each sits; then a cell a line, each an
 * array under "columns", sender and target by APIC ID; and each
 * reason's sentence once, under its short name. */
static void json_matrix(struct json_writer *w, const struct run_result *r)
{
	const struct topology *t = &r->machine.topology;
	uint8_t used[CELL_WHY_COUNT] = { 0 };
	uint32_t i;
	unsigned k;
	char core[8];

	json_key(w, "matrix");
	json_begin_object(w);
	json_kv_uint(w, "samples_per_pair", r->matrix_samples);
	json_kv_uint(w, "left_out", r->matrix_left_out);
	json_kv_uint(w, "cells_dropped", r->cells_dropped);
	/* A matrix in parts whose last part could not go on: the index of
	 * its first sender never measured (docs/cross-cpu.md "In the
	 * handoff"). */
	json_key(w, "unfinished_from_sender");
	if (r->matrix_next_sender)
		json_uint(w, r->matrix_next_sender - 1u);
	else
		json_null(w);
	json_key(w, "cpus");
	json_begin_array(w);
	for (i = 0; i < r->n_matrix_cpus && i < RESULTS_MAX_MATRIX_CPUS; i++) {
		uint32_t id = r->matrix_cpu[i].apic_id;
		struct topology_place at = topology_place_of(t, id);

		json_begin_object(w);
		json_kv_uint(w, "apic_id", id);
		json_kv_string(w, "core_type",
			       core_type_name(r->matrix_cpu[i].core, core,
					      sizeof(core)));
		json_key(w, "full");
		json_bool(w, r->matrix_cpu[i].full);
		if (t->known) {
			json_kv_uint(w, "package", at.package);
			json_kv_uint(w, "llc", t->llc_shift < 32
						       ? id >> t->llc_shift : 0);
			json_kv_uint(w, "core", at.core);
		}
		json_end_object(w);
	}
	json_end_array(w);
	json_key(w, "columns");
	json_begin_inline_array(w);
	json_string(w, "sender");
	json_string(w, "target");
	json_string(w, "relation");
	json_string(w, cross_kind_name(CROSS_ACK));
	json_string(w, cross_kind_name(CROSS_ONE_WAY));
	json_string(w, "late_samples");
	json_string(w, "offset_plus_minus");
	json_end_array(w);
	json_key(w, "cells");
	json_begin_array(w);
	for (i = 0; i < r->n_cells && i < RESULTS_MAX_CELLS; i++) {
		const struct matrix_cell *c = &r->cell[i];

		json_begin_inline_array(w);
		json_uint(w, r->matrix_cpu[c->sender].apic_id);
		json_uint(w, r->matrix_cpu[c->target].apic_id);
		json_string(w, cpu_relation_name(c->relation));
		json_cell_figure(w, c->ack_status, c->ack_why, c->ack);
		json_cell_figure(w, c->one_way_status, c->one_way_why,
				 c->one_way);
		json_uint(w, c->late);
		json_uint(w, c->offset_plus_minus);
		json_end_array(w);
		used[c->ack_why < CELL_WHY_COUNT ? c->ack_why : 0] = 1;
		used[c->one_way_why < CELL_WHY_COUNT ? c->one_way_why : 0] = 1;
	}
	json_end_array(w);
	json_key(w, "why");
	json_begin_object(w);
	for (k = 1; k < CELL_WHY_COUNT; k++)
		if (used[k])
			json_kv_string(w, cell_why_name(k), cell_why_text(k));
	json_end_object(w);
	json_end_object(w);
}

/* The cross-CPU section (docs/cross-cpu.md): the rows kept in full by
 * sender, target and relation, the matrix, then each kind's median over
 * the pairs of a relation. */
void between_cpus_json(struct json_writer *w, const struct run_result *r)
{
	uint32_t i;
	unsigned k;

	json_key(w, "cross_cpu");
	json_begin_object(w);
	json_kv_string(w, "unit", clock_kind_unit(r->clock_kind));
	json_kv_string(w, "figures", cross_figures_meaning(r->clock_kind));
	/* The section's time on the machine, from its wake to its last
	 * park: what a user waits for it (docs/cross-cpu.md). */
	json_key(w, "machine_time");
	json_begin_object(w);
	json_kv_uint(w, "ticks", r->cross_ticks);
	json_kv_uint(w, "ms", r->tsc_hz ? r->cross_ticks * 1000 / r->tsc_hz
					: 0);
	json_end_object(w);
	/* This run's starts of the other processors: each start sends
	 * every processor started its INIT, SIPI and SIPI together. */
	json_key(w, "starts");
	json_begin_object(w);
	json_kv_uint(w, "together", r->cpu_start_rounds);
	json_kv_uint(w, "most_per_processor", r->cpu_starts_most);
	json_end_object(w);
	json_key(w, "kinds");
	json_begin_object(w);
	for (k = 0; k < CROSS_KIND_COUNT; k++)
		json_kv_string(w, cross_kind_name(k), cross_kind_what(k));
	json_end_object(w);
	json_key(w, "rows");
	json_begin_array(w);
	for (i = 0; i < r->n_cross; i++)
		json_cross_row(w, r, i);
	json_end_array(w);
	json_matrix(w, r);
	json_cross_by_relation(w, r);
	json_cross_by_core_type(w, r);
	json_end_object(w);
}

/* Whether a cross-CPU row before `i` has i's kind, status and reason:
 * a reason is said once, with how many rows it covers. */
static int same_reason_before(const struct run_result *r, uint32_t i)
{
	uint32_t j;

	for (j = 0; j < i; j++)
		if (r->cross[j].kind == r->cross[i].kind &&
		    r->cross[j].status == r->cross[i].status &&
		    str_eq(r->cross[j].reason, r->cross[i].reason))
			return 1;
	return 0;
}

static uint32_t rows_with_reason(const struct run_result *r, uint32_t i)
{
	uint32_t j, n = 0;

	for (j = 0; j < r->n_cross; j++)
		n += r->cross[j].kind == r->cross[i].kind &&
		     r->cross[j].status == r->cross[i].status &&
		     str_eq(r->cross[j].reason, r->cross[i].reason);
	return n;
}

/* On a hybrid CPU: ipi-ack's median from each core type to each. */
static void summary_cross_cores(struct text_buf *tb, const struct run_result *r)
{
	static const uint8_t types[] = { CORE_TYPE_CORE, CORE_TYPE_ATOM };
	char a[8], b[8];
	uint32_t pairs;
	unsigned i, j;

	if (!cross_hybrid(r))
		return;
	for (i = 0; i < 2; i++)
		for (j = 0; j < 2; j++) {
			uint64_t m = cross_core_median(r, CROSS_ACK, types[i],
						       types[j], &pairs);
			char label[24];

			if (!pairs)
				continue;
			fmt_snprintf(label, sizeof(label), "%s->%s",
				     core_type_name(types[i], a, sizeof(a)),
				     core_type_name(types[j], b, sizeof(b)));
			tb_printf(tb, "%-22s %-14s %9llu %6u\n", "ipi-ack",
				  label, (unsigned long long)m, pairs);
		}
}

/* Up to this many processors the summary prints the matrix's figures;
 * past it a character a pair, so that 64 stay within a screen's width
 * (docs/cross-cpu.md "The matrix"). */
#define SUMMARY_MATRIX_FIGURES_UP_TO 16

/* grid[s][t]: the cell from matrix processor s to t, or NO_CELL. */
#define NO_CELL 0xffffu
static uint16_t grid[RESULTS_MAX_MATRIX_CPUS][RESULTS_MAX_MATRIX_CPUS];

static void cell_grid(const struct run_result *r)
{
	uint32_t i;

	__builtin_memset(grid, 0xff, sizeof(uint16_t) *
					     RESULTS_MAX_MATRIX_CPUS *
					     RESULTS_MAX_MATRIX_CPUS);
	for (i = 0; i < r->n_cells && i < RESULTS_MAX_CELLS; i++)
		if (r->cell[i].sender < RESULTS_MAX_MATRIX_CPUS &&
		    r->cell[i].target < RESULTS_MAX_MATRIX_CPUS)
			grid[r->cell[i].sender][r->cell[i].target] =
				(uint16_t)i;
}

/* Pair s -> t's ipi-ack median as the summary shows it: its figure, or
 * its tenth of lo .. hi (0 the fastest), "-" for a processor and itself,
 * "?" where it has none. */
static void summary_matrix_cell(struct text_buf *tb, const struct run_result *r,
				uint16_t at, int same, uint32_t lo, uint32_t hi,
				int figures)
{
	const struct matrix_cell *c = at == NO_CELL ? 0 : &r->cell[at];
	const char *none = same ? "-" : "?";

	if (!figures) {
		tb_printf(tb, "%s", !c || c->ack_status != EXP_OK ? none : "");
		if (c && c->ack_status == EXP_OK)
			tb_printf(tb, "%u", hi > lo ? (unsigned)((uint64_t)
						(c->ack - lo) * 10 /
						(hi - lo + 1)) : 0);
		return;
	}
	if (c && c->ack_status == EXP_OK)
		tb_printf(tb, " %7u", c->ack);
	else
		tb_printf(tb, " %7s", none);
}

/* The matrix of acknowledged IPIs, sender (row) to target (column), in
 * topology order (ascending APIC ID): figures up to
 * SUMMARY_MATRIX_FIGURES_UP_TO processors, a tenth of the range each
 * past it. */
static void summary_ack_matrix(struct text_buf *tb,
			       const struct run_result *r)
{
	static uint16_t at[RESULTS_MAX_MATRIX_CPUS];	/* the full ones */
	uint32_t n = 0, i, j, lo = UINT32_MAX, hi = 0;
	int figures;

	for (i = 0; i < r->n_matrix_cpus && i < RESULTS_MAX_MATRIX_CPUS; i++)
		if (r->matrix_cpu[i].full)
			at[n++] = (uint16_t)i;
	figures = n <= SUMMARY_MATRIX_FIGURES_UP_TO;
	if (n < 2)
		return;
	for (i = 0; i < r->n_cells && i < RESULTS_MAX_CELLS; i++)
		if (r->cell[i].ack_status == EXP_OK &&
		    r->matrix_cpu[r->cell[i].sender].full &&
		    r->matrix_cpu[r->cell[i].target].full) {
			if (r->cell[i].ack < lo)
				lo = r->cell[i].ack;
			if (r->cell[i].ack > hi)
				hi = r->cell[i].ack;
		}
	if (figures) {
		tb_printf(tb, "  ipi-ack medians, sender (row) to target "
			  "(column), by APIC id:\n  %6s", "");
		for (j = 0; j < n; j++)
			tb_printf(tb, " %7u", r->matrix_cpu[at[j]].apic_id);
	} else {
		tb_printf(tb, "  ipi-ack medians, sender (row) to target "
			  "(column), by APIC id in topology order, a digit a "
			  "pair: its tenth of %u .. %u, 0 the fastest; - "
			  "itself, ? none. Column k is row k's processor; the "
			  "heading gives k's last digit.\n  %6s ",
			  lo == UINT32_MAX ? 0 : lo, hi, "");
		for (j = 0; j < n; j++)
			tb_printf(tb, "%u", j % 10);
	}
	tb_printf(tb, "\n");
	for (i = 0; i < n; i++) {
		tb_printf(tb, "  %6u%s", r->matrix_cpu[at[i]].apic_id,
			  figures ? "" : " ");
		for (j = 0; j < n; j++)
			summary_matrix_cell(tb, r, grid[at[i]][at[j]], i == j,
					    lo, hi, figures);
		tb_printf(tb, "\n");
	}
}

/* The processors past the full matrix, a line each: its ipi-ack
 * median to and from each processor it was measured against, with
 * their relation (docs/cross-cpu.md "Past 64"). */
static void summary_past_full(struct text_buf *tb, const struct run_result *r)
{
	uint32_t p, i, shown = 0;

	for (p = 0; p < r->n_matrix_cpus && p < RESULTS_MAX_MATRIX_CPUS; p++) {
		if (r->matrix_cpu[p].full)
			continue;
		if (!shown++)
			tb_printf(tb, "  past the full matrix, each processor "
				  "against the boot CPU and one of each "
				  "relation: ipi-ack to/from (\"?\": none)\n");
		tb_printf(tb, "  %6u", r->matrix_cpu[p].apic_id);
		for (i = 0; i < r->n_cells && i < RESULTS_MAX_CELLS; i++) {
			const struct matrix_cell *c = &r->cell[i], *back;
			uint16_t k;

			if (c->sender != p)
				continue;
			k = grid[c->target][p];
			back = k == NO_CELL ? 0 : &r->cell[k];
			tb_printf(tb, "  %s %u ", cpu_relation_name(c->relation),
				  r->matrix_cpu[c->target].apic_id);
			if (c->ack_status == EXP_OK)
				tb_printf(tb, "%u", c->ack);
			else
				tb_printf(tb, "?");
			if (back && back->ack_status == EXP_OK)
				tb_printf(tb, "/%u", back->ack);
			else
				tb_printf(tb, "/?");
		}
		tb_printf(tb, "\n");
	}
}

/* Why pairs of the matrix have no figure of a kind: each reason once,
 * with how many pairs it covers. */
static void summary_cell_reasons(struct text_buf *tb,
				 const struct run_result *r)
{
	static uint32_t count[2][EXP_STATUS_COUNT][CELL_WHY_COUNT];
	uint32_t i;
	unsigned k, st, why;

	__builtin_memset(count, 0, sizeof(count));
	for (i = 0; i < r->n_cells && i < RESULTS_MAX_CELLS; i++) {
		const struct matrix_cell *c = &r->cell[i];

		if (c->ack_status != EXP_OK && c->ack_status < EXP_STATUS_COUNT &&
		    c->ack_why < CELL_WHY_COUNT)
			count[0][c->ack_status][c->ack_why]++;
		if (c->one_way_status != EXP_OK &&
		    c->one_way_status < EXP_STATUS_COUNT &&
		    c->one_way_why < CELL_WHY_COUNT)
			count[1][c->one_way_status][c->one_way_why]++;
	}
	for (k = 0; k < 2; k++)
		for (st = 0; st < EXP_STATUS_COUNT; st++)
			for (why = 0; why < CELL_WHY_COUNT; why++)
				if (count[k][st][why])
					tb_printf(tb, "  %s: %s (%u pair(s)): "
						  "%s\n",
						  cross_kind_name(k ? CROSS_ONE_WAY
								    : CROSS_ACK),
						  exp_status_name(st),
						  count[k][st][why],
						  cell_why_text(why));
}

/* The cross-CPU section: each kind's median per relation, the
 * broadcasts, then the acknowledged matrix, sender by target. */
void between_cpus_summary(struct text_buf *tb, const struct run_result *r)
{
	uint32_t i, pairs;
	unsigned k, rel;

	if (!r->n_cross)
		return;
	tb_printf(tb, "\nBetween CPUs (%s): %s\n",
		  clock_kind_unit(r->clock_kind),
		  cross_figures_meaning(r->clock_kind));
	if (r->n_cross == 1 && r->cross[0].status != EXP_OK) {
		tb_printf(tb, "  %s: %s\n", exp_status_name(r->cross[0].status),
			  r->cross[0].reason);
		return;
	}
	tb_printf(tb, "%-22s %-14s %9s %6s\n", "kind", "relation", "median",
		  "rows");
	for (k = 0; k < CROSS_KIND_COUNT; k++)
		for (rel = 0; rel < CPU_RELATION_COUNT; rel++) {
			uint64_t m = cross_relation_median(r, k, rel, &pairs);

			if (pairs)
				tb_printf(tb, "%-22s %-14s %9llu %6u\n",
					  cross_kind_name(k),
					  cpu_relation_name(rel),
					  (unsigned long long)m, pairs);
		}
	summary_cross_cores(tb, r);
	for (i = 0; i < r->n_cross_hists; i++) {
		const struct cross_result *c = &r->cross[r->cross_hist[i].row];

		tb_printf(tb, "  %s: the distribution of APIC id %u -> %u is "
			  "kept (results.json)\n", cpu_relation_name(c->relation),
			  c->sender, c->target);
	}
	for (i = 0; i < r->n_cross; i++) {
		const struct cross_result *c = &r->cross[i];

		if (c->kind == CROSS_ONE_WAY && c->status == EXP_OK)
			tb_printf(tb, "  one way %u -> %u: median %llu, the "
				  "TSC offset known to +-%llu\n", c->sender,
				  c->target,
				  (unsigned long long)c->time.median,
				  (unsigned long long)(c->skew_high -
						       c->skew_low) / 2);
		else if (c->status != EXP_OK && !cross_row_is_kept_pair(c) &&
			 !same_reason_before(r, i))
			tb_printf(tb, "  %s: %s (%u row(s)): %s\n",
				  cross_kind_name(c->kind),
				  exp_status_name(c->status),
				  rows_with_reason(r, i), c->reason);
	}
	summary_cell_reasons(tb, r);
	if (r->matrix_left_out)
		tb_printf(tb, "  %u more processor(s) chosen are left out of "
			  "the matrix, which takes %u\n", r->matrix_left_out,
			  RESULTS_MAX_MATRIX_CPUS);
	if (r->cells_dropped)
		tb_printf(tb, "  %u pair(s) of the last senders were measured "
			  "but did not fit the handoff: NOT IN THE MATRIX\n",
			  r->cells_dropped);
	if (r->matrix_next_sender)
		tb_printf(tb, "  the matrix stopped before its sender %u of %u "
			  "(the last part allowed could not go on): its later "
			  "senders were NEVER MEASURED\n",
			  r->matrix_next_sender, r->n_matrix_cpus);
	if (r->n_cells)
		tb_printf(tb, "  %u pairs, %u samples each\n", r->n_cells,
			  r->matrix_samples);
	cell_grid(r);
	summary_ack_matrix(tb, r);
	summary_past_full(tb, r);
}
