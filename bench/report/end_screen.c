/* The end screen: one page at the machine, within 80 x 25. */
#include "bench/report/report.h"

#include "bench/model/catalog.h"

static int str_has(const char *s, char c)
{
	for (; *s; s++)
		if (*s == c)
			return 1;
	return 0;
}

/* A row's round trip for the end screen: the median net of the floor,
 * with its overhead against the same source's direct row, or the status
 * when it did not end ok. */
static void end_screen_cell(char *out, size_t cap, const struct run_result *r,
			    const char *source, const char *scheme)
{
	const struct experiment_result *e = NULL, *direct = NULL;
	uint32_t i;

	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *x = &r->exp[i];

		/* the plain row, not a variant's nor a repeat in another
		 * APIC mode ("name@x2apic") */
		if (!str_eq(x->source, source) || x->variant[0] ||
		    str_has(x->name, '@'))
			continue;
		if (str_eq(x->scheme, scheme))
			e = x;
		if (str_eq(x->scheme, "direct"))
			direct = x;
	}
	if (!e) {
		fmt_snprintf(out, cap, "-");
	} else if (e->status != EXP_OK) {
		fmt_snprintf(out, cap, "%s", exp_status_name(e->status));
	} else {
		int64_t rt = net_of_floor(e->metric[METRIC_ROUND_TRIP].median,
					  r->floor.min);

		if (direct && direct != e && direct->status == EXP_OK)
			fmt_snprintf(out, cap, "%lld (%+lld)", (long long)rt,
				     (long long)(rt - net_of_floor(
					     direct->metric[METRIC_ROUND_TRIP].median,
					     r->floor.min)));
		else
			fmt_snprintf(out, cap, "%lld", (long long)rt);
	}
}

void report_end_screen(struct text_buf *tb, const struct run_result *r,
		       const char *folder)
{
	/* The self-IPI the headline shows: the first of these that ran. */
	static const char *const ipis[] = { "ipi-self-xapic",
					    "ipi-self-x2apic-selfipi" };
	const char *schemes[16], *ipi = ipis[0];
	uint32_t i, k, n = 0, i386_rows = 0, counts[EXP_STATUS_COUNT] = { 0 };

	for (i = 0; i < r->n_experiments; i++) {
		const struct experiment_result *e = &r->exp[i];

		counts[e->status < EXP_STATUS_COUNT ? e->status : EXP_FAILED]++;
		/* Long mode's schemes: the i386 rows are measured against
		 * i386-direct, in a table of their own (summary.txt). */
		if (str_eq(e->source, "int") && !e->variant[0] && n < 16 &&
		    str_eq(catalog_cpu_mode(e->scheme), "long"))
			schemes[n++] = e->scheme;
		if (str_eq(catalog_cpu_mode(e->scheme), "protected-32"))
			i386_rows++;
	}
	for (k = 0; k < sizeof(ipis) / sizeof(ipis[0]); k++) {
		const struct experiment_result *e = NULL;

		for (i = 0; i < r->n_experiments && !e; i++)
			if (str_eq(r->exp[i].source, ipis[k]) &&
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
		  clock_kind_name(r->clock_kind), clock_kind_unit(r->clock_kind));
	tb_printf(tb, "rows     %u ok, %u skipped, %u failed\n", counts[EXP_OK],
		  counts[EXP_SKIPPED], counts[EXP_FAILED] + counts[EXP_TIMEOUT]);
	tb_printf(tb, "\nround trip, median, net of the floor (+ over direct)\n");
	tb_printf(tb, "%-18s %-28s %-.30s\n", "scheme", "INT n", ipi);
	for (i = 0; i < n && i < END_SCREEN_LINES - 13 - (i386_rows ? 1 : 0);
	     i++) {
		char a[32], b[32];

		end_screen_cell(a, sizeof(a), r, "int", schemes[i]);
		end_screen_cell(b, sizeof(b), r, ipi, schemes[i]);
		tb_printf(tb, "%-18.18s %-28.28s %-.30s\n", schemes[i], a, b);
	}
	if (i386_rows)
		tb_printf(tb, "i386     %u rows in 32-bit protected mode, against "
			  "i386-direct: summary.txt\n", i386_rows);
	tb_printf(tb, "\nresults  %.60s\\\n", folder);
	tb_printf(tb, "         results.json and summary.txt: every row, "
		  "every figure\n");
}
