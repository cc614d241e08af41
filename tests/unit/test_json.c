/* The JSON writer and the two result-file writers built on it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/histogram.h"

#include "bench/report/json.h"
#include "tests/unit/json_check.h"
#include "bench/report/report.h"
#include "tests/unit/sample_run.h"

static char out[256 * 1024];

static const struct scheme_entry catalog[] = {
	{ "direct", "a dedicated handler per vector", "-", 128, 28672, 0 },
	{ "cs-selector", "a code descriptor per vector", "000 001", 0, 70, 1792 },
};

static const struct primitive_entry prims[] = {
	{ "push-imm-i386", "push $-255 (seed 000 TEST1 as written, i386)",
	  "000" },
	{ "push-cs", "push %cs", "000" },
};

static struct report_context context(const struct handoff_report *h)
{
	return (struct report_context){ .handoff = h, .schemes = catalog,
					.n_schemes = 2, .primitives = prims,
					.n_primitives = 2 };
}

static void checker_rejects_what_it_should(void **state)
{
	(void)state;
	/* The oracle itself must be able to fail. */
	assert_true(json_is_valid("{\"a\": [1, -2.5, true, null, \"x\\n\"]}"));
	assert_false(json_is_valid("{\"a\": 1,}"));
	assert_false(json_is_valid("{\"a\" 1}"));
	assert_false(json_is_valid("\"raw\ttab\""));
	assert_false(json_is_valid("[1] [2]"));
	assert_false(json_is_valid("01"));
}

static void nested_document_has_exact_layout(void **state)
{
	struct text_buf tb;
	struct json_writer w;

	(void)state;
	tb_init(&tb, out, sizeof(out));
	json_init(&w, &tb);
	json_begin_object(&w);
	json_kv_string(&w, "name", "int-direct");
	json_kv_uint(&w, "count", 10000);
	json_kv_int(&w, "net", -3);
	json_key(&w, "mean");
	json_milli(&w, 18250);
	json_key(&w, "list");
	json_begin_array(&w);
	json_uint(&w, 1);
	json_bool(&w, 0);
	json_null(&w);
	json_end_array(&w);
	json_key(&w, "empty");
	json_begin_object(&w);
	json_end_object(&w);
	json_end_object(&w);
	assert_int_equal(w.error, 0);
	assert_string_equal(out,
			    "{\n"
			    "  \"name\": \"int-direct\",\n"
			    "  \"count\": 10000,\n"
			    "  \"net\": -3,\n"
			    "  \"mean\": 18.250,\n"
			    "  \"list\": [\n"
			    "    1,\n"
			    "    false,\n"
			    "    null\n"
			    "  ],\n"
			    "  \"empty\": {}\n"
			    "}\n");
	assert_true(json_is_valid(out));
}

static void strings_are_escaped(void **state)
{
	struct text_buf tb;
	struct json_writer w;

	(void)state;
	tb_init(&tb, out, sizeof(out));
	json_init(&w, &tb);
	json_begin_array(&w);
	json_string(&w, "quote\" backslash\\ nl\n tab\t cr\r bell\a del\x7f "
			"</script>");
	json_end_array(&w);
	/* '<' too: report.html carries the JSON inside a <script>. */
	assert_string_equal(out, "[\n  \"quote\\\" backslash\\\\ nl\\n tab\\t "
				 "cr\\r bell\\u0007 del\\u007f "
				 "\\u003c/script>\"\n]\n");
	assert_true(json_is_valid(out));
}

static void negative_and_small_millis(void **state)
{
	struct text_buf tb;
	struct json_writer w;

	(void)state;
	tb_init(&tb, out, sizeof(out));
	json_init(&w, &tb);
	json_begin_array(&w);
	json_milli(&w, -1500);
	json_milli(&w, 7);
	json_milli(&w, 0);
	json_end_array(&w);
	assert_string_equal(out, "[\n  -1.500,\n  0.007,\n  0.000\n]\n");
}

