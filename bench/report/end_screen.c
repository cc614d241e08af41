/* The end screen: one page at the machine, within 80 x 25. */
#include "bench/report/end_screen.h"

#include "bench/model/row_counts.h"
#include "bench/model/yours.h"
#include "bench/report/lead_figures.h"
#include "bench/report/row_counts.h"

/* "machine  ": the labels' column, and the width left beside it. */
#define LABEL_COLS 9
#define TEXT_COLS (END_SCREEN_COLS - LABEL_COLS)
/* The scheme table's columns: the scheme, then INT n and the two
 * self-IPIs, each a round trip and its overhead. */
#define SCHEME_COLS 13
#define CELL_COLS 21

/* The three sources the page shows each scheme on: INT n, and a self-IPI
 * through each APIC mode (the x2APIC one through its SELF_IPI register). */
static const struct {
	uint8_t source;
	const char *title;
} columns[] = {
	{ SOURCE_INT, "INT n" },
	{ SOURCE_IPI_SELF_XAPIC, "xAPIC self-IPI" },
	{ SOURCE_IPI_SELF_X2APIC_SELFIPI, "x2APIC self-IPI" },
};
#define COLUMNS (sizeof(columns) / sizeof(columns[0]))

/* The lines written into tb since it held `start` characters. */
static unsigned lines_since(const struct text_buf *tb, size_t start)
{
	unsigned n = 0;
	size_t i;

	for (i = start; i < tb->len; i++)
		n += tb->data[i] == '\n';
	return n;
}

/* `label` and `text`, the text wrapped at blanks within the page's width
 * and its later lines under its first, never cut. Returns the lines. */
static unsigned labelled(struct text_buf *tb, const char *label,
			 const char *text)
{
	unsigned lines = 0;
	const char *p = text;

	while (*p) {
		size_t n = 0, cut;

		while (p[n] && n <= TEXT_COLS)
			n++;
		cut = n;
		if (n > TEXT_COLS) {
			/* the last blank that leaves the line within the
			 * width; a word longer than a line is split */
			for (cut = TEXT_COLS; cut > 0 && p[cut] != ' '; cut--)
				;
			if (!cut)
				cut = TEXT_COLS;
		}
		tb_printf(tb, "%-*s%.*s\n", LABEL_COLS, lines ? "" : label,
			  (int)cut, p);
		lines++;
		p += cut;
		while (*p == ' ')
			p++;
	}
	return lines;
}

/* A row's round trip for the end screen: the median net of the floor,
 * in the figures the report leads with (core cycles where the counters
 * measured them), with its overhead against the same source's direct
 * row, or the status when it did not end ok. The plain row, or a file of
 * yours (`variant`): not the x2APIC pass of a source measured in both
 * modes, not a self-test. Returns whether the row ran ok. */
static int end_screen_cell(char *out, size_t cap, const struct run_result *r,
			   enum source_id source, enum scheme_id scheme,
			   uint8_t variant)
{
	const struct row_id plain = { .source = source, .scheme = scheme,
				      .variant = variant };
	const struct row_id floor = { .source = source,
				      .scheme = scheme_floor(CPU_MODE_LONG) };
	const struct experiment_result *e = results_find(r, &plain);
	const struct experiment_result *direct = results_find(r, &floor);

	if (!e) {
		fmt_snprintf(out, cap, "-");
	} else if (e->status != EXP_OK) {
		fmt_snprintf(out, cap, "%s", exp_status_name(e->status));
	} else {
		int64_t rt = lead_median(r, e, METRIC_ROUND_TRIP);
		int64_t more = direct && direct != e && direct->status == EXP_OK
				       ? lead_median_over(r, e, direct,
							  METRIC_ROUND_TRIP)
				       : INT64_MIN;

		if (rt == INT64_MIN)
			fmt_snprintf(out, cap, "-");
		else if (more != INT64_MIN)
			fmt_snprintf(out, cap, "%lld (%+lld)", (long long)rt,
				     (long long)more);
		else
			fmt_snprintf(out, cap, "%lld", (long long)rt);
		return 1;
	}
	return 0;
}

/* Whether the scheme has a figure or a failure to show on any of the
 * page's sources; a scheme every source skipped or never ran is only
 * named. */
static int scheme_shown(const struct run_result *r, enum scheme_id scheme)
{
	unsigned k;

	for (k = 0; k < COLUMNS; k++) {
		const struct row_id id = { .source = columns[k].source,
					   .scheme = scheme };
		const struct experiment_result *e = results_find(r, &id);

		if (e && e->status != EXP_SKIPPED)
			return 1;
	}
	return 0;
}

