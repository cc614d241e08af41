/* The icount reference as the stick carries it (bench/model/
 * path_reference.c) and each row's path length against it
 * (bench/report/path_length.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/path_reference.h"
#include "bench/report/path_length.h"
#include "tests/unit/sample_run.h"

static struct path_reference ref;
static struct path_comparison cmp;
static char why[128];

#define BUILD "0123456789abcdef"

static int parse(const char *text)
{
	return path_reference_parse(text, strlen(text), &ref, why, sizeof(why));
}

static void the_stick_format_is_read(void **state)
{
	(void)state;
	assert_int_equal(parse("# comment\n\nbuild " BUILD "\r\n"
			       "row int-direct 64\nrow int-push-jmp\t67\n"), 0);
	assert_string_equal(ref.build, BUILD);
	assert_int_equal(ref.n, 2);
	assert_int_equal(path_reference_find(&ref, "int-push-jmp"), 67);
	assert_int_equal(path_reference_find(&ref, "int-compact"), -1);
	/* A last line without its newline counts too. */
	assert_int_equal(parse("build " BUILD "\nrow a 1"), 0);
	assert_int_equal(ref.n, 1);
}

static void what_is_not_the_format_is_refused_by_line(void **state)
{
	(void)state;
	assert_int_equal(parse("row int-direct 64\n"), -1);
	assert_non_null(strstr(why, "no \"build\" line"));
	assert_int_equal(parse("build " BUILD "\nrow int-direct sixty\n"), -1);
	assert_non_null(strstr(why, "line 2"));
	assert_int_equal(parse("build 0123\n"), -1);
	assert_int_equal(parse("build " BUILD "\nrow a 1 2\n"), -1);
	assert_int_equal(parse("build " BUILD "\nrows a 1\n"), -1);
	assert_int_equal(parse("build " BUILD "\nrow a 99999999999\n"), -1);
	/* A row name has at most RESULTS_ROW_NAME_LEN - 1 characters: this
	 * one has 102. */
	assert_int_equal(parse("build " BUILD "\nrow "
			       "a-row-name-longer-than-ninety-five-characters-"
			       "is-refused-by-the-reader-whatever-follows-it-"
			       "on-the-line 1\n"),
			 -1);
	assert_int_equal(strlen("a-row-name-longer-than-ninety-five-characters-"
				"is-refused-by-the-reader-whatever-follows-it-"
				"on-the-line"), 102);
}

/* Rows 0..3 of sample_run: int-direct, int-push-jmp, int-push-jmp-ibt
 * ok, int-compact skipped; round trips net of the floor 282 + row. */
static void reference_of(const struct run_result *r, int64_t off_by_one_row)
{
	char text[512];
	struct text_buf tb;
	uint32_t i;

	tb_init(&tb, text, sizeof(text));
	tb_printf(&tb, "build %s\n", r->build);
	for (i = 0; i < r->n_experiments; i++)
		tb_printf(&tb, "row %s %llu\n", r->exp[i].name,
			  (unsigned long long)(r->exp[i].metric[METRIC_ROUND_TRIP]
						       .median - r->floor.min +
					       (i == off_by_one_row)));
	tb_printf(&tb, "row not-in-this-run 5\n");
	assert_int_equal(parse(text), 0);
}

static void an_instruction_counting_clock_is_compared_row_by_row(void **state)
{
	static struct run_result r;

	(void)state;
	sample_run(&r, 4);
	strcpy(r.build, BUILD);
	r.clock_kind = CLOCK_ICOUNT;
	reference_of(&r, 2);
	path_length_compare(&r, &ref, 0, &cmp);
	assert_int_equal(cmp.state, PATH_COMPARED);
	assert_int_equal(cmp.compared, 3);	/* the skipped row is not */
	assert_int_equal(cmp.equal, 2);
	assert_int_equal(cmp.n_differences, 1);
	assert_int_equal(cmp.difference[0].row, 2);
	assert_int_equal(cmp.difference[0].here + 1, cmp.difference[0].reference);
	assert_non_null(strstr(cmp.counts_from, "TSC"));
}

static void counted_instructions_are_compared_less_the_trigger_extra(void **state)
{
	static struct run_result r;
	uint32_t i;

	(void)state;
	sample_run(&r, 4);
	strcpy(r.build, BUILD);
	sample_counted(&r, PROBE_OK);
	/* Hardware instructions: medians 58 + row less the counted floor's
	 * minimum 6 (sample_counted). */
	{
		char text[256];
		struct text_buf tb;

		tb_init(&tb, text, sizeof(text));
		tb_printf(&tb, "build " BUILD "\n");
		for (i = 0; i < 3; i++)
			tb_printf(&tb, "row %s %u\n", r.exp[i].name, 52 + i);
		assert_int_equal(parse(text), 0);
	}
	path_length_compare(&r, &ref, 0, &cmp);
	assert_int_equal(cmp.state, PATH_COMPARED);
	assert_int_equal(cmp.equal, 3);
	assert_non_null(strstr(cmp.counts_from, "instructions retired"));
	/* An x2APIC MSR row's counted trigger loads ECX once more. */
	r.exp[1].id.source = SOURCE_IPI_SELF_X2APIC_SELFIPI;
	path_length_compare(&r, &ref, 0, &cmp);
	assert_int_equal(cmp.equal, 2);
	assert_int_equal(cmp.difference[0].here, 52);	/* 53 less 1 */
	/* Under an emulator whose counters count (Bochs' counting PMU), its
	 * counted instructions are compared, not its TSC, which here would
	 * match no row of this reference. */
	r.exp[1].id.source = r.exp[0].id.source;
	r.clock_kind = CLOCK_EMULATOR;
	path_length_compare(&r, &ref, 0, &cmp);
	assert_int_equal(cmp.state, PATH_COMPARED);
	assert_int_equal(cmp.equal, 3);
	assert_non_null(strstr(cmp.counts_from, "instructions retired"));
	r.cycles_floor.count = 0;	/* no counted pass: the TSC's */
	path_length_compare(&r, &ref, 0, &cmp);
	assert_int_equal(cmp.state, PATH_COMPARED);
	assert_int_equal(cmp.equal, 0);
	assert_non_null(strstr(cmp.counts_from, "TSC"));
}

