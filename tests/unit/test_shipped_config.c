/* image/irqlab.cfg's lists of names against the names the parser
 * accepts (config_keys[], whose tables are made from arch/matrix.h and
 * SIMULATE_LIST): a name added to a list and not to the file, or left in
 * the file after it leaves a list, fails here.
 *
 * How the file documents them:
 * - schemes, sources, variants and apic_modes under "What runs", each a
 *   comment line "#   <key>:" with its names, continued on comment lines
 *   indented deeper; words in parentheses are remarks, not names;
 * - simulate in the paragraph above its line, one "#   <name>  what"
 *   line a name;
 * - the keys set by one name (finish, handoff, matrix_cpus_rows) and the
 *   numbered lists (cpus, matrix_cpus) in prose: each name, and the
 *   numbers' range as "0 to <last>", appear in the paragraph above the
 *   key's line. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/config.h"

/* make runs the tests from the repository's root. */
#define SHIPPED_CONFIG "image/irqlab.cfg"
#define MAX_LINES 512
#define MAX_NAMES 64
#define NAME_MAX_LEN 48

static char text[CONFIG_MAX_BYTES + 1];
static char *lines[MAX_LINES];
static size_t line_count;

struct names {
	char name[MAX_NAMES][NAME_MAX_LEN];
	size_t count;
};

static int setup_file(void **state)
{
	FILE *f = fopen(SHIPPED_CONFIG, "r");
	size_t n;
	char *at;

	(void)state;
	if (!f)
		return -1;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	line_count = 0;
	for (at = text; *at && line_count < MAX_LINES;) {
		char *end = strchr(at, '\n');

		lines[line_count++] = at;
		if (!end)
			break;
		*end = '\0';
		at = end + 1;
	}
	return 0;
}

static const struct config_key *key_named(const char *name)
{
	size_t i;

	for (i = 0; i < config_key_count; i++)
		if (!strcmp(config_keys[i].name, name))
			return &config_keys[i];
	fail_msg("no config key %s", name);
	return NULL;
}

/* The index of the line "<key> = ...". */
static size_t setting_line(const char *key)
{
	size_t i, n = strlen(key);

	for (i = 0; i < line_count; i++)
		if (!strncmp(lines[i], key, n) && lines[i][n] == ' ')
			return i;
	fail_msg("%s sets no %s", SHIPPED_CONFIG, key);
	return 0;
}

/* The comment lines directly above `key`'s line: its paragraph. */
static size_t paragraph_start(const char *key)
{
	size_t at = setting_line(key);

	while (at > 0 && lines[at - 1][0] == '#')
		at--;
	return at;
}

static void add_name(struct names *out, const char *word, size_t n)
{
	size_t i;

	assert_true(n < NAME_MAX_LEN);
	assert_true(out->count < MAX_NAMES);
	memcpy(out->name[out->count], word, n);
	out->name[out->count][n] = '\0';
	for (i = 0; i < out->count; i++)
		if (!strcmp(out->name[i], out->name[out->count]))
			fail_msg("%s lists %s twice", SHIPPED_CONFIG,
				 out->name[i]);
	out->count++;
}

/* The words of `s` outside parentheses; `depth` carries an open
 * parenthesis over to the next line. */
static void add_words(struct names *out, const char *s, int *depth)
{
	while (*s) {
		size_t n = 0;

		if (*s == '(' || *s == ')') {
			*depth += *s == '(' ? 1 : -1;
			s++;
			continue;
		}
		if (*s == ' ' || *s == ',') {
			s++;
			continue;
		}
		while (s[n] && s[n] != ' ' && s[n] != ',' && s[n] != '(' &&
		       s[n] != ')')
			n++;
		if (!*depth)
			add_name(out, s, n);
		s += n;
	}
}

/* "#   <key>:" and its continuation lines ("#" then five blanks or
 * more). Returns 0 where the file has no such label. */
static int labelled_names(const char *key, struct names *out)
{
	char label[64];
	size_t i, n;
	int depth = 0;

	n = (size_t)snprintf(label, sizeof(label), "#   %s:", key);
	for (i = 0; i < line_count; i++)
		if (!strncmp(lines[i], label, n))
			break;
	if (i == line_count)
		return 0;
	add_words(out, lines[i] + n, &depth);
	for (i++; i < line_count && !strncmp(lines[i], "#     ", 6); i++)
		add_words(out, lines[i] + 1, &depth);
	assert_int_equal(depth, 0);
	return 1;
}

/* The paragraph's "#   <name>  what it is" lines: three blanks, the
 * name, two blanks. */
