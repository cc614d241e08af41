/* irqlab.cfg parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"

static char errors[1024];

static int parse(struct irqlab_config *c, const char *text)
{
	struct text_buf eb;

	config_defaults(c);
	tb_init(&eb, errors, sizeof(errors));
	return config_parse(c, text, strlen(text), &eb);
}

static void defaults_without_a_file(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, ""), 0);
	assert_int_equal(c.samples, CONFIG_DEFAULT_SAMPLES);
	assert_true(c.samples >= 10000);
	assert_int_equal(c.warmup, CONFIG_DEFAULT_WARMUP);
	assert_int_equal(c.int_vector, CONFIG_DEFAULT_INT_VECTOR);
	assert_int_equal(c.finish, FINISH_SHUTDOWN);
	assert_int_equal(c.selftest_fault, 0);
}

static void keys_comments_blanks_and_crlf(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, "# irqlab\r\n\r\n  samples = 20000  # more\r\n"
				   "warmup=5\nint_vector = 0x80\n"
				   "finish = wait-key\nselftest_fault = 1"), 0);
	assert_int_equal(c.samples, 20000);
	assert_int_equal(c.warmup, 5);
	assert_int_equal(c.int_vector, 0x80);
	assert_int_equal(c.finish, FINISH_WAIT_KEY);
	assert_int_equal(c.selftest_fault, 1);
}

static void bad_lines_are_reported_and_skipped(void **state)
{
	struct irqlab_config c;

	(void)state;
	assert_int_equal(parse(&c, "samples = lots\nbogus = 1\nint_vector = 3\n"
				   "no equals sign\nfinish = reboot\nwarmup = 7\n"
				   "samples = 99999999999999999999999\n"), 6);
	assert_int_equal(c.samples, CONFIG_DEFAULT_SAMPLES);
	assert_int_equal(c.int_vector, CONFIG_DEFAULT_INT_VECTOR);
	assert_int_equal(c.warmup, 7);	/* good lines still apply */
	assert_non_null(strstr(errors, "line 1: samples must be a number from 1 to 1000000"));
	assert_non_null(strstr(errors, "line 2: unknown key 'bogus'"));
	assert_non_null(strstr(errors, "line 3: int_vector must be a number from 32 to 254"));
	assert_non_null(strstr(errors, "line 4: expected key = value"));
	assert_non_null(strstr(errors, "line 5: bad value 'reboot' for finish"));
	assert_non_null(strstr(errors, "line 7: samples must be a number"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_without_a_file),
		cmocka_unit_test(keys_comments_blanks_and_crlf),
		cmocka_unit_test(bad_lines_are_reported_and_skipped),
		cmocka_unit_test(limits_are_inclusive),
	};

	return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
