/* What the report writers say besides the figures: the one count of rows
 * in every file, the notice of a run whose plan was not measured whole,
 * the end screen's page within 80 columns, a run handed over on serial
 * (handoff = serial), Linux's patched jump sites, the rows between CPUs
 * under an emulator, and the primitives' figure per repetition. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/row_counts.h"
#include "bench/report/report.h"
#include "tests/unit/json_check.h"
#include "tests/unit/sample_run.h"

static char out[512 * 1024];

/* One file of run r written into out by `write`, which must succeed. */
static void written(int (*write)(struct text_buf *tb,
				 const struct run_result *r,
				 const struct report_context *ctx),
		    const struct run_result *r)
{
	struct text_buf tb;

	tb_init(&tb, out, sizeof(out));
	assert_int_equal(write(&tb, r, NULL), 0);
}

/* `text` with the end screen's wrapping undone: a line break and the
 * nine blanks of a continued line read as one blank. */
static const char *unwrapped(const char *text)
{
	static char flat[sizeof(out)];
	size_t i = 0;

	while (*text && i + 1 < sizeof(flat)) {
		if (!strncmp(text, "\n         ", 10)) {
			flat[i++] = ' ';
			text += 10;
			continue;
		}
		flat[i++] = *text++;
	}
	flat[i] = '\0';
	return flat;
}

/* The end screen's page of r: every line within 80 columns and ended by
 * a newline, at most END_SCREEN_LINES of them. */
static void assert_page_fits(const char *page)
{
	const char *line = page;
	unsigned lines = 0;

	assert_true(page[0] && page[strlen(page) - 1] == '\n');
	while (*line) {
		const char *end = strchr(line, '\n');

		assert_non_null(end);
		if (end - line > 80)
			fail_msg("a line of %d columns: %.*s", (int)(end - line),
				 (int)(end - line), line);
		line = end + 1;
		lines++;
	}
	if (lines > END_SCREEN_LINES)
		fail_msg("%u lines:\n%s", lines, page);
}

/* Every long-mode scheme under INT n and the two self-IPIs, round trips
 * 100 + 10 * scheme (+ 1000 on the xAPIC self-IPI, + 2000 on the x2APIC
 * one) over a floor of 20; call16 skipped, as in long mode it is. */
static void every_scheme_run(struct run_result *r)
{
	static const uint8_t sources[] = { SOURCE_INT, SOURCE_IPI_SELF_XAPIC,
					   SOURCE_IPI_SELF_X2APIC_SELFIPI };
	unsigned s, k;

	sample_run(r, 0);
	for (k = 0; k < 3; k++)
		for (s = 0; s < SCHEME_COUNT; s++) {
			struct experiment_result *e;

			if (scheme_cpu_mode(s) != CPU_MODE_LONG)
				continue;
			e = &r->exp[r->n_experiments++];
			*e = (struct experiment_result){
				.id = { .source = sources[k], .scheme = (uint8_t)s },
				.baseline = { .source = sources[k] },
				.status = s == SCHEME_CALL16 ? EXP_SKIPPED : EXP_OK,
			};
			row_name(&e->id, e->name, sizeof(e->name));
			if (e->status != EXP_OK)
				strcpy(e->reason, "not applicable in long mode");
			e->metric[METRIC_ENTRY] = sample_stats(40);
			e->metric[METRIC_EXIT] = sample_stats(40);
			e->metric[METRIC_ROUND_TRIP] = sample_stats(
				120 + 10 * s + 1000 * k - 2);
			e->metric[METRIC_ROUND_TRIP_TIMED] = sample_stats(200);
		}
	/* Rows in 32-bit protected mode, on their own table. */
	for (k = 0; k < 4; k++) {
		struct experiment_result *e = &r->exp[r->n_experiments++];

		*e = r->exp[0];
		e->id.scheme = SCHEME_I386_DIRECT;
		e->id.variant = (uint8_t)(k ? VARIANT_GS_SWAPGS : VARIANT_ABSENT);
		e->id.source = (uint8_t)(k < 2 ? SOURCE_INT : SOURCE_LAPIC_ONESHOT);
		e->baseline = e->id;
		row_name(&e->id, e->name, sizeof(e->name));
	}
	r->plan_rows = (uint16_t)(r->n_experiments + 12);
	/* The shipped config's other kinds of row, as QEMU ends them. */
	r->n_gaps = 12;
	for (k = 8; k < 12; k++)
		r->gap[k].status = EXP_SKIPPED;
	r->n_primitives = 32;
	for (k = 3; k < 32; k++)
		r->prim[k] = r->prim[k % 3];
}