static void misuse_is_flagged(void **state)
{
	struct text_buf tb;
	struct json_writer w;

	(void)state;
	tb_init(&tb, out, sizeof(out));
	json_init(&w, &tb);
	json_begin_object(&w);
	json_uint(&w, 1);	/* a value without a key */
	assert_int_equal(w.error, 1);

	json_init(&w, &tb);
	json_begin_array(&w);
	json_end_object(&w);	/* mismatched close */
	assert_int_equal(w.error, 1);

	json_init(&w, &tb);
	json_begin_array(&w);
	json_key(&w, "k");	/* a key in an array */
	assert_int_equal(w.error, 1);
}

static void results_json_is_valid_and_complete(void **state)
{
	static struct run_result r;
	struct handoff_report h = { .records_used = 2, .n_discarded = 1 };
	struct text_buf tb;

	(void)state;
	strcpy(h.discarded[0].name, "IrqlabRecord07");
	h.discarded[0].fate = FATE_CORRUPT;
	strcpy(h.discarded[0].why, "CRC mismatch");
	struct report_context ctx = context(&h);

	sample_run(&r, 4);
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_json(&tb, &r, &ctx), 0);
	assert_true(json_is_valid(out));
	assert_non_null(strstr(out, "\"schema\": \"irqlab-results\""));
	assert_non_null(strstr(out, "\"run_id\": \"20261130-054701\""));
	assert_non_null(strstr(out, "\"brand\": \"Example \\\"Quoted\\\" CPU @ 2.00GHz\""));
	assert_non_null(strstr(out, "\"uefi_revision\": \"2.7\""));
	assert_non_null(strstr(out, "\"unit\": \"TSC ticks\""));
	/* TSC ticks are never called cycles: the core clock moves. */
	assert_non_null(strstr(out, "\"figures_are_cycles\": false"));
	assert_non_null(strstr(out, "\"figures_are_tsc_ticks\": true"));
	assert_non_null(strstr(out, "\"tsc_hz_method\": \"cpuid-15h\""));
	assert_non_null(strstr(out, "\"status\": \"skipped\""));
	assert_non_null(strstr(out, "\"reason\": \"CPUID.1:ECX[24] is 0\""));
	assert_non_null(strstr(out, "\"why\": \"CRC mismatch\""));
	/* entry of row 0: raw min 100, floor min 20 -> 80 net; the raw
	 * mean 103.250 -> 83.250 */
	assert_non_null(strstr(out, "\"entry\": {\n        \"min\": 80,\n        \"p1\": 80,"));
	assert_non_null(strstr(out, "\"p99.9\": 120,"));
	assert_non_null(strstr(out, "\"stddev\": 1.500"));
	assert_non_null(strstr(out, "\"mean\": 83.250"));
	assert_non_null(strstr(out, "\"vectors_verified\": 224"));
	assert_non_null(strstr(out, "\"register_checks\": 512"));
	/* the scheme catalog, with its cache-line count */
	assert_non_null(strstr(out, "\"name\": \"cs-selector\""));
	assert_non_null(strstr(out, "\"code_cache_lines\": 448"));
	assert_non_null(strstr(out, "\"data_bytes\": 1792"));
	/* row 2's medians are 2 over row 0's, its baseline */
	assert_non_null(strstr(out, "\"experiment\": \"int-push-jmp-ibt\",\n"
				    "      \"baseline\": \"int-direct\",\n"
				    "      \"entry_median_over\": 2,"));
	/* each row's fields, from its ids */
	assert_non_null(strstr(out, "\"name\": \"int-push-jmp\",\n"
				    "      \"scheme\": \"push-jmp\",\n"
				    "      \"source\": \"int\",\n"
				    "      \"variant\": \"\",\n"
				    "      \"cache\": \"\",\n"
				    "      \"baseline\": \"int-direct\","));
	/* skipped rows are not compared */
	assert_null(strstr(out, "\"experiment\": \"int-compact\""));
	/* primitives: push-imm-i386's median block 1046 - floor 20 = 1026 */
	assert_non_null(strstr(out, "\"reps_per_block\": 1024"));
	assert_non_null(strstr(out, "\"description\": \"push $-255 (seed 000 TEST1 as written, i386)\""));
	assert_non_null(strstr(out, "\"median_per_rep\": 1.001"));
	assert_non_null(strstr(out, "\"reason\": \"compatibility mode needs the stack below 4 GiB; it is at 0x100000000\""));
	/* a primitive the catalog does not know still gets its figures */
	assert_non_null(strstr(out, "\"name\": \"cs-vector\",\n"
				    "        \"description\": \"\","));
}

