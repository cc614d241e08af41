/* irqlab.cfg parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/config_parse.h"

static char errors[1024], warnings[1024];
static struct config_problems problems;

/* Returns the number of errors; `problems` has the rest. */
static int parse(struct irqlab_config *c, const char *text)
{
	config_defaults(c);
	config_problems_init(&problems, errors, sizeof(errors), warnings,
			     sizeof(warnings));
	return (int)config_parse(c, text, strlen(text), &problems);
}

static void defaults_without_a_file(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, ""), 0);
	assert_int_equal(c.samples, 10000);
	assert_true(c.samples >= 10000);
	assert_int_equal(c.warmup, 1000);
	assert_int_equal(c.int_vector, 0x40);
	/* a person at the machine reads the end screen; it powers off by
	 * itself after a countdown */
	assert_int_equal(c.finish, FINISH_WAIT_KEY);
	assert_int_equal(c.selftest_fault, 0);
}

static void keys_comments_blanks_and_crlf(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, "# irqlab\r\n\r\n  samples = 20000  # more\r\n"
				   "warmup=5\nint_vector = 0x80\n"
				   "finish = shutdown\nselftest_fault = 1"), 0);
	assert_int_equal(c.samples, 20000);
	assert_int_equal(c.warmup, 5);
	assert_int_equal(c.int_vector, 0x80);
	assert_int_equal(c.finish, FINISH_SHUTDOWN);
	assert_int_equal(c.selftest_fault, 1);
}

static void bad_lines_are_reported_and_skipped(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, "samples = lots\nbogus = 1\nint_vector = 3\n"
				   "no equals sign\nfinish = reboot\nwarmup = 7\n"
				   "samples = 99999999999999999999999\n"), 5);
	assert_int_equal(problems.n_warnings, 1);	/* the unknown key */
	assert_int_equal(c.samples, 10000);
	assert_int_equal(c.int_vector, 0x40);
	assert_int_equal(c.warmup, 7);	/* good lines still apply */
	assert_non_null(strstr(errors, "line 1: samples must be a number from 1 to 1000000, not 'lots'"));
	assert_non_null(strstr(warnings, "line 2: unknown key 'bogus' ignored\n"));
	assert_null(strstr(errors, "bogus"));
	assert_non_null(strstr(errors, "line 3: int_vector must be a number from 32 to 254"));
	assert_non_null(strstr(errors, "line 4: expected key = value"));
	assert_non_null(strstr(errors, "line 5: bad value 'reboot' for finish"));
	assert_non_null(strstr(errors, "line 7: samples must be a number"));
}

/* A misspelled key is named with the key it is nearest, at most two
 * edits away; one far from every key is not. */
static void a_misspelled_key_gets_its_nearest_name(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, "sample = 2000\nvarients = none\n"
				   "colour = blue\n"), 0);
	assert_int_equal(problems.n_warnings, 3);
	assert_non_null(strstr(warnings, "line 1: unknown key 'sample' ignored "
				   "(did you mean 'samples'?)"));
	assert_non_null(strstr(warnings, "line 2: unknown key 'varients' "
				   "ignored (did you mean 'variants'?)"));
	assert_non_null(strstr(warnings, "line 3: unknown key 'colour' "
				   "ignored\n"));
}

static void limits_are_inclusive(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, "samples = 1000000\nint_vector = 254\n"), 0);
	assert_int_equal(parse(&c, "samples = 1000001\n"), 1);
	assert_int_equal(parse(&c, "samples = 0\n"), 1);
	assert_int_equal(parse(&c, "int_vector = 255\n"), 1);
}

/* image/irqlab.cfg, whole, NUL-terminated; its length. */
static size_t read_shipped_file(char *text, size_t cap)
{
	size_t n;
	FILE *f = fopen("image/irqlab.cfg", "r");

	assert_non_null(f);
	n = fread(text, 1, cap - 1, f);
	fclose(f);
	/* the whole file, as the firmware reads it whole or refuses it */
	assert_true(n < cap - 1);
	text[n] = '\0';
	return n;
}

/* image/irqlab.cfg documents every key with its default: parsed on top of
 * anything, it gives the defaults back, and it names each key. */