/* Rows of every kind, each count different: 20 experiment rows (15 ok,
 * 5 skipped), 2 gap rows (1 ok, 1 failed), 3 primitives (2 ok, 1
 * skipped), 6 rows between CPUs (1 skipped); a plan of 24 rows, 2 of
 * them left out; in 2 parts. */
static void counted_run(struct run_result *r)
{
	sample_run(r, 20);
	r->n_gaps = 2;
	r->gap[0].status = EXP_OK;
	r->gap[1].status = EXP_TIMEOUT;
	sample_cross(r, 2);
	r->plan_rows = 24;
	r->part = 2;
}

/* One count of rows, defined once: results.json's object, summary.txt's
 * lines and the end screen's sentence give the same numbers, each saying
 * what it counts. */
static void the_counts_of_rows_agree_everywhere(void **state)
{
	static struct run_result r;
	struct row_counts c;
	char steps[64];

	(void)state;
	counted_run(&r);
	row_counts_of(&r, &c);
	assert_int_equal(c.experiments.ok, 15);
	assert_int_equal(c.experiments.skipped, 5);
	assert_int_equal(c.gap_rows.failed, 1);	/* a timeout */
	assert_int_equal(c.primitives.skipped, 1);
	assert_int_equal(status_counts_total(&c.between_cpus), 6);
	assert_int_equal(c.between_cpus.skipped, 1);
	assert_int_equal(c.left_out, 2);
	assert_int_equal(c.plan_steps, 24 + row_counts_primitive_steps());

	written(report_json, &r);
	assert_true(json_is_valid(out));
	assert_non_null(strstr(out, "\"row_counts\": {\n"
				    "    \"experiments\": {\n"
				    "      \"ok\": 15,\n"
				    "      \"skipped\": 5,\n"
				    "      \"failed\": 0,\n"
				    "      \"total\": 20\n"
				    "    },\n"
				    "    \"gap_rows\": {\n"
				    "      \"ok\": 1,\n"
				    "      \"skipped\": 0,\n"
				    "      \"failed\": 1,\n"
				    "      \"total\": 2\n"));
	assert_non_null(strstr(out, "\"plan_rows\": 24,"));
	assert_non_null(strstr(out, "\"left_out\": 2,"));
	assert_non_null(strstr(out, "\"missing\": [],"));
	assert_non_null(strstr(out, "\"plan_rows\": \"the experiment and gap "
				    "rows the plan had, measured or not: phase "
				    "B's serial line \\\"plan: N rows\\\"\""));

	written(report_summary, &r);
	assert_non_null(strstr(out, "Rows, each kind counted on its own (a "
				    "timeout counts as failed):\n"
				    "  experiment rows    20: 15 ok, 5 skipped, 0 failed\n"
				    "  gap rows            2: 1 ok, 0 skipped, 1 failed\n"
				    "  primitives          3: 2 ok, 1 skipped, 0 failed\n"
				    "  between CPUs        6: 5 ok, 1 skipped, 0 failed\n"
				    "  the plan           24 rows: its experiment and "
				    "gap rows, measured or not (phase B's \"plan: 24 "
				    "rows\")\n"));
	snprintf(steps, sizeof(steps), "  steps            %4u: the plan's "
		 "rows, then the primitives", c.plan_steps);
	assert_non_null(strstr(out, steps));
	assert_non_null(strstr(out, "  left out            2 plan rows that "
				    "left no row: their APIC mode did not "
				    "come up, and their source said so;\n"
				    "                   or the results table "
				    "was full: the log names the first, and "
				    "the run stopped there\n"));
	assert_non_null(strstr(out, "  parts               2, a reset apart, "
				    "joined into these files\n"));

	written(report_headline, &r);
	assert_page_fits(out);
	assert_non_null(strstr(unwrapped(out), "\nrows     15 ok, 5 skipped, "
				    "0 failed of 20 experiment rows; gap rows 1 "
				    "ok, 0 skipped, 1 failed; primitives 2 ok, 1 "
				    "skipped; between CPUs 5 ok, 1 skipped; plan: "
				    "24 rows, 2 left out\n"));
	assert_non_null(strstr(out, "irqlab: run 20261130-054701 done, "
				    "measured in 2 parts, a reset apart\n"));
}