/* Hardware that counts each event delivery as an instruction: the
 * interrupt of a self-IPI row, and pf-cr2's #PF as well, each one more
 * than the reference, INT n's row none. The constant is measured, 1,
 * and every row equal net of it; a row off by one more is told apart;
 * a processor in the boot CPU's place has its own. */
static void a_delivery_constant_is_measured_and_taken_off(void **state)
{
	static struct run_result r;
	static const unsigned delivered[3] = { 0, 1, 2 };
	char text[256];
	struct text_buf tb;
	uint32_t i;

	(void)state;
	sample_run(&r, 4);
	strcpy(r.build, BUILD);
	sample_counted(&r, PROBE_OK);
	r.exp[1].id.source = SOURCE_IPI_SELF_XAPIC;
	r.exp[2].id.source = SOURCE_LAPIC_ONESHOT;
	r.exp[2].id.scheme = SCHEME_PF_CR2;
	/* Counted here: 52 + row; the reference: that less each row's
	 * deliveries (0, 1, 2). */
	tb_init(&tb, text, sizeof(text));
	tb_printf(&tb, "build " BUILD "\n");
	for (i = 0; i < 3; i++)
		tb_printf(&tb, "row %s %u\n", r.exp[i].name,
			  52 + i - delivered[i]);
	assert_int_equal(parse(text), 0);
	path_length_compare(&r, &ref, 0, &cmp);
	assert_int_equal(cmp.state, PATH_COMPARED);
	assert_int_equal(cmp.n_constants, 1);
	assert_int_equal(cmp.constant[0].cpu, 0);
	assert_int_equal(cmp.constant[0].per_delivery, 1);
	assert_int_equal(cmp.constant[0].rows, 2);
	assert_int_equal(cmp.constant[0].agreeing, 2);
	assert_int_equal(cmp.equal, 3);
	tb_init(&tb, text, sizeof(text));
	path_comparison_summary(&tb, &r, &cmp);
	assert_non_null(strstr(text, "an event delivery counts 1 "
				     "instruction(s) on the boot CPU (2 of its "
				     "2 rows"));
	/* INT n's row one more: a difference, net of nothing. */
	r.counted[0].instructions.median++;
	path_length_compare(&r, &ref, 0, &cmp);
	assert_int_equal(cmp.equal, 2);
	assert_int_equal(cmp.difference[0].here, 53);
	/* The pf-cr2 row on another processor: its own constant, 1 again,
	 * from its one row. */
	r.counted[0].instructions.median--;
	r.exp[2].id.cpu = 3;
	path_length_compare(&r, &ref, 0, &cmp);
	assert_int_equal(cmp.n_constants, 2);
	assert_int_equal(cmp.constant[1].cpu, 3);
	assert_int_equal(cmp.constant[1].per_delivery, 1);
	assert_int_equal(cmp.equal, 3);
}

static void another_build_or_no_counts_is_not_compared(void **state)
{
	static struct run_result r;
	struct text_buf tb;
	char text[1024];

	(void)state;
	sample_run(&r, 4);
	strcpy(r.build, "fedcba9876543210");
	r.clock_kind = CLOCK_ICOUNT;
	reference_of(&r, -1);
	strcpy(ref.build, BUILD);
	path_length_compare(&r, &ref, 0, &cmp);
	assert_int_equal(cmp.state, PATH_OTHER_BUILD);
	assert_non_null(strstr(cmp.why, BUILD));
	assert_non_null(strstr(cmp.why, "fedcba9876543210"));
	tb_init(&tb, text, sizeof(text));
	path_comparison_summary(&tb, &r, &cmp);
	assert_non_null(strstr(text, "not compared (other-build)"));
	/* Real TSC ticks without counters: nothing to compare. */
	strcpy(r.build, BUILD);
	r.clock_kind = CLOCK_TSC_TICKS;
	strcpy(r.probe[PROBE_COUNTERS].detail, "CPUID 0AH has no PMU");
	path_length_compare(&r, &ref, 0, &cmp);
	assert_int_equal(cmp.state, PATH_NO_COUNTS);
	assert_string_equal(cmp.why, "CPUID 0AH has no PMU");
	path_length_compare(&r, 0, "icount.ref is not on the stick", &cmp);
	assert_int_equal(cmp.state, PATH_NO_REFERENCE);
	assert_string_equal(cmp.why, "icount.ref is not on the stick");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_stick_format_is_read),
		cmocka_unit_test(what_is_not_the_format_is_refused_by_line),
		cmocka_unit_test(an_instruction_counting_clock_is_compared_row_by_row),
		cmocka_unit_test(counted_instructions_are_compared_less_the_trigger_extra),
		cmocka_unit_test(a_delivery_constant_is_measured_and_taken_off),
		cmocka_unit_test(another_build_or_no_counts_is_not_compared),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
