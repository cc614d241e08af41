/* The end screen: one page at the machine, within 80 x 25. */
#include "bench/report/end_screen.h"

#include "bench/report/lead_figures.h"

/* A row's round trip for the end screen: the median net of the floor,
 * in the figures the report leads with (core cycles where the counters
 * measured them), with its overhead against the same source's direct
 * row, or the status when it did not end ok. The plain row: no variant, not the x2APIC pass
 * of a source measured in both modes, not a self-test. */
static void end_screen_cell(char *out, size_t cap, const struct run_result *r,
			    enum source_id source, enum scheme_id scheme)
{
	const struct row_id plain = { .source = source, .scheme = scheme };
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
	}
}

void report_end_screen(struct text_buf *tb, const struct run_result *r,
		       const char *folder)
{
	/* The self-IPI the headline shows: the first of these that ran. */
	static const uint8_t ipis[] = { SOURCE_IPI_SELF_XAPIC,
					SOURCE_IPI_SELF_X2APIC_SELFIPI };
	uint8_t schemes[16], ipi = ipis[0];
	uint32_t i, k, n = 0, i386_rows = 0, counts[EXP_STATUS_COUNT] = { 0 };

	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];

		counts[e->status < EXP_STATUS_COUNT ? e->status : EXP_FAILED]++;
		/* Long mode's schemes under INT n: the i386 rows are measured
		 * against i386-direct, in a table of their own (summary.txt). */
		if (e->id.source == SOURCE_INT &&
		    e->id.variant == VARIANT_ABSENT &&
		    e->id.cache == VARIANT_ABSENT &&
		    e->id.selftest == SELFTEST_ABSENT && n < 16 &&
		    scheme_cpu_mode(e->id.scheme) == CPU_MODE_LONG)
			schemes[n++] = e->id.scheme;
		if (scheme_cpu_mode(e->id.scheme) == CPU_MODE_PROTECTED_32)
			i386_rows++;
	}
	for (k = 0; k < sizeof(ipis) / sizeof(ipis[0]); k++) {
		const struct experiment_result *e = NULL;

		for (i = 0; i < r->n_experiments && !e; i++)
			if (r->exp[i].id.source == ipis[k] &&
			    r->exp[i].status == EXP_OK)
				e = &r->exp[i];
		if (e) {
			ipi = ipis[k];
			break;
		}
	}
	char name[32];

	run_folder_name(r->run_id, name, sizeof(name));
	tb_printf(tb, "irqlab: run %s done\n", name);
	tb_printf(tb, "machine  %.35s %.33s\n", r->machine.system_vendor,
		  r->machine.system_product);
	tb_printf(tb, "cpu      %.70s\n", r->machine.brand);
	tb_printf(tb, "clock    %.12s: figures are %.52s\n",
		  clock_kind_name(r->clock_kind), lead_unit(r));
	tb_printf(tb, "rows     %u ok, %u skipped, %u failed\n", counts[EXP_OK],
		  counts[EXP_SKIPPED], counts[EXP_FAILED] + counts[EXP_TIMEOUT]);
	/* The config's ignored lines, where they cannot be missed: the
	 * first, and where to read them all. */
	if (r->config_warnings[0])
		tb_printf(tb, "WARNING  config: %.54s%s\n", r->config_warnings,
			  r->config_warnings[54] ? "... (summary.txt)" : "");
	tb_printf(tb, "\nround trip, median, net of the floor (+ over direct)\n");
	tb_printf(tb, "%-18s %-28s %-.30s\n", "scheme", "INT n", source_name(ipi));
	for (i = 0; i < n && i < END_SCREEN_LINES - 13u - (i386_rows ? 1u : 0u) -
					 (r->config_warnings[0] ? 1u : 0u);
	     i++) {
		char a[32], b[32];

		end_screen_cell(a, sizeof(a), r, SOURCE_INT, schemes[i]);
		end_screen_cell(b, sizeof(b), r, ipi, schemes[i]);
		tb_printf(tb, "%-18.18s %-28.28s %-.30s\n",
			  scheme_name(schemes[i]), a, b);
	}
	if (i386_rows)
		tb_printf(tb, "i386     %u rows in 32-bit protected mode, against "
			  "%s: summary.txt\n", i386_rows,
			  scheme_name(scheme_floor(CPU_MODE_PROTECTED_32)));
	if (!folder) {
		tb_printf(tb, "\nresults  NOT kept: the variable store did not "
			  "take them. This page and\n         the serial port "
			  "(COM1) are all there is of this run.\n");
		return;
	}
	tb_printf(tb, "\nresults  %.60s\\\n", folder);
	tb_printf(tb, "         results.json and summary.txt: every row, "
		  "every figure\n");
}

int report_headline(struct text_buf *tb, const struct run_result *r,
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