/* A run whose later parts never ran says so before anything else: first
 * in summary.txt, in results.json's row_counts, and on the end screen's
 * second line, naming the first plan row not measured. A run begun late
 * by start_row says that too. */
static void a_run_that_ended_early_says_so_first(void **state)
{
	static const char first[] =
		"irqlab results, run 20261130-054701\n\n"
		"NOT ALL MEASURED: the run stopped at plan row 18: that row and "
		"every later one were never measured (the run's later parts "
		"never ran), and no file of this run has them.\n\nRows,";
	static struct run_result r;

	(void)state;
	counted_run(&r);
	r.next_row = 18;
	written(report_summary, &r);
	assert_true(!strncmp(out, first, strlen(first)));
	written(report_json, &r);
	assert_non_null(strstr(out, "\"unmeasured_from_row\": 18,"));
	assert_non_null(strstr(out, "\"missing\": [\n      \"the run stopped "
				    "at plan row 18: that row"));
	written(report_headline, &r);
	assert_page_fits(out);
	assert_non_null(strstr(out, "done, measured in 2 parts, a reset "
				    "apart\nMISSING  plan rows from 18 on: never "
				    "measured (later parts never ran)\nmachine  "));

	/* Begun at plan row 5 by start_row, in one part. */
	counted_run(&r);
	r.part = 1;
	r.first_row = 5;
	r.config.start_row = 5;
	written(report_headline, &r);
	assert_non_null(strstr(out, "\nMISSING  plan rows before 5: not "
				    "measured (start_row = 5)\n"));
	assert_null(strstr(out, "parts"));
	written(report_summary, &r);
	assert_non_null(strstr(out, "\n\nNOT ALL MEASURED: the plan was begun "
				    "at row 5 (start_row = 5)"));
	/* A whole run says nothing of the kind. */
	counted_run(&r);
	written(report_summary, &r);
	assert_null(strstr(out, "NOT ALL MEASURED"));
	written(report_headline, &r);
	assert_null(strstr(out, "MISSING"));
}

/* The end screen (headline.txt) answers for every long-mode scheme on
 * INT n and both self-IPIs, fred-linux beside fred, within 80 columns and
 * 24 lines whatever it must also say: every clock's unit whole, a
 * machine without SMBIOS names, a config warning, a notice of rows never
 * measured. */