static void one_a_line_names(const char *key, struct names *out)
{
	size_t i, n;

	for (i = paragraph_start(key); i < setting_line(key); i++) {
		const char *s = lines[i];

		if (strncmp(s, "#   ", 4) || s[4] == ' ')
			continue;
		for (n = 0; s[4 + n] && s[4 + n] != ' '; n++)
			;
		if (!strncmp(s + 4 + n, "  ", 2))
			add_name(out, s + 4, n);
	}
}

static int listed(const struct names *in, const char *name)
{
	size_t i;

	for (i = 0; i < in->count; i++)
		if (!strcmp(in->name[i], name))
			return 1;
	return 0;
}

static int accepted(const struct config_key *k, const char *name)
{
	size_t i;

	for (i = 0; k->choices[i]; i++)
		if (!strcmp(k->choices[i], name))
			return 1;
	return 0;
}

/* Both ways: every name the parser takes for `key` is in the file's
 * list, and every name there is one it takes. */
static void list_matches(const char *key)
{
	const struct config_key *k = key_named(key);
	struct names documented = { .count = 0 };
	size_t i;

	assert_true(k->list);
	if (!labelled_names(key, &documented))
		one_a_line_names(key, &documented);
	for (i = 0; k->choices[i]; i++)
		if (!listed(&documented, k->choices[i]))
			fail_msg("%s: %s takes '%s', which the file does not "
				 "list", SHIPPED_CONFIG, key, k->choices[i]);
	for (i = 0; i < documented.count; i++)
		if (!accepted(k, documented.name[i]))
			fail_msg("%s lists '%s' under %s, which the parser "
				 "refuses", SHIPPED_CONFIG, documented.name[i],
				 key);
}

static void the_matrix_lists_match_the_parser(void **state)
{
	(void)state;
	list_matches("schemes");
	list_matches("sources");
	list_matches("variants");
	list_matches("apic_modes");
}

static void the_simulate_list_matches_the_parser(void **state)
{
	(void)state;
	list_matches("simulate");
}

static int is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

/* Whether `word` stands alone somewhere in `key`'s paragraph. */
static int paragraph_says(const char *key, const char *word)
{
	size_t i, n = strlen(word);

	for (i = paragraph_start(key); i < setting_line(key); i++) {
		const char *at = lines[i];

		while ((at = strstr(at, word))) {
			if ((at == lines[i] || !is_name_char(at[-1])) &&
			    !is_name_char(at[n]))
				return 1;
			at++;
		}
	}
	return 0;
}

/* The prose can only be checked one way: each name, or the numbers'
 * range, is said. */
static void prose_names_every_choice(const char *key)
{
	const struct config_key *k = key_named(key);
	const char *last_number = NULL;
	char range[32];
	size_t i, count = k->list ? SIZE_MAX : (size_t)k->max + 1;

	for (i = 0; i < count && k->choices[i]; i++) {
		if (isdigit((unsigned char)k->choices[i][0])) {
			last_number = k->choices[i];
			continue;
		}
		if (!paragraph_says(key, k->choices[i]))
			fail_msg("%s: %s takes '%s', which its paragraph does "
				 "not name", SHIPPED_CONFIG, key, k->choices[i]);
	}
	if (!last_number)
		return;
	snprintf(range, sizeof(range), "0 to %s", last_number);
	if (!paragraph_says(key, range))
		fail_msg("%s: %s takes 0 to %s, which its paragraph does not "
			 "say", SHIPPED_CONFIG, key, last_number);
}

static void the_prose_names_every_choice(void **state)
{
	(void)state;
	prose_names_every_choice("finish");
	prose_names_every_choice("handoff");
	prose_names_every_choice("matrix_cpus_rows");
	prose_names_every_choice("cpus");
	prose_names_every_choice("matrix_cpus");
}

/* Every key set by name is one of the above: a new one is added here. */
static void every_named_key_is_checked(void **state)
{
	static const char *const checked[] = {
		"schemes", "sources", "variants", "apic_modes", "simulate",
		"finish", "matrix_cpus_rows", "cpus", "matrix_cpus", "handoff",
	};
	size_t i, j;

	(void)state;
	for (i = 0; i < config_key_count; i++) {
		if (!config_keys[i].choices)
			continue;
		for (j = 0; j < sizeof(checked) / sizeof(checked[0]); j++)
			if (!strcmp(checked[j], config_keys[i].name))
				break;
		if (j == sizeof(checked) / sizeof(checked[0]))
			fail_msg("key %s takes names this test does not check "
				 "against %s", config_keys[i].name,
				 SHIPPED_CONFIG);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_matrix_lists_match_the_parser),
		cmocka_unit_test(the_simulate_list_matches_the_parser),
		cmocka_unit_test(the_prose_names_every_choice),
		cmocka_unit_test(every_named_key_is_checked),
	};

	return cmocka_run_group_tests(tests, setup_file, NULL);
}