/* A row's histograms in results.json: bins net of the floor, as every
 * figure; null for a metric the row kept none of. */
static void row_histograms_in_json(void **state)
{
	static struct run_result r;
	static struct histogram h;
	struct text_buf tb;
	unsigned i;

	(void)state;
	sample_run(&r, 2);
	hist_clear(&h);
	for (i = 0; i < 30; i++)
		hist_add(&h, 20 + 40 + i % 3);	/* floor.min is 20 */
	r.hist[0].row = 1;
	r.hist[0].metric = METRIC_EXIT;
	r.hist[0].len = (uint16_t)hist_encode(&h, r.hist[0].bytes,
					      ROW_HIST_BYTES);
	r.n_hists = 1;
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_json(&tb, &r, NULL), 0);
	assert_true(json_is_valid(out));
	/* one line: [from, to, count] a bin, net of the floor */
	assert_non_null(strstr(out, "\"exit\": [[40, 40, 10], [41, 41, 10], "
				    "[42, 42, 10]],\n"));
	assert_non_null(strstr(out, "\"entry\": null"));
}

/* report.html: the template with results.json in its one data slot;
 * without a template, nothing is written. */
static void report_page_joins_template_and_json(void **state)
{
	static struct run_result r;
	static char json[64 * 1024];
	static const char page[] = "<html><script type=\"application/json\">"
				   REPORT_DATA_SLOT "</script></html>\n";
	struct report_context ctx = context(NULL);
	struct text_buf tb;
	size_t head = strlen(page) - strlen(REPORT_DATA_SLOT "</script></html>\n");

	(void)state;
	sample_run(&r, 2);
	strcpy(r.machine.brand, "</script><script>alert(1)</script>");
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_html(&tb, &r, &ctx), REPORT_NOT_WRITTEN);
	ctx.html_template = page;
	ctx.html_template_len = strlen(page);
	tb_init(&tb, json, sizeof(json));
	assert_int_equal(report_json(&tb, &r, &ctx), 0);
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_html(&tb, &r, &ctx), 0);
	assert_memory_equal(out, page, head);
	assert_memory_equal(out + head, json, strlen(json));
	assert_string_equal(out + head + strlen(json), "</script></html>\n");
	/* The brand's "</script>" cannot end the element early. */
	assert_null(strstr(out + head, "</script><script>"));
	/* Too small a buffer is said, never a cut page. */
	tb_init(&tb, out, head + 10);
	assert_int_equal(report_html(&tb, &r, &ctx), -1);
}

static void icount_figures_are_not_called_cycles(void **state)
{
	static struct run_result r;
	struct text_buf tb;

	(void)state;
	sample_run(&r, 1);
	r.prim[1].status = EXP_OK;	/* seed 000's TEST2 ran too */
	r.clock_kind = CLOCK_ICOUNT;
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_json(&tb, &r, NULL), 0);
	assert_non_null(strstr(out, "\"figures_are_cycles\": false"));
	assert_non_null(strstr(out, "\"figures_are_tsc_ticks\": false"));
	assert_non_null(strstr(out, "instructions (QEMU -icount path length, not cycles)"));
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_summary(&tb, &r, NULL), 0);
	assert_null(strstr(out, "TSC ticks"));
	assert_non_null(strstr(out, "not cycles"));
	assert_non_null(strstr(out, "QEMU models no caches"));
	/* a claim whose rows ran is not judged on instruction counts */
	assert_non_null(strstr(out, "verdict: not judged (figures are not cycles here) (claim: reading %cs"));
}

/* Core cycles measured on the CPU's counters lead: the JSON says so, the
 * end screen, the seed verdicts and the web answer take them, the
 * summary has their table; TSC figures stay beside them. */