static void the_headline_fits_and_cuts_nothing(void **state)
{
	static struct run_result r;
	struct text_buf tb;
	const char *flat;
	unsigned kind;

	(void)state;
	for (kind = 0; kind < CLOCK_KIND_COUNT; kind++) {
		char clock[200];

		every_scheme_run(&r);
		r.clock_kind = (uint8_t)kind;
		r.part = 3;
		r.next_row = 50;
		strcpy(r.config_warnings, "line 7: unknown key 'colour' ignored");
			written(report_headline, &r);
		assert_page_fits(out);
		flat = unwrapped(out);
		snprintf(clock, sizeof(clock), "\nclock    %s: %s\n",
			 clock_kind_name(kind), clock_kind_short_unit(kind));
		if (!strstr(flat, clock))
			fail_msg("no whole unit line %s in\n%s", clock, out);
		assert_non_null(strstr(out, "machine  (no SMBIOS system vendor "
					    "or product: the firmware names "
					    "none)\n"));
		assert_non_null(strstr(out, "scheme        INT n                 "
					    "xAPIC self-IPI        x2APIC "
					    "self-IPI\n"));
		/* floor 20: direct 100, fred-linux 100 + 10 * its id */
		assert_non_null(strstr(out, "\ndirect        100                   "
					    "1100                  2100\n"));
		snprintf(clock, sizeof(clock), "\nfred-linux    %d (+%d)",
			 100 + 10 * SCHEME_FRED_LINUX, 10 * SCHEME_FRED_LINUX);
		assert_non_null(strstr(out, clock));
		assert_non_null(strstr(out, "\nfred          "));
		assert_non_null(strstr(out, "\nskipped  call16: summary.txt says "
					    "why\n"));
		assert_null(strstr(out, "more scheme(s)"));
		assert_non_null(strstr(out, "measured in 3 parts"));
		assert_non_null(strstr(out, "\nWARNING  config: line 7"));
		assert_non_null(strstr(out, "\nresults  \\EFI\\irqlab\\results\\"
					    "20261130-054701\\ (every row: "
					    "summary.txt)\n"));
	}
	/* The emulator-coarse unit, said short, still says what it is. */
	assert_non_null(strstr(clock_kind_short_unit(CLOCK_EMULATOR_COARSE),
			       "never cycles"));
	/* A machine SMBIOS names. */
	strcpy(r.machine.system_vendor, "QEMU");
	strcpy(r.machine.system_product, "Standard PC (Q35 + ICH9, 2009)");
	tb_init(&tb, out, sizeof(out));
	report_end_screen(&tb, &r, "\\EFI\\irqlab\\results\\x");
	assert_non_null(strstr(out, "\nmachine  QEMU Standard PC (Q35 + ICH9, "
				    "2009)\n"));
	/* Where the page runs out of lines, the last scheme line says how
	 * many more summary.txt has. */
	strcpy(r.config_warnings, "");
	r.first_row = 3;
	r.clock_kind = CLOCK_EMULATOR_COARSE;
	sample_cross(&r, 2);
	r.n_gaps = 2;
	r.gap[1].status = EXP_FAILED;
	r.prim[0].status = EXP_FAILED;
	tb_init(&tb, out, sizeof(out));
	report_end_screen(&tb, &r, NULL);
	assert_page_fits(out);
	assert_non_null(strstr(out, "more scheme(s): summary.txt\n"));
	assert_non_null(strstr(out, "results  NOT kept"));
}

/* handoff = serial (docs/run.md "Firmware that cannot keep results"):
 * phase B's page and headline.txt are one page, which names COM1 and
 * irqlab-rescue --blob and no folder on the stick; summary.txt and
 * results.json say the results came over serial. A run handed over in
 * variables says none of it. */
static void a_serial_handoff_says_so_everywhere(void **state)
{
	static struct run_result r;
	static char page[8192];
	struct text_buf tb;

	(void)state;
	every_scheme_run(&r);
	r.config.handoff = HANDOFF_BY_SERIAL;
	r.boot_return = BOOT_RETURN_NOT_ASKED;
	tb_init(&tb, page, sizeof(page));
	report_end_screen(&tb, &r, NULL);
	assert_page_fits(page);
	assert_non_null(strstr(page, " done, handed over on serial (handoff = "
				     "serial)\n"));
	assert_non_null(strstr(unwrapped(page), "\nresults  on serial only, as "
						"one blob: irqlab-rescue --blob "
						"on the serial log writes the "
						"files."));
	assert_null(strstr(page, "NOT kept"));
	written(report_headline, &r);
	assert_string_equal(out, page);
	assert_null(strstr(out, "\\EFI\\irqlab\\results"));
	written(report_summary, &r);
	assert_non_null(strstr(out, "\n\nHanded over on serial (handoff = "
				    "serial): the whole run in one blob"));
	assert_non_null(strstr(out, "BootNext was not set: with handoff = "
				    "serial"));
	written(report_json, &r);
	assert_true(json_is_valid(out));
	assert_non_null(strstr(out, "\"route\": \"serial\""));
	assert_non_null(strstr(out, "\"how\": \"not-asked\""));

	r.config.handoff = HANDOFF_BY_VARIABLES;
	r.boot_return = BOOT_RETURN_BOOT_NEXT;
	written(report_headline, &r);
	assert_null(strstr(out, "COM1"));
	assert_non_null(strstr(out, "\nresults  \\EFI\\irqlab\\results\\"));
	written(report_summary, &r);
	assert_null(strstr(out, "Handed over on serial"));
	written(report_json, &r);
	assert_non_null(strstr(out, "\"route\": \"variables\""));
	/* The store refused them: phase B's page says so, not COM1 alone. */
	tb_init(&tb, page, sizeof(page));
	report_end_screen(&tb, &r, NULL);
	assert_non_null(strstr(page, "results  NOT kept"));
}

