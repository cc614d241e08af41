#include "bench/report/row_counts.h"

/* What each count counts, in the words results.json gives beside it. */
static const struct {
	const char *key, *what;
} row_count_words[] = {
	{ "experiments", "the plan's rows of one scheme, source, entry variant "
	  "or cache state, APIC mode and processor, i386 and self-test rows "
	  "included: the rows of \"experiments\", and the count the headline "
	  "and the report lead with" },
	{ "gap_rows", "the gap method's rows, one a scheme (seed 000): rows of "
	  "the plan too, in \"gap_method\"" },
	{ "primitives", "the blocks timed after the plan's rows, seed 004's "
	  "IO-APIC sequences among them: no rows of the plan, in "
	  "\"primitives\"" },
	{ "between_cpus", "the section between CPUs (docs/cross-cpu.md), timed "
	  "after the primitives: no rows of the plan, in \"cross_cpu\"" },
	{ "failed", "a timeout counts as failed" },
	{ "i386_rows", "experiment rows in 32-bit protected mode, measured "
	  "against i386-direct in a table of their own" },
	{ "plan_rows", "the experiment and gap rows the plan had, measured or "
	  "not: phase B's serial line \"plan: N rows\"" },
	{ "plan_steps", "the plan's rows, then the primitives: the steps of "
	  "phase B's progress line (\"step k of N\")" },
	{ "left_out", "rows of the plan this run took up that left no row: "
	  "their APIC mode did not come up, and their source said so; or "
	  "the results table was full: the log names the first, and the run "
	  "stopped there" },
};

static void json_status_counts(struct json_writer *w, const char *key,
			       const struct status_counts *s)
{
	json_key(w, key);
	json_begin_object(w);
	json_kv_uint(w, "ok", s->ok);
	json_kv_uint(w, "skipped", s->skipped);
	json_kv_uint(w, "failed", s->failed);
	json_kv_uint(w, "total", status_counts_total(s));
	json_end_object(w);
}

int row_counts_notice(const struct run_result *r, unsigned k, int short_form,
		      char *out, size_t cap)
{
	/* start_row began the plan there, in a run of one part; else the
	 * part's earlier parts were not joined into it. */
	int by_start_row = r->part <= 1 && r->config.start_row == r->first_row;

	if (k == 0 && r->next_row) {
		fmt_snprintf(out, cap, short_form ?
			     "plan rows from %u on: never measured (later parts "
			     "never ran)" :
			     "the run stopped at plan row %u: that row and "
			     "every later one were never measured (the run's "
			     "later parts never ran), and no file of this run "
			     "has them", r->next_row);
		return 1;
	}
	if (k == 1 && r->first_row) {
		if (by_start_row)
			fmt_snprintf(out, cap, short_form ?
				     "plan rows before %u: not measured "
				     "(start_row = %u)" :
				     "the plan was begun at row %u (start_row = "
				     "%u): its rows before that were not "
				     "measured in this run", r->first_row,
				     r->first_row);
		else if (short_form)
			fmt_snprintf(out, cap, "plan rows before %u: earlier "
				     "parts not joined (part %u alone)",
				     r->first_row, r->part);
		else
			fmt_snprintf(out, cap, "these files hold part %u "
				     "alone: the plan's rows before %u, measured "
				     "in its earlier parts, could not be joined",
				     r->part, r->first_row);
		return 1;
	}
	return 0;
}

void row_counts_json(struct json_writer *w, const struct run_result *r)
{
	struct row_counts c;
	char text[RESULTS_REASON_LEN * 2];
	size_t i;
	unsigned k;

	row_counts_of(r, &c);
	json_key(w, "row_counts");
	json_begin_object(w);
	json_status_counts(w, "experiments", &c.experiments);
	json_status_counts(w, "gap_rows", &c.gap_rows);
	json_status_counts(w, "primitives", &c.primitives);
	json_status_counts(w, "between_cpus", &c.between_cpus);
	json_kv_uint(w, "i386_rows", c.i386_rows);
	json_kv_uint_or_null(w, "plan_rows", c.plan_rows);
	json_kv_uint_or_null(w, "plan_steps", c.plan_steps);
	json_kv_uint(w, "left_out", c.left_out);
	json_kv_uint(w, "first_row", c.first_row);
	json_kv_uint_or_null(w, "unmeasured_from_row", c.unmeasured_from_row);
	json_kv_uint(w, "parts", c.parts);
	/* What of the plan no file of this run has: every file says it
	 * first (docs/reading.md "Reading the results"). */
	json_key(w, "missing");
	json_begin_array(w);
	for (k = 0; k < ROW_NOTICES; k++)
		if (row_counts_notice(r, k, 0, text, sizeof(text)))
			json_string(w, text);
	json_end_array(w);
	json_key(w, "what");
	json_begin_object(w);
	for (i = 0; i < sizeof(row_count_words) / sizeof(row_count_words[0]);
	     i++)
		json_kv_string(w, row_count_words[i].key,
			       row_count_words[i].what);
	json_end_object(w);
	json_end_object(w);
}