/* A line of the table: `label`, then the row's cell on each source. */
static void table_line(struct text_buf *tb, const struct run_result *r,
		       const char *label, enum scheme_id scheme,
		       uint8_t variant)
{
	char cell[COLUMNS][32];
	unsigned k;

	for (k = 0; k < COLUMNS; k++)
		end_screen_cell(cell[k], sizeof(cell[k]), r,
				(enum source_id)columns[k].source, scheme,
				variant);
	tb_printf(tb, "%-*.*s %-*.*s %-*.*s %.*s\n", SCHEME_COLS, SCHEME_COLS,
		  label, CELL_COLS, CELL_COLS, cell[0], CELL_COLS, CELL_COLS,
		  cell[1], CELL_COLS, cell[2]);
}

static void scheme_line(struct text_buf *tb, const struct run_result *r,
			enum scheme_id scheme)
{
	table_line(tb, r, scheme_name(scheme), scheme, VARIANT_ABSENT);
}

/* Your entry code first (docs/your-entry.md), what the run was made
 * for, in at most `room` lines: a blank and the block's title, "yours:"
 * and each file's number and name, the table's head, and a line per
 * file, "yours K", of its round trips over direct on the table's
 * sources. Where the files do not all fit, the last line says how many
 * more summary.txt has; where not even one fits, one line names them. */
static void yours_block(struct text_buf *tb, const struct run_result *r,
			unsigned room)
{
	char names[320], label[16], scratch[640];
	struct text_buf names_tb, scratch_tb;
	unsigned fixed, fit, f;

	if (!yours_file_count)
		return;
	tb_init(&names_tb, names, sizeof(names));
	for (f = 0; f < yours_file_count; f++)
		tb_printf(&names_tb, "%s%u %s", f ? "  " : "", f + 1,
			  variant_name(yours_files[f].variant) +
				  sizeof("yours-") - 1);
	tb_init(&scratch_tb, scratch, sizeof(scratch));
	fixed = 3 + labelled(&scratch_tb, "yours:", names);
	fit = room > fixed ? room - fixed : 0;
	if (fit < yours_file_count && fit >= 2)
		fit--;	/* the "more" line */
	else if (fit < yours_file_count)
		fit = 0;
	if (!fit) {
		if (room && names_tb.len + sizeof(" (summary.txt)") <= TEXT_COLS)
			tb_printf(tb, "%-*s%s (summary.txt)\n", LABEL_COLS,
				  "yours:", names);
		else if (room)
			tb_printf(tb, "%-*s%u files: summary.txt\n", LABEL_COLS,
				  "yours:", (unsigned)yours_file_count);
		return;
	}
	tb_printf(tb, "\nyour entry code: round trip, median, net of the "
		  "floor (+ over direct)\n");
	tb_puts(tb, scratch);
	tb_printf(tb, "%-*s %-*s %-*s %s\n", SCHEME_COLS, "", CELL_COLS,
		  columns[0].title, CELL_COLS, columns[1].title,
		  columns[2].title);
	for (f = 0; f < fit && f < yours_file_count; f++) {
		fmt_snprintf(label, sizeof(label), "yours %u", f + 1);
		table_line(tb, r, label, scheme_floor(CPU_MODE_LONG),
			   yours_files[f].variant);
	}
	if (f < yours_file_count)
		tb_printf(tb, "%-*s%u more file(s) of yours: summary.txt\n",
			  LABEL_COLS, "...", (unsigned)(yours_file_count - f));
}

/* The page's head: the run (and its parts), what of the plan it lacks,
 * the machine, the clock and its unit, the counts of rows (the i386 rows
 * among them, measured against i386-direct in a table of their own in
 * summary.txt), and the config's ignored lines. */
static void end_screen_head(struct text_buf *tb, const struct run_result *r)
{
	struct row_counts c;
	char name[32], text[320];
	unsigned k;

	row_counts_of(r, &c);
	run_folder_name(r->run_id, name, sizeof(name));
	tb_printf(tb, "irqlab: run %s done", name);
	if (c.parts > 1)
		tb_printf(tb, ", measured in %u parts, a reset apart", c.parts);
	if (config_hands_over_serial(&r->config))
		tb_printf(tb, ", handed over on serial (handoff = serial)");
	tb_putc(tb, '\n');
	/* Where no one can miss it: what of the plan is in no file. */
	for (k = 0; k < ROW_NOTICES; k++)
		if (row_counts_notice(r, k, 1, text, sizeof(text)))
			labelled(tb, "MISSING", text);
	if (r->machine.system_vendor[0] || r->machine.system_product[0])
		fmt_snprintf(text, sizeof(text), "%s%s%s",
			     r->machine.system_vendor,
			     r->machine.system_vendor[0] &&
					     r->machine.system_product[0]
				     ? " " : "",
			     r->machine.system_product);
	else
		fmt_snprintf(text, sizeof(text), "(no SMBIOS system vendor or "
			     "product: the firmware names none)");
	labelled(tb, "machine", text);
	labelled(tb, "cpu", r->machine.brand[0] ? r->machine.brand
						 : r->machine.cpu_vendor);
	fmt_snprintf(text, sizeof(text), "%s: %s",
		     clock_kind_name(r->clock_kind), lead_short_unit(r));
	labelled(tb, "clock", text);
	row_counts_sentence(&c, text, sizeof(text));
	labelled(tb, "rows", text);
	/* The config's ignored lines, where they cannot be missed: the
	 * first, and where to read them all. */
	if (r->config_warnings[0])
		tb_printf(tb, "WARNING  config: %.54s%s\n", r->config_warnings,
			  r->config_warnings[54] ? "... (summary.txt)" : "");
}

