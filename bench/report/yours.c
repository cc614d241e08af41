#include "bench/report/yours.h"

#include "bench/model/yours.h"
#include "bench/report/comparison.h"
#include "bench/report/lead_figures.h"
#include "bench/report/stats_cells.h"

static const struct experiment_result *ok_row(const struct run_result *r,
					      const struct row_id *id)
{
	const struct experiment_result *e = results_find(r, id);

	return e && e->status == EXP_OK ? e : 0;
}

void yours_against_of(const struct run_result *r,
		      const struct experiment_result *e,
		      struct yours_against *out)
{
	struct row_id id = e->id;

	id.variant = VARIANT_ABSENT;
	out->direct = ok_row(r, &id);
	id.scheme = SCHEME_GATE;
	out->gate = ok_row(r, &id);
	id = e->id;
	id.variant = VARIANT_LINUX;
	out->linux_set = ok_row(r, &id);
	out->first = 0;
	if (yours_file_count && e->id.variant != yours_files[0].variant) {
		id.variant = yours_files[0].variant;
		out->first = ok_row(r, &id);
	}
}

/* The next of one file's rows from *i on, in the order they ran, or
 * NULL past the last; *i is then past it. */
static const struct experiment_result *
next_row_of(const struct run_result *r, const struct yours_file *f,
	    uint32_t *i)
{
	for (; *i < r->n_experiments; (*i)++)
		if (r->exp[*i].id.variant == f->variant)
			return &r->exp[(*i)++];
	return 0;
}

static void json_against(struct json_writer *w, const char *key,
			 const struct run_result *r,
			 const struct experiment_result *e,
			 const struct experiment_result *base)
{
	json_key(w, key);
	if (!base || e->status != EXP_OK) {
		json_null(w);
		return;
	}
	json_begin_object(w);
	json_kv_string(w, "row", base->name);
	json_overs(w, r, e, base);
	json_end_object(w);
}

void yours_json(struct json_writer *w, const struct run_result *r)
{
	size_t f;
	uint32_t i;

	json_key(w, "yours");
	json_begin_array(w);
	for (f = 0; f < yours_file_count; f++) {
		const struct yours_file *y = &yours_files[f];
		const char *name = variant_name(y->variant);
		const struct experiment_result *e;

		json_begin_object(w);
		json_kv_string(w, "name", name + sizeof("yours-") - 1);
		json_kv_string(w, "variant", name);
		json_kv_string(w, "words", variant_words(y->variant));
		json_kv_string(w, "file", y->file);
		json_kv_string(w, "sha256", y->sha256);
		/* What an instruction-counting clock must measure of each
		 * part (docs/your-entry.md "In the results"). */
		json_key(w, "listing_instructions");
		json_begin_object(w);
		json_kv_uint(w, "entry", y->entry_instructions);
		json_kv_uint(w, "exit", y->exit_instructions);
		json_end_object(w);
		json_kv_string(w, "unit", lead_unit(r));
		json_key(w, "rows");
		json_begin_array(w);
		i = 0;
		while ((e = next_row_of(r, y, &i))) {
			struct yours_against a;
			unsigned k;

			yours_against_of(r, e, &a);
			json_begin_object(w);
			json_kv_string(w, "experiment", e->name);
			json_status(w, e->status, e->reason);
			for (k = 0; k < METRIC_COUNT && e->status == EXP_OK;
			     k++) {
				char key[32];

				fmt_snprintf(key, sizeof(key), "%s_median",
					     metric_name(k));
				/* null where the lead clock lacks it */
				json_kv_figure(w, key, lead_median(r, e, k));
			}
			json_against(w, "over_direct", r, e, a.direct);
			json_against(w, "over_gate", r, e, a.gate);
			json_against(w, "over_linux", r, e, a.linux_set);
			json_against(w, "over_first", r, e, a.first);
			json_end_object(w);
		}
		json_end_array(w);
		json_end_object(w);
	}
	json_end_array(w);
}

/* "+N" of e over base in the lead figures, or "-". */
static void over_cell(char *out, size_t cap, const struct run_result *r,
		      const struct experiment_result *e,
		      const struct experiment_result *base, unsigned k)
{
	summary_figure(out, cap,
		       base ? lead_median_over(r, e, base, k) : INT64_MIN, 1);
}

static const unsigned three_metrics[3] = { METRIC_ENTRY, METRIC_EXIT,
					   METRIC_ROUND_TRIP };

/* Entry, exit and round trip of e over base, three cells. */
static void over_cells(struct text_buf *tb, const struct run_result *r,
		       const struct experiment_result *e,
		       const struct experiment_result *base)
{
	unsigned k;

	for (k = 0; k < 3; k++) {
		char cell[24];

		over_cell(cell, sizeof(cell), r, e, base, three_metrics[k]);
		tb_printf(tb, " %6s", cell);
	}
	tb_printf(tb, " ");
}

/* The row column's width in a file's table: its longest row name, so
 * that every figure stands under its head. */
static int name_width(const struct run_result *r, const struct yours_file *f)
{
	const struct experiment_result *e;
	size_t width = sizeof("row") - 1;
	uint32_t i = 0;

	while ((e = next_row_of(r, f, &i))) {
		size_t n = 0;

		while (n < sizeof(e->name) && e->name[n])
			n++;
		if (n > width)
			width = n;
	}
	return (int)width;
}

void yours_summary(struct text_buf *tb, const struct run_result *r)
{
	size_t f;
	uint32_t i;
	int width;

	if (!yours_file_count)
		return;
	tb_printf(tb, "\nYour entry code (docs/your-entry.md), in %s: "
		  "medians net of the floor, then each\nover the same "
		  "source's direct row, the gate's floor there, Linux's set "
		  "(INT n) and the\nfirst file (entry, exit, round trip; + "
		  "is slower)\n", lead_unit(r));
	for (f = 0; f < yours_file_count; f++) {
		const struct yours_file *y = &yours_files[f];
		const struct experiment_result *e;

		tb_printf(tb, "\nyours: %s  %s  sha256 %s\n  \"%s\"\n  "
			  "listing: entry part %u, exit part %u "
			  "instructions\n",
			  variant_name(y->variant) + sizeof("yours-") - 1,
			  y->file, y->sha256, variant_words(y->variant),
			  y->entry_instructions, y->exit_instructions);
		width = name_width(r, y);
		tb_printf(tb, "  %-*s %6s %6s %6s  %-20s  %-20s  %-20s  "
			  "%s\n", width, "row", "entry", "exit", "round",
			  "over direct", "over the gate", "over linux",
			  "over the first");
		i = 0;
		while ((e = next_row_of(r, y, &i))) {
			struct yours_against a;
			unsigned k;

			if (e->status != EXP_OK) {
				tb_printf(tb, "  %-*s %s: %s\n", width, e->name,
					  exp_status_name(e->status),
					  e->reason);
				continue;
			}
			yours_against_of(r, e, &a);
			tb_printf(tb, "  %-*s", width, e->name);
			for (k = 0; k < 3; k++) {
				char cell[24];

				summary_figure(cell, sizeof(cell),
					       lead_median(r, e,
							   three_metrics[k]),
					       0);
				tb_printf(tb, " %6s", cell);
			}
			tb_printf(tb, " ");
			over_cells(tb, r, e, a.direct);
			over_cells(tb, r, e, a.gate);
			over_cells(tb, r, e, a.linux_set);
			over_cells(tb, r, e, a.first);
			tb_printf(tb, "\n");
		}
	}
	/* A blank line before the next table's head (summary_rows'). */
	tb_printf(tb, "\n");
}
