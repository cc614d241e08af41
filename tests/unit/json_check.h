/* A strict RFC 8259 syntax checker, so tests can assert that writer output
 * parses without trusting the writer's own idea of JSON. */
#ifndef IRQLAB_TESTS_JSON_CHECK_H
#define IRQLAB_TESTS_JSON_CHECK_H

#include <string.h>

struct jc {
	const char *p;
	int ok;
};

static void jc_ws(struct jc *j)
{
	while (*j->p == ' ' || *j->p == '\n' || *j->p == '\r' || *j->p == '\t')
		j->p++;
}

static void jc_value(struct jc *j);

static void jc_string(struct jc *j)
{
	if (*j->p != '"') {
		j->ok = 0;
		return;
	}
	j->p++;
	while (j->ok && *j->p != '"') {
		if (!*j->p) {
			j->ok = 0;	/* unterminated */
			return;
		}
		unsigned char c = (unsigned char)*j->p++;

		if (c < 0x20) {
			j->ok = 0;	/* raw control characters are illegal */
		} else if (c == '\\') {
			c = (unsigned char)*j->p++;
			if (c == 'u') {
				int i;
				for (i = 0; i < 4 && j->ok; i++)
					if (!*j->p ||
					    !strchr("0123456789abcdefABCDEF", *j->p++))
						j->ok = 0;
			} else if (!c) {
				j->ok = 0;
				j->p--;	/* stay on the terminator */
			} else if (!strchr("\"\\/bfnrt", c)) {
				j->ok = 0;
			}
		}
	}
	if (j->ok)
		j->p++;
}

static void jc_number(struct jc *j)
{
	const char *start = j->p;

	if (*j->p == '-')
		j->p++;
	if (*j->p == '0')
		j->p++;
	else if (*j->p >= '1' && *j->p <= '9')
		while (*j->p >= '0' && *j->p <= '9')
			j->p++;
	else
		j->ok = 0;
	if (*j->p == '.') {
		j->p++;
		if (!(*j->p >= '0' && *j->p <= '9'))
			j->ok = 0;
		while (*j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p == start)
		j->ok = 0;
}

static void jc_container(struct jc *j, char close, int object)
{
	j->p++;
	jc_ws(j);
	if (*j->p == close) {
		j->p++;
		return;
	}
	while (j->ok) {
		jc_ws(j);
		if (object) {
			jc_string(j);
			jc_ws(j);
			if (!j->ok || *j->p != ':') {
				j->ok = 0;
				return;
			}
			j->p++;
		}
		jc_value(j);
		jc_ws(j);
		if (!j->ok)
			return;
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p != close)
			j->ok = 0;
		else
			j->p++;
		return;
	}
}

static void jc_value(struct jc *j)
{
	jc_ws(j);
	if (!j->ok)
		return;
	if (*j->p == '{')
		jc_container(j, '}', 1);
	else if (*j->p == '[')
		jc_container(j, ']', 0);
	else if (*j->p == '"')
		jc_string(j);
	else if (!strncmp(j->p, "true", 4))
		j->p += 4;
	else if (!strncmp(j->p, "false", 5))
		j->p += 5;
	else if (!strncmp(j->p, "null", 4))
		j->p += 4;
	else
		jc_number(j);
}

static inline int json_is_valid(const char *text)
{
	struct jc j = { text, 1 };

	jc_value(&j);
	jc_ws(&j);
	return j.ok && *j.p == '\0';
}

#endif