static void the_shipped_file_lists_every_key_at_its_default(void **state)
{
	static char text[CONFIG_MAX_BYTES + 1];
	struct irqlab_config c, d;
	size_t n, i;

	(void)state;
	n = read_shipped_file(text, sizeof(text));
	config_defaults(&d);
	memset(&c, 0xa5, sizeof(c));
	config_problems_init(&problems, errors, sizeof(errors), warnings,
			     sizeof(warnings));
	assert_int_equal(config_parse(&c, text, n, &problems), 0);
	assert_int_equal(problems.n_warnings, 0);
	for (i = 0; i < config_key_count; i++) {
		char line[64];

		snprintf(line, sizeof(line), "\n%s = ", config_keys[i].name);
		assert_non_null(strstr(text, line));
		assert_int_equal(config_get(&c, &config_keys[i]),
				 config_get(&d, &config_keys[i]));
	}
}

/* The description names every key once, choices by name. */
static void describe_names_every_key(void **state)
{
	struct irqlab_config c;
	char out[512];
	struct text_buf tb;
	size_t i;

	(void)state;
	assert_int_equal(parse(&c, "finish = shutdown\nruns = 3\n"), 0);
	tb_init(&tb, out, sizeof(out));
	config_describe(&c, &tb);
	assert_false(tb.overflow);
	for (i = 0; i < config_key_count; i++)
		assert_non_null(strstr(out, config_keys[i].name));
	assert_non_null(strstr(out, "finish=shutdown"));
	assert_non_null(strstr(out, "runs=3"));
	assert_non_null(strstr(out, "samples=10000"));
}

/* The adversarial pass's file: 4083 bytes of comments, then two keys.
 * Read whole, both apply; nothing is cut at 4095 bytes. */
static void a_long_file_is_read_to_its_end(void **state)
{
	static char text[CONFIG_MAX_BYTES];
	struct irqlab_config c;
	size_t n = 0;

	(void)state;
	/* 4083 bytes of comment lines, 80 to a line. */
	for (n = 0; n < 4083; n++)
		text[n] = n % 80 == 79 || n == 4082 ? '\n' : '#';
	strcpy(text + n, "samples = 100000\nruns = 2\n");
	assert_true(strlen(text) > 4095);
	assert_int_equal(parse(&c, text), 0);
	assert_int_equal(c.samples, 100000);
	assert_int_equal(c.runs, 2);
}

/* Lines that are not text, or too long to be a setting, are errors. */
static void binary_and_overlong_lines_are_errors(void **state)
{
	static char text[CONFIG_MAX_LINE + 64];
	struct irqlab_config c;

	(void)state;
	config_defaults(&c);
	config_problems_init(&problems, errors, sizeof(errors), warnings,
			     sizeof(warnings));
	assert_int_equal(config_parse(&c, "samples = 5\0runs = 2\n", 22,
				      &problems), 1);
	assert_non_null(strstr(errors, "NUL byte"));
	memset(text, 'x', sizeof(text) - 1);
	memcpy(text, "samples = 7 #", 13);
	text[sizeof(text) - 1] = '\0';
	assert_int_equal(parse(&c, text), 1);
	assert_int_equal(c.samples, 10000);	/* the long line changed nothing */
	assert_non_null(strstr(errors, "longer than 256 bytes"));
}

/* Warnings reach the results as one line, cut with a count, never
 * silently. */
static void warnings_note_is_whole_or_counted(void **state)
{
	struct irqlab_config c;
	char note[64];

	(void)state;
	assert_int_equal(parse(&c, "colour = blue\nshape = round\n"
				   "size = 3\nsamples = 20\n"), 0);
	assert_int_equal(problems.n_warnings, 3);
	config_warnings_note(&problems, note, sizeof(note));
	assert_non_null(strstr(note, "line 1: unknown key 'colour' ignored"));
	assert_non_null(strstr(note, "(and 2 more)"));
	assert_true(strlen(note) < sizeof(note));
}

/* A list key holds names (commas or blanks between them) or all; each
 * name is a bit, and all keeps even a name the list does not know. */