/* The lines below the schemes: those only named, and where the files
 * are. */
static void end_screen_tail(struct text_buf *tb, const struct run_result *r,
			    const char *folder, const char *skipped)
{
	if (skipped[0])
		labelled(tb, "skipped", skipped);
	if (!folder && config_hands_over_serial(&r->config))
		tb_printf(tb, "results  on serial only, as one blob: irqlab-rescue "
			  "--blob on the serial log\n         writes the files. "
			  "Nothing was written to the variable store.\n");
	else if (!folder)
		tb_printf(tb, "results  NOT kept: the variable store did not "
			  "take them. This page and\n         the serial port "
			  "(COM1) are all there is of this run.\n");
	else
		tb_printf(tb, "results  %.40s\\ (every row: summary.txt)\n",
			  folder);
}

void report_end_screen(struct text_buf *tb, const struct run_result *r,
		       const char *folder)
{
	uint8_t shown[SCHEME_COUNT];
	char skipped[200], tail[640];
	struct text_buf skipped_tb, tail_tb;
	size_t start = tb->len;
	uint32_t i, n = 0;
	unsigned used, room, head_lines;

	tb_init(&skipped_tb, skipped, sizeof(skipped));
	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];

		/* Long mode's schemes under INT n, on the boot CPU, once. */
		if (e->id.source == SOURCE_INT &&
		    e->id.variant == VARIANT_ABSENT &&
		    e->id.cache == VARIANT_ABSENT &&
		    e->id.selftest == SELFTEST_ABSENT && !e->id.cpu &&
		    !e->id.x2apic_repeat && n < SCHEME_COUNT &&
		    scheme_cpu_mode(e->id.scheme) == CPU_MODE_LONG) {
			if (scheme_shown(r, (enum scheme_id)e->id.scheme))
				shown[n++] = e->id.scheme;
			else
				tb_printf(&skipped_tb, "%s%s",
					  skipped_tb.len ? ", " : "",
					  scheme_name(e->id.scheme));
		}
	}
	if (skipped_tb.len)
		tb_printf(&skipped_tb, ": summary.txt says why");
	tb_init(&tail_tb, tail, sizeof(tail));
	end_screen_tail(&tail_tb, r, folder, skipped);

	end_screen_head(tb, r);
	/* The yours block leaves the schemes their two heads and a line. */
	used = lines_since(tb, start) + 3 + lines_since(&tail_tb, 0);
	head_lines = lines_since(tb, start);
	yours_block(tb, r, used < END_SCREEN_LINES ? END_SCREEN_LINES - used
						   : 0);
	/* The schemes get the lines the page has left, after a blank line
	 * and the table's two heads where it has room for the blank, and
	 * always after a yours block's table, which would run into theirs;
	 * where they do not all fit, the last line says how many more
	 * summary.txt has, and a blank line goes before the tail where
	 * there is room. */
	used = lines_since(tb, start) + 2 + lines_since(&tail_tb, 0);
	room = used < END_SCREEN_LINES ? END_SCREEN_LINES - used : 0;
	if (n < room || (lines_since(tb, start) > head_lines + 1 && room > 1)) {
		tb_putc(tb, '\n');
		room--;
	}
	tb_printf(tb, "round trip, median, net of the floor (+ over direct)\n");
	tb_printf(tb, "%-*s %-*s %-*s %s\n", SCHEME_COLS, "scheme", CELL_COLS,
		  columns[0].title, CELL_COLS, columns[1].title,
		  columns[2].title);
	for (i = 0; i < n && (n <= room || i + 1 < room); i++)
		scheme_line(tb, r, (enum scheme_id)shown[i]);
	if (i < n)
		tb_printf(tb, "%-*s%u more scheme(s): summary.txt\n", LABEL_COLS,
			  "...", n - i);
	if (!n)
		tb_printf(tb, "%-*s(no scheme has a row of these here: "
			  "summary.txt has every row)\n", LABEL_COLS, "-");
	if (n < room)
		tb_putc(tb, '\n');
	tb_puts(tb, tail);
}

int report_headline(struct text_buf *tb, const struct run_result *r,
		    const struct report_context *ctx)
{
	char name[32], folder[64];

	(void)ctx;
	run_folder_name(r->run_id, name, sizeof(name));
	fmt_snprintf(folder, sizeof(folder), "%s\\%s", REPORT_RESULTS_ROOT,
		     name);
	/* A run handed over on serial has no folder on the stick: its page
	 * is phase B's. */
	report_end_screen(tb, r, config_hands_over_serial(&r->config) ? NULL
								      : folder);
	return tb->overflow ? -1 : 0;
}
