/* The freestanding formatter against the C library's snprintf. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/lib/fmt.h"

#define SAME(...)                                                        \
	do {                                                             \
		char mine[256], libc[256];                               \
		int a = fmt_snprintf(mine, sizeof(mine), __VA_ARGS__);   \
		int b = snprintf(libc, sizeof(libc), __VA_ARGS__);       \
		assert_string_equal(mine, libc);                         \
		assert_int_equal(a, b);                                  \
	} while (0)

static void conversions_match_libc(void **state)
{
	(void)state;
	SAME("plain");
	SAME("%d %i %u", -42, 7, 4000000000u);
	SAME("%x %X %lx %llx", 0xbeefu, 0xbeefu, 0xfee00000ul, 0x1234567890abcdefull);
	SAME("%lld %llu", (long long)INT64_MIN, (unsigned long long)UINT64_MAX);
	SAME("%zu %ld", (size_t)123, -5L);
	SAME("[%5d] [%-5d] [%05d]", 42, 42, 42);
	SAME("[%08llx]", 0xfeeull);
	SAME("[%-22s] [%9s] [%.3s] [%.*s]", "int-direct", "x", "abcdef", 2, "xyz");
	SAME("[%*d] [%-*d]", 6, 1, 6, 1);
	SAME("%c%c 100%%", 'o', 'k');
	SAME("[%05d]", -42);
	SAME("[%+d] [%+d] [%+7lld] [%+05d]", 3, -3, 0LL, 12);
	SAME("%s", "");
}

static void truncation_terminates_and_reports_length(void **state)
{
	char buf[8];

	(void)state;
	assert_int_equal(fmt_snprintf(buf, sizeof(buf), "%s", "0123456789"), 10);
	assert_string_equal(buf, "0123456");
	assert_int_equal(fmt_snprintf(NULL, 0, "%d", 12345), 5);
}

static void text_buf_flags_overflow(void **state)
{
	char data[16];
	struct text_buf tb;

	(void)state;
	tb_init(&tb, data, sizeof(data));
	tb_printf(&tb, "%s", "12345");
	tb_puts(&tb, "678");
	assert_int_equal(tb.len, 8);
	assert_false(tb.overflow);
	tb_printf(&tb, "%s", "this does not fit");
	assert_true(tb.overflow);
	assert_true(strlen(data) < sizeof(data));
}

/* "%.*s" reads no byte past its precision: config errors quote a key out
 * of the config text, which has no NUL after it (found by the config
 * fuzzer: ASan sees the read past this exact-size buffer). */
static void text_buf_continues_a_string(void **state)
{
	char buf[16] = "reason";
	struct text_buf tb;

	(void)state;
	tb_continue(&tb, buf, sizeof(buf));
	tb_printf(&tb, " (simulated)");
	assert_string_equal(buf, "reason (simulat");
	assert_true(tb.overflow);
	/* An unterminated buffer is cut at its last byte, never read past. */
	memset(buf, 'x', sizeof(buf));
	tb_continue(&tb, buf, sizeof(buf));
	assert_int_equal(tb.len, sizeof(buf) - 1);
	assert_int_equal(buf[sizeof(buf) - 1], '\0');
}

static void precision_stops_reading(void **state)
{
	char *key = malloc(3), out[16];

	(void)state;
	memcpy(key, "abc", 3);	/* no NUL */
	assert_int_equal(fmt_snprintf(out, sizeof(out), "[%.*s]", 3, key), 5);
	assert_string_equal(out, "[abc]");
	free(key);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(conversions_match_libc),
		cmocka_unit_test(truncation_terminates_and_reports_length),
		cmocka_unit_test(text_buf_flags_overflow),
		cmocka_unit_test(precision_stops_reading),
		cmocka_unit_test(text_buf_continues_a_string),
	};

	return cmocka_run_group_tests_name("fmt", tests, NULL, NULL);
}