static void measured_core_cycles_lead_the_report(void **state)
{
	static struct run_result r;
	struct text_buf tb;

	(void)state;
	sample_run(&r, 12);
	sample_counted(&r, PROBE_OK);
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_json(&tb, &r, NULL), 0);
	assert_non_null(strstr(out, "\"lead_unit\": \"core cycles\""));
	assert_non_null(strstr(out, "\"figures_are_cycles\": false"));
	assert_non_null(strstr(out, "\"state\": \"measured\""));
	/* int-push-jmp's cycle entry over int-direct's: 3 * (101 - 100) */
	assert_non_null(strstr(out, "\"cycles_entry_median_over\": 3"));
	/* the seed sections of experiment rows are in core cycles */
	assert_non_null(strstr(out, "\"unit\": \"core cycles\""));
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_summary(&tb, &r, NULL), 0);
	assert_non_null(strstr(out, "Core cycles, from the performance counters"));
	assert_null(strstr(out, "the emulator's counters"));
	assert_non_null(strstr(out, "figures in core cycles; verdict:"));
	tb_init(&tb, out, sizeof(out));
	report_end_screen(&tb, &r, "\\irqlab\\results\\x");
	assert_non_null(strstr(out, "clock    tsc: core cycles\n"));
	/* int's round trip in cycles: 30 + 3 * (302 - 20) + 2 - 30 (floor) */
	assert_non_null(strstr(out, "848"));
}

/* An emulator's counted core cycles never lead: its cycle counter counts
 * instruction steps (docs/emulators.md "The counting PMU"). The JSON,
 * the seed verdicts and the end screen keep the emulator's unit, and the
 * summary's table says whose counters they are. */
static void emulator_core_cycles_never_lead(void **state)
{
	static struct run_result r;
	static const unsigned kinds[] = { CLOCK_EMULATOR, CLOCK_ICOUNT };
	struct text_buf tb;
	char lead[256];
	unsigned k;

	(void)state;
	for (k = 0; k < 2; k++) {
		sample_run(&r, 4);
		sample_counted(&r, PROBE_OK);
		r.clock_kind = (uint8_t)kinds[k];
		tb_init(&tb, out, sizeof(out));
		assert_int_equal(report_json(&tb, &r, NULL), 0);
		assert_null(strstr(out, "\"lead_unit\": \"core cycles\""));
		snprintf(lead, sizeof(lead), "\"lead_unit\": \"%s\"",
			 clock_kind_unit(kinds[k]));
		assert_non_null(strstr(out, lead));
		assert_null(strstr(out, "\"unit\": \"core cycles\""));
		/* the clock's and each row's counted cycles name their unit */
		assert_non_null(strstr(out, "\"unit\": \"the emulator's cycle "
					    "counter: one per instruction step, "
					    "not cycles\""));
		/* measured, and still carried beside the lead */
		assert_non_null(strstr(out, "\"state\": \"measured\""));
		assert_non_null(strstr(out, "\"cycles_entry_median_over\": 3"));
		tb_init(&tb, out, sizeof(out));
		assert_int_equal(report_summary(&tb, &r, NULL), 0);
		assert_non_null(strstr(out, "Core cycles (the emulator's counters: "
				       "a cycle is an instruction step, not a "
				       "cycle), from the performance counters"));
		assert_null(strstr(out, "figures in core cycles"));
		tb_init(&tb, out, sizeof(out));
		report_end_screen(&tb, &r, "\\irqlab\\results\\x");
		assert_null(strstr(out, "core cycles"));
	}
	/* The same counts on hardware's TSC ticks lead, and are not said to
	 * be an emulator's. */
	r.clock_kind = CLOCK_TSC_TICKS;
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_summary(&tb, &r, NULL), 0);
	assert_null(strstr(out, "the emulator's counters"));
	/* Without the pass, the summary says why. */
	sample_run(&r, 4);
	strcpy(r.probe[PROBE_COUNTERS].detail, "CPUID 0AH has no PMU");
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_summary(&tb, &r, NULL), 0);
	assert_non_null(strstr(out, "Core cycles: not measured: CPUID 0AH has no PMU"));
}

/* The end screen fits 80 x 25 and shows the headline: each scheme's
 * round trip and its overhead against direct, for INT n and a self-IPI. */