/* A linux row and its baseline, gs-swapgs, on INT n, the linux row
 * 5 / 4 / 9 over it; and a verw row. */
static void linux_rows(struct run_result *r, const char *vendor,
		       uint32_t family, uint32_t model)
{
	struct experiment_result *base, *e;
	unsigned k;

	sample_run(r, 1);
	strcpy(r->machine.cpu_vendor, vendor);
	r->machine.family = family;
	r->machine.model = model;
	r->machine.mitigation.leaf7_ebx = 1u | (1u << 20);	/* FSGSBASE, SMAP */
	r->clock_kind = CLOCK_TSC_TICKS;
	base = &r->exp[r->n_experiments++];
	*base = r->exp[0];
	base->id.variant = VARIANT_GS_SWAPGS;
	base->baseline = r->exp[0].id;
	row_name(&base->id, base->name, sizeof(base->name));
	e = &r->exp[r->n_experiments++];
	*e = *base;
	e->id.variant = VARIANT_LINUX;
	e->baseline = base->id;
	row_name(&e->id, e->name, sizeof(e->name));
	for (k = 0; k < METRIC_COUNT; k++)
		e->metric[k].median = base->metric[k].median + (k == 0 ? 5 :
								 k == 1 ? 4 : 9);
	/* A sequence of the mitigations' table, which the section heads. */
	e = &r->exp[r->n_experiments++];
	*e = *base;
	e->id.variant = VARIANT_VERW;
	e->baseline = r->exp[0].id;
	row_name(&e->id, e->name, sizeof(e->name));
}

/* docs/mitigations.md: where every decision is off (QEMU's TCG max, an
 * AMD part Linux takes nothing on), the linux row is its patched jump
 * sites alone, and the reports say "sites only" and give the sites' cost
 * on a line of its own; where steps are on, the sites line says what of
 * the total they are. */
static void linux_sites_only_when_nothing_is_taken(void **state)
{
	static struct run_result r;

	(void)state;
	linux_rows(&r, "AuthenticAMD", 6, 6);
	written(report_summary, &r);
	assert_non_null(strstr(out, "Linux on this CPU (none: sites only): +5 "
				    "entry, +4 exit, +9 round trip over swapgs "
				    "alone\n  sites only: every decision is off, "
				    "so this is the cost of the 9 patched jump "
				    "sites alone (5 on entry, 4 on exit): +5 "
				    "entry, +4 exit, +9 round trip;"));
	written(report_json, &r);
	assert_true(json_is_valid(out));
	assert_non_null(strstr(out, "\"steps\": \"none\""));
	assert_non_null(strstr(out, "\"sites_only\": true,\n"
				    "      \"sites\": {\n"
				    "        \"entry\": 5,\n"
				    "        \"exit\": 4,\n"
				    "        \"cost_from\": \"measured\",\n"
				    "        \"cost\": {\n"
				    "          \"entry\": 5,\n"
				    "          \"exit\": 4,\n"
				    "          \"round_trip\": 9\n"));

	/* PTI and VERW on (QEMU's Skylake-Client): the total is not the
	 * sites'; on the TSC's ticks their cost is not measured apart. */
	linux_rows(&r, "GenuineIntel", 6, 0x5e);
	written(report_summary, &r);
	assert_null(strstr(out, "sites only"));
	assert_non_null(strstr(out, "Linux on this CPU (PTI, VERW): +5 entry"));
	assert_non_null(strstr(out, "\n  the 9 patched jump sites (5 on entry, "
				    "4 on exit) are in it, their cost not "
				    "measured apart"));
	/* ... under an instruction count, one instruction a site. */
	r.clock_kind = CLOCK_ICOUNT;
	written(report_json, &r);
	assert_non_null(strstr(out, "\"sites_only\": false,"));
	assert_non_null(strstr(out, "\"cost_from\": \"counted\""));
}

