#include "bench/model/config.h"

const char *const config_finish_names[] = { "shutdown", "wait-key" };

const struct config_key config_keys[] = {
#define CONFIG_ROW(key, dflt, lo, hi, names)                               \
	{ #key, offsetof(struct irqlab_config, key), dflt, lo, hi, names },
	CONFIG_KEYS(CONFIG_ROW)
#undef CONFIG_ROW
};
const size_t config_key_count = sizeof(config_keys) / sizeof(config_keys[0]);

void config_defaults(struct irqlab_config *c)
{
	size_t i;

	for (i = 0; i < config_key_count; i++)
		config_set(c, &config_keys[i], config_keys[i].dflt);
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Whether the `alen` bytes at `a` are exactly the string `b`. */
static int token_eq(const char *a, size_t alen, const char *b)
{
	size_t i;

	for (i = 0; i < alen; i++)
		if (!b[i] || a[i] != b[i])
			return 0;
	return b[alen] == '\0';
}

/* Decimal or 0x-prefixed hex; returns 0 on malformed or overflowing text. */
static int parse_u64(const char *s, size_t n, uint64_t *out)
{
	unsigned base = 10;
	uint64_t v = 0;
	size_t i = 0;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == n)
		return 0;
	for (; i < n; i++) {
		unsigned d;

		if (s[i] >= '0' && s[i] <= '9')
			d = (unsigned)(s[i] - '0');
		else if (base == 16 && s[i] >= 'a' && s[i] <= 'f')
			d = (unsigned)(s[i] - 'a' + 10);
		else if (base == 16 && s[i] >= 'A' && s[i] <= 'F')
			d = (unsigned)(s[i] - 'A' + 10);
		else
			return 0;
		if (v > (UINT64_MAX - d) / base)
			return 0;
		v = v * base + d;
	}
	*out = v;
	return 1;
}

static int apply(struct irqlab_config *c, const char *key, size_t klen,
		 const char *val, size_t vlen, unsigned line,
		 struct text_buf *errors)
{
	size_t i;
	uint32_t n;
	uint64_t v;

	for (i = 0; i < config_key_count; i++) {
		const struct config_key *k = &config_keys[i];

		if (!token_eq(key, klen, k->name))
			continue;
		if (k->choices) {
			for (n = 0; n <= k->max; n++)
				if (token_eq(val, vlen, k->choices[n])) {
					config_set(c, k, n);
					return 0;
				}
			tb_printf(errors, "line %u: bad value '%.*s' for %.*s\n",
				  line, (int)vlen, val, (int)klen, key);
			return 1;
		}
		if (!parse_u64(val, vlen, &v) || v < k->min || v > k->max) {
			tb_printf(errors,
				  "line %u: %.*s must be a number from %u to %u\n",
				  line, (int)klen, key, k->min, k->max);
			return 1;
		}
		config_set(c, k, (uint32_t)v);
		return 0;
	}
	tb_printf(errors, "line %u: unknown key '%.*s'\n", line, (int)klen, key);
	return 1;
}

int config_parse(struct irqlab_config *c, const char *text, size_t len,
		 struct text_buf *errors)
{
	size_t pos = 0;
	unsigned line = 0;
	int problems = 0;

	while (pos < len) {
		size_t start = pos, end, eq, k0, k1, v0, v1;

		line++;
		while (pos < len && text[pos] != '\n')
			pos++;
		end = pos;
		pos++; /* past the newline */
		for (eq = start; eq < end && text[eq] != '#'; eq++)
			;
		end = eq; /* drop the comment */
		for (eq = start; eq < end && text[eq] != '='; eq++)
			;
		for (k0 = start; k0 < end && is_space(text[k0]); k0++)
			;
		if (k0 == end)
			continue; /* blank or comment-only */
		if (eq == end) {
			tb_printf(errors, "line %u: expected key = value\n", line);
			problems++;
			continue;
		}
		for (k1 = eq; k1 > k0 && is_space(text[k1 - 1]); k1--)
			;
		for (v0 = eq + 1; v0 < end && is_space(text[v0]); v0++)
			;
		for (v1 = end; v1 > v0 && is_space(text[v1 - 1]); v1--)
			;
		problems += apply(c, text + k0, k1 - k0, text + v0, v1 - v0,
				  line, errors);
	}
	return problems;
}

const char *config_value_name(const struct config_key *k, uint32_t v,
			      char *buf, size_t cap)
{
	if (k->choices && v <= k->max)
		return k->choices[v];
	fmt_snprintf(buf, cap, "%u", v);
	return buf;
}

void config_describe(const struct irqlab_config *c, struct text_buf *tb)
{
	char number[12];
	size_t i;

	for (i = 0; i < config_key_count; i++)
		tb_printf(tb, "%s%s=%s", i ? " " : "", config_keys[i].name,
			  config_value_name(&config_keys[i],
					    config_get(c, &config_keys[i]),
					    number, sizeof(number)));
}