static void end_screen_fits_and_heads_with_the_schemes(void **state)
{
	static struct run_result r;
	struct text_buf tb;
	const char *line;
	unsigned i, lines = 0;

	(void)state;
	/* long mode's ten schemes under INT n, then under the xAPIC
	 * self-IPI (sample_run) */
	sample_run(&r, 20);
	for (i = 0; i < 20; i++) {
		struct experiment_result *e = &r.exp[i];

		e->status = e->id.scheme == SCHEME_FRED ? EXP_SKIPPED : EXP_OK;
		/* round trip medians: 100 + 10 * scheme for INT, + 1000 for IPIs */
		e->metric[METRIC_ROUND_TRIP].median =
			20 + 100 + 10 * (i % 10) + (i < 10 ? 0 : 1000);
	}
	/* A self-test that failed under push-jmp is no scheme's figure. */
	r.n_experiments = 21;
	r.exp[20] = r.exp[1];
	r.exp[20].id.selftest = SELFTEST_IN_HANDLER;
	r.exp[20].baseline = r.exp[20].id;
	r.exp[20].status = EXP_FAILED;
	tb_init(&tb, out, sizeof(out));
	report_end_screen(&tb, &r, "\\EFI\\irqlab\\results\\20261130-054701");
	for (line = out; *line; lines++) {
		const char *end = strchr(line, '\n');

		assert_non_null(end);
		assert_true(end - line <= END_SCREEN_COLS);
		line = end + 1;
	}
	assert_true(lines <= END_SCREEN_LINES);
	/* floor min 20: direct 100, push-jmp 110 (+10); IPI 1100, 1110 (+10) */
	assert_non_null(strstr(out, "direct        100 "));
	assert_non_null(strstr(out, "push-jmp      110 (+10)"));
	assert_non_null(strstr(out, "1110 (+10)"));
	assert_non_null(strstr(out, "skipped  fred: summary.txt says why"));
	assert_non_null(strstr(out, "xAPIC self-IPI"));
	assert_non_null(strstr(out, "results  \\EFI\\irqlab\\results\\20261130-054701"));
	assert_non_null(strstr(out, "rows     18 ok, 2 skipped, 1 failed of 21 experiment rows"));
	assert_non_null(strstr(out, "irqlab: run 20261130-054701 done"));
}

static void summary_has_the_figures_as_rows(void **state)
{
	static struct run_result r;
	struct handoff_report h = { .n_discarded = 1 };
	struct report_context ctx = context(&h);
	struct text_buf tb;

	(void)state;
	strcpy(h.discarded[0].name, "IrqlabRecord03");
	h.discarded[0].fate = FATE_STALE;
	strcpy(h.discarded[0].why, "superseded by a newer run");
	sample_run(&r, 4);
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_summary(&tb, &r, &ctx), 0);
	assert_non_null(strstr(out, "irqlab results, run 20261130-054701"));
	assert_non_null(strstr(out, "floor      20 "));
	/* row 0 entry: min 80, p1 80, median 82, p90 85, p99 89, p99.9 120,
	 * max 580, mean 83.2, sd 1.5 */
	assert_non_null(strstr(out, "entry                   80        80        82        85        89       120       580        83.2       1.5"));
	assert_non_null(strstr(out, "int-compact                             compact                  int                            67 skipped: CPUID.1:ECX[24] is 0"));
	assert_non_null(strstr(out, "IrqlabRecord03   stale    superseded by a newer run"));
	/* against the baseline: row 1 is 1 over row 0 on every median */
	assert_non_null(strstr(out, "int-push-jmp                            int-direct                          83     183     283       +1      +1      +1"));
	/* the baseline itself is not compared with itself */
	assert_null(strstr(out, "int-direct                              int-direct"));
	assert_null(strstr(out, "QEMU models no caches"));
	/* every seed's table prints, saying what did not run */
	assert_non_null(strstr(out, "XT-PIC                                        not run   18733-23057"));
	assert_non_null(strstr(out, "Seed 000: van Heukelum's TEST1-3"));
	/* push-imm-i386 ran (1046 - floor 20 = 1026): the row has its
	 * figure; the long-mode stand-ins follow, labelled */
	assert_non_null(strstr(out, "TEST1 push $-255 (i386)                          1026   1024 / 1092 / 1028"));
	assert_non_null(strstr(out, "TEST3, long mode                                 3074"));
	assert_non_null(strstr(out, "verdict: not measured"));
	assert_null(strstr(out, "verdict: not judged"));
	assert_non_null(strstr(out, "cs-selector              000 001       0      70      2    1792  a code descriptor per vector"));
	assert_non_null(strstr(out, "push-imm-i386              000       1024      1026      1033      1524     1.001  push $-255 (seed 000 TEST1 as written, i386)"));
	assert_non_null(strstr(out, "push-cs                    000  skipped: compatibility mode needs the stack below 4 GiB"));
}