static void lists_select_rows_by_name(void **state)
{
	struct irqlab_config c;
	char text[CONFIG_VALUE_MAX];
	size_t i;

	(void)state;
	assert_int_equal(parse(&c, ""), 0);
	assert_int_equal(c.schemes, CONFIG_ALL);
	assert_true(config_selects(c.schemes, config_scheme_names, "fred"));
	assert_true(config_selects(c.schemes, config_scheme_names, "later"));

	assert_int_equal(parse(&c, "schemes = direct, push-jmp\n"
				   "sources = int\nvariants = none\n"
				   "apic_modes=x2apic"), 0);
	assert_true(config_selects(c.schemes, config_scheme_names, "direct"));
	assert_true(config_selects(c.schemes, config_scheme_names, "push-jmp"));
	assert_false(config_selects(c.schemes, config_scheme_names, "compact"));
	assert_false(config_selects(c.schemes, config_scheme_names, "later"));
	assert_true(config_selects(c.sources, config_source_names, "int"));
	assert_false(config_selects(c.sources, config_source_names, "pic8259"));
	assert_int_equal(c.variants, 0);
	assert_false(config_selects(c.apic_modes, config_apic_mode_names,
				    "xapic"));
	for (i = 0; i < config_key_count; i++)
		if (str_eq(config_keys[i].name, "schemes"))
			assert_string_equal(config_value_name(&config_keys[i],
							      c.schemes, text,
							      sizeof(text)),
					    "direct,push-jmp");
	/* Blanks separate as well as commas. */
	assert_int_equal(parse(&c, "variants = cold thrash\n"), 0);
	assert_true(config_selects(c.variants, config_variant_names, "thrash"));
	assert_false(config_selects(c.variants, config_variant_names,
				    "gs-swapgs"));
}

/* An unknown name, or a list that selects nothing, is an error with its
 * line (the run stops before it measures); none only where it means
 * something (variants). */
static void bad_lists_are_errors(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, "samples = 5\nschemes = direct, fast\n"), 1);
	assert_non_null(strstr(errors, "line 2: schemes: unknown name 'fast'"));
	assert_non_null(strstr(errors, "known: direct push-jmp"));
	assert_int_equal(c.schemes, CONFIG_ALL);	/* the line changed nothing */
	assert_int_equal(parse(&c, "sources = , ,\n"), 1);
	assert_non_null(strstr(errors, "line 1: sources selects nothing"));
	assert_int_equal(parse(&c, "schemes =\n"), 1);
	assert_int_equal(parse(&c, "schemes = none\n"), 1);
	assert_int_equal(parse(&c, "apic_modes = xapic, x3apic\n"), 1);
}

/* matrix_cpus: auto by default, with or without MADT indices, none,
 * all; an index past 30 is refused. matrix_cpus_rows: core or all. */
static void matrix_cpus_names_auto_and_indices(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, ""), 0);
	assert_int_equal(c.matrix_cpus, 1u);
	assert_int_equal(c.matrix_cpus_rows, 0u);
	assert_int_equal(parse(&c, "matrix_cpus = auto, 3\n"), 0);
	assert_int_equal(c.matrix_cpus, 1u | 1u << 4);
	assert_true(config_selects(c.matrix_cpus, config_cpu_names, "3"));
	assert_false(config_selects(c.matrix_cpus, config_cpu_names, "2"));
	assert_int_equal(parse(&c, "matrix_cpus = 0 30\nmatrix_cpus_rows = all\n"),
			 0);
	assert_int_equal(c.matrix_cpus, 1u << 1 | 1u << 31);
	assert_int_equal(c.matrix_cpus_rows, 1u);
	assert_int_equal(parse(&c, "matrix_cpus = none\n"), 0);
	assert_int_equal(c.matrix_cpus, 0u);
	assert_int_equal(parse(&c, "matrix_cpus = all\n"), 0);
	assert_int_equal(c.matrix_cpus, CONFIG_ALL);
	assert_int_equal(parse(&c, "matrix_cpus = 31\n"), 1);
	assert_non_null(strstr(errors, "matrix_cpus: unknown name '31'"));
	assert_int_equal(parse(&c, "matrix_cpus_rows = some\n"), 1);
}

