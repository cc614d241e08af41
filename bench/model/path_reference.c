#include "bench/model/path_reference.h"

#include "arch/lib/fmt.h"

/* The next word of a line into out (up to cap - 1 characters); returns
 * where it ended, or NULL when it was longer. */
static const char *word(const char *at, const char *end, char *out,
			size_t cap)
{
	size_t n = 0;

	while (at < end && (*at == ' ' || *at == '\t'))
		at++;
	while (at < end && *at != ' ' && *at != '\t') {
		if (n + 1 >= cap)
			return 0;
		out[n++] = *at++;
	}
	out[n] = 0;
	return at;
}

static int number(const char *s, uint32_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || (v = v * 10 + (uint64_t)(*s - '0')) >
						    0xffffffffull)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int hex16(const char *s)
{
	unsigned i;

	for (i = 0; i < 16; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return -1;
	return s[16] ? -1 : 0;
}

/* One line; 0, or -1 with why. */
static int line(const char *at, const char *end, struct path_reference *out,
		char *why, size_t cap, unsigned number_of_line)
{
	char key[8], name[RESULTS_ROW_NAME_LEN], value[24], rest[2];

	if (!(at = word(at, end, key, sizeof(key))))
		goto refused;
	if (!key[0] || key[0] == '#')
		return 0;
	if (str_eq(key, "build")) {
		if (!(at = word(at, end, value, sizeof(value))) || hex16(value) ||
		    !word(at, end, rest, sizeof(rest)) || rest[0])
			goto refused;
		fmt_snprintf(out->build, sizeof(out->build), "%s", value);
		return 0;
	}
	if (str_eq(key, "row")) {
		uint32_t n;

		if (!(at = word(at, end, name, sizeof(name))) || !name[0] ||
		    !(at = word(at, end, value, sizeof(value))) ||
		    number(value, &n) || !word(at, end, rest, sizeof(rest)) ||
		    rest[0])
			goto refused;
		if (out->n >= PATH_REFERENCE_MAX_ROWS) {
			fmt_snprintf(why, cap, "line %u: more than %u rows",
				     number_of_line, PATH_REFERENCE_MAX_ROWS);
			return -1;
		}
		fmt_snprintf(out->row[out->n].name, sizeof(out->row[out->n].name),
			     "%s", name);
		out->row[out->n++].round_trip = n;
		return 0;
	}
refused:
	fmt_snprintf(why, cap, "line %u: not \"build HEX16\", \"row NAME N\" or "
		     "a comment", number_of_line);
	return -1;
}

int path_reference_parse(const char *text, size_t len,
			 struct path_reference *out, char *why, size_t cap)
{
	const char *at = text, *end = text + len;
	unsigned n = 1;

	out->build[0] = 0;
	out->n = 0;
	while (at < end) {
		const char *eol = at;

		while (eol < end && *eol != '\n')
			eol++;
		if (line(at, eol > at && eol[-1] == '\r' ? eol - 1 : eol, out,
			 why, cap, n))
			return -1;
		at = eol + 1;
		n++;
	}
	if (!out->build[0]) {
		fmt_snprintf(why, cap, "no \"build\" line: the reference names no "
			     "build");
		return -1;
	}
	return 0;
}

int64_t path_reference_find(const struct path_reference *ref,
			    const char *name)
{
	uint32_t i;

	for (i = 0; i < ref->n && i < PATH_REFERENCE_MAX_ROWS; i++)
		if (str_eq(ref->row[i].name, name))
			return ref->row[i].round_trip;
	return -1;
}