/* Rows between CPUs under an emulator are its scheduling, not latencies:
 * summary.txt's table against the baselines leaves them out and names
 * them, its rows mark them, and results.json says so per row. An entry
 * above its round trip is flagged wherever it is shown. */
static void between_cpus_under_an_emulator_are_marked(void **state)
{
	static struct run_result r;
	struct experiment_result *e;
	const char *table;

	(void)state;
	sample_run(&r, 1);
	r.clock_kind = CLOCK_ICOUNT;
	e = &r.exp[r.n_experiments++];
	*e = r.exp[0];
	e->id.source = SOURCE_IPI_CPU_ROUNDTRIP;
	e->baseline = e->id;
	e->baseline.scheme = SCHEME_DIRECT;
	e->id.scheme = SCHEME_PUSH_JMP;
	row_name(&e->id, e->name, sizeof(e->name));
	r.exp[r.n_experiments] = *e;
	r.exp[r.n_experiments].id.scheme = SCHEME_DIRECT;
	row_name(&r.exp[r.n_experiments].id, r.exp[r.n_experiments].name,
		 sizeof(e->name));
	r.n_experiments++;
	e->metric[METRIC_ENTRY].median = 97447;
	e->metric[METRIC_ROUND_TRIP].median = 48721;

	written(report_summary, &r);
	assert_non_null(strstr(out, "^ NOT LATENCIES: scheduler artefacts"));
	assert_non_null(strstr(out, "^ FLAG: entry 97427 is above its round "
				    "trip 48701"));
	table = strstr(out, "Against each row's baseline");
	assert_non_null(table);
	assert_null(strstr(table, "ipi-cpu-roundtrip-push-jmp       "));
	assert_non_null(strstr(table, "Left out of this table: "
				      "ipi-cpu-roundtrip-push-jmp (rows between "
				      "CPUs): scheduler artefacts"));
	written(report_json, &r);
	assert_true(json_is_valid(out));
	assert_non_null(strstr(out, "\"latencies\": false,"));
	assert_non_null(strstr(out, "\"entry_above_round_trip\": true,"));
	assert_non_null(strstr(out, "\"entry_above_round_trip\": false,"));

	/* On the TSC's ticks they are latencies, in the table, flagged
	 * there where the entry is above the round trip. */
	r.clock_kind = CLOCK_TSC_TICKS;
	written(report_summary, &r);
	assert_null(strstr(out, "NOT LATENCIES"));
	assert_non_null(strstr(out, "  FLAG: entry above its round trip\n"));
	written(report_json, &r);
	assert_non_null(strstr(out, "\"latencies\": true,"));
}

/* A primitive's figure per repetition is one figure: results.json's (the
 * report page's) and summary.txt's read the same, three decimals each. */
static void primitives_per_repetition_read_the_same(void **state)
{
	static struct run_result r;

	(void)state;
	sample_run(&r, 1);
	/* 105475 over the floor of 20: 103.002 a repetition */
	r.prim[0].block.median = 105475 + 20;
	written(report_json, &r);
	assert_non_null(strstr(out, "\"median_per_rep\": 103.002"));
	written(report_summary, &r);
	assert_non_null(strstr(out, "      1524   103.002  \n"));
	assert_non_null(strstr(out, "per rep: the median block over 1024"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_counts_of_rows_agree_everywhere),
		cmocka_unit_test(a_run_that_ended_early_says_so_first),
		cmocka_unit_test(the_headline_fits_and_cuts_nothing),
		cmocka_unit_test(a_serial_handoff_says_so_everywhere),
		cmocka_unit_test(linux_sites_only_when_nothing_is_taken),
		cmocka_unit_test(between_cpus_under_an_emulator_are_marked),
		cmocka_unit_test(primitives_per_repetition_read_the_same),
	};

	return cmocka_run_group_tests_name("report text", tests, NULL, NULL);
}