/* quick = 1 sets every count, whatever the file says, before or after. */
static void quick_sets_every_count(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, "samples = 5000\nquick = 1\n"
				   "gap_samples = 900\n"), 0);
	assert_int_equal(c.samples, 1000);
	assert_int_equal(c.warmup, 100);
	assert_int_equal(c.primitive_blocks, 20);
	assert_int_equal(c.gap_samples, 200);
	assert_int_equal(parse(&c, "samples = 5000\nquick = 0\n"), 0);
	assert_int_equal(c.samples, 5000);
}

/* A copy of the shipped file, which sets every count, with quick = 1. */
static void quick_shortens_a_copy_of_the_shipped_file(void **state)
{
	static char text[CONFIG_MAX_BYTES + 1];
	struct irqlab_config c;
	char *q;

	(void)state;
	(void)read_shipped_file(text, sizeof(text));
	q = strstr(text, "\nquick = 0");
	assert_non_null(q);
	q[9] = '1';
	assert_int_equal(parse(&c, text), 0);
	assert_int_equal(c.samples, 1000);
	assert_int_equal(c.warmup, 100);
	assert_int_equal(c.floor_samples, 200);
	assert_int_equal(c.gap_samples, 200);
}

/* handoff: variables by default, serial by name; serial with a series
 * is an error, since a series keeps its earlier runs in the store. */
static void handoff_serial_is_one_run(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, ""), 0);
	assert_int_equal(c.handoff, HANDOFF_BY_VARIABLES);
	assert_false(config_hands_over_serial(&c));
	assert_int_equal(parse(&c, "handoff = serial\n"), 0);
	assert_int_equal(c.handoff, HANDOFF_BY_SERIAL);
	assert_true(config_hands_over_serial(&c));
	assert_int_equal(parse(&c, "handoff = com1\n"), 1);
	assert_non_null(strstr(errors, "line 1: "));
	assert_int_equal(c.handoff, HANDOFF_BY_VARIABLES);
	assert_int_equal(parse(&c, "runs = 3\nhandoff = variables\n"), 0);
	assert_int_equal(parse(&c, "runs = 3\nhandoff = serial\n"), 1);
	assert_non_null(strstr(errors, "runs = 3 with handoff = serial"));
	assert_non_null(strstr(errors, "set runs = 1"));
	assert_int_equal(parse(&c, "runs = 1\nhandoff = serial\n"), 0);
}

/* A UTF-8 byte order mark at the start is not part of the first key. */
static void a_byte_order_mark_is_taken_as_the_start(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, "\xef\xbb\xbfsamples = 300\n"), 0);
	assert_int_equal(problems.n_warnings, 0);
	assert_int_equal(c.samples, 300);
	/* Elsewhere it is what it is: not a key. */
	assert_int_equal(parse(&c, "warmup = 5\n\xef\xbb\xbfsamples = 300\n"), 0);
	assert_int_equal(problems.n_warnings, 1);
	assert_int_not_equal(c.samples, 300);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_without_a_file),
		cmocka_unit_test(keys_comments_blanks_and_crlf),
		cmocka_unit_test(bad_lines_are_reported_and_skipped),
		cmocka_unit_test(a_misspelled_key_gets_its_nearest_name),
		cmocka_unit_test(limits_are_inclusive),
		cmocka_unit_test(the_shipped_file_lists_every_key_at_its_default),
		cmocka_unit_test(describe_names_every_key),
		cmocka_unit_test(a_long_file_is_read_to_its_end),
		cmocka_unit_test(binary_and_overlong_lines_are_errors),
		cmocka_unit_test(warnings_note_is_whole_or_counted),
		cmocka_unit_test(lists_select_rows_by_name),
		cmocka_unit_test(bad_lists_are_errors),
		cmocka_unit_test(matrix_cpus_names_auto_and_indices),
		cmocka_unit_test(quick_sets_every_count),
		cmocka_unit_test(a_byte_order_mark_is_taken_as_the_start),
		cmocka_unit_test(handoff_serial_is_one_run),
		cmocka_unit_test(quick_shortens_a_copy_of_the_shipped_file),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