/* "8 ok, 4 skipped" and ", N failed" where any failed. */
static void status_words(struct text_buf *tb, const struct status_counts *s,
			 int always_failed)
{
	tb_printf(tb, "%u ok, %u skipped", s->ok, s->skipped);
	if (s->failed || always_failed)
		tb_printf(tb, ", %u failed", s->failed);
}

void row_counts_sentence(const struct row_counts *c, char *out, size_t cap)
{
	struct text_buf tb;

	tb_init(&tb, out, cap);
	status_words(&tb, &c->experiments, 1);
	tb_printf(&tb, " of %u experiment rows",
		  status_counts_total(&c->experiments));
	if (c->i386_rows)
		tb_printf(&tb, " (%u in i386 mode)", c->i386_rows);
	if (status_counts_total(&c->gap_rows)) {
		tb_printf(&tb, "; gap rows ");
		status_words(&tb, &c->gap_rows, 0);
	}
	if (status_counts_total(&c->primitives)) {
		tb_printf(&tb, "; primitives ");
		status_words(&tb, &c->primitives, 0);
	}
	/* A machine of one processor has one skipped row between CPUs,
	 * saying so: summary.txt has it. */
	if (c->between_cpus.ok || c->between_cpus.failed) {
		tb_printf(&tb, "; between CPUs ");
		status_words(&tb, &c->between_cpus, 0);
	}
	if (c->plan_rows)
		tb_printf(&tb, "; plan: %u rows", c->plan_rows);
	if (c->left_out)
		tb_printf(&tb, ", %u left out", c->left_out);
}

/* One kind's line of summary.txt's "Rows". */
static void summary_kind(struct text_buf *tb, const char *label,
			 const struct status_counts *s)
{
	tb_printf(tb, "  %-16s %4u: ", label, status_counts_total(s));
	status_words(tb, s, 1);
	tb_putc(tb, '\n');
}

void row_counts_summary(struct text_buf *tb, const struct run_result *r)
{
	struct row_counts c;

	row_counts_of(r, &c);
	tb_printf(tb, "Rows, each kind counted on its own (a timeout counts as "
		  "failed):\n");
	summary_kind(tb, "experiment rows", &c.experiments);
	if (c.i386_rows)
		tb_printf(tb, "  %-16s %4u of them in 32-bit protected mode, "
			  "against i386-direct (their own table, below)\n",
			  "i386 rows", c.i386_rows);
	summary_kind(tb, "gap rows", &c.gap_rows);
	summary_kind(tb, "primitives", &c.primitives);
	if (status_counts_total(&c.between_cpus))
		summary_kind(tb, "between CPUs", &c.between_cpus);
	if (c.plan_rows)
		tb_printf(tb, "  %-16s %4u rows: its experiment and gap rows, "
			  "measured or not (phase B's \"plan: %u rows\")\n"
			  "  %-16s %4u: the plan's rows, then the primitives "
			  "(phase B's \"step k of %u\")\n", "the plan",
			  c.plan_rows, c.plan_rows, "steps", c.plan_steps,
			  c.plan_steps);
	if (c.left_out)
		tb_printf(tb, "  %-16s %4u plan rows that left no row: their "
			  "APIC mode did not come up, and their source said "
			  "so;\n%-19sor the results table was full: the log "
			  "names the first, and the run stopped there\n",
			  "left out", c.left_out, "");
	if (c.parts > 1)
		tb_printf(tb, "  %-16s %4u, a reset apart%s\n", "parts", c.parts,
			  r->first_row ? "" : ", joined into these files");
	tb_putc(tb, '\n');
}