/* The i386 rows of the 32-bit phase get their own table, after long
 * mode's, each against its own i386 baseline; results.json says which
 * CPU mode every row ran in. */
static void i386_rows_have_their_own_table(void **state)
{
	static struct run_result r;
	struct report_context ctx = context(NULL);
	struct text_buf tb;
	const char *long_table, *i386_table, *row;

	(void)state;
	sample_run(&r, 4);
	r.exp[2].id.scheme = SCHEME_I386_DIRECT;
	r.exp[2].baseline = r.exp[2].id;
	row_name(&r.exp[2].id, r.exp[2].name, sizeof(r.exp[2].name));
	r.exp[3].id.scheme = SCHEME_I386_CALL16;
	r.exp[3].baseline = r.exp[2].id;
	row_name(&r.exp[3].id, r.exp[3].name, sizeof(r.exp[3].name));
	r.exp[3].status = EXP_OK;
	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_summary(&tb, &r, &ctx), 0);
	long_table = strstr(out, "Against each row's baseline");
	i386_table = strstr(out, "The i386 rows, in 32-bit protected mode");
	row = strstr(out, "int-i386-call16                         int-i386-direct");
	assert_non_null(long_table);
	assert_non_null(i386_table);
	assert_non_null(row);
	assert_true(long_table < i386_table && i386_table < row);
	/* row 1 stays in long mode's table, before the i386 one */
	assert_true(strstr(out, "int-push-jmp                            int-direct") < i386_table);

	tb_init(&tb, out, sizeof(out));
	assert_int_equal(report_json(&tb, &r, &ctx), 0);
	row = strstr(out, "\"name\": \"int-i386-call16\"");
	assert_non_null(row);
	assert_non_null(strstr(row, "\"cpu_mode\": \"protected-32\""));
	assert_true(strstr(out, "\"cpu_mode\": \"long\"") < row);

	/* The end screen's scheme lines are long mode's, against direct;
	 * its count of rows says how many are i386 rows. */
	tb_init(&tb, out, sizeof(out));
	report_end_screen(&tb, &r, "\\EFI\\irqlab\\results\\x");
	assert_null(strstr(out, "i386-call16 "));
	assert_non_null(strstr(out, "of 4 experiment rows (2 in i386 mode)"));
}

static void a_too_small_buffer_is_reported(void **state)
{
	static struct run_result r;
	static char small[200];
	struct text_buf tb;

	(void)state;
	sample_run(&r, 4);
	tb_init(&tb, small, sizeof(small));
	assert_int_equal(report_json(&tb, &r, NULL), -1);
	assert_true(strlen(small) < sizeof(small));
	tb_init(&tb, small, sizeof(small));
	assert_int_equal(report_summary(&tb, &r, NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(checker_rejects_what_it_should),
		cmocka_unit_test(nested_document_has_exact_layout),
		cmocka_unit_test(strings_are_escaped),
		cmocka_unit_test(negative_and_small_millis),
		cmocka_unit_test(misuse_is_flagged),
		cmocka_unit_test(results_json_is_valid_and_complete),
		cmocka_unit_test(report_page_joins_template_and_json),
		cmocka_unit_test(row_histograms_in_json),
		cmocka_unit_test(icount_figures_are_not_called_cycles),
		cmocka_unit_test(summary_has_the_figures_as_rows),
		cmocka_unit_test(i386_rows_have_their_own_table),
		cmocka_unit_test(end_screen_fits_and_heads_with_the_schemes),
		cmocka_unit_test(measured_core_cycles_lead_the_report),
		cmocka_unit_test(emulator_core_cycles_never_lead),
		cmocka_unit_test(a_too_small_buffer_is_reported),
	};

	return cmocka_run_group_tests_name("json", tests, NULL, NULL);
}
