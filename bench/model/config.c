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

void config_problems_init(struct config_problems *p, char *errors,
			  size_t errors_cap, char *warnings, size_t warnings_cap)
{
	tb_init(&p->errors, errors, errors_cap);
	tb_init(&p->warnings, warnings, warnings_cap);
	p->n_errors = p->n_warnings = 0;
}

static void apply(struct irqlab_config *c, const char *key, size_t klen,
		  const char *val, size_t vlen, unsigned line,
		  struct config_problems *p)
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
					return;
				}
			tb_printf(&p->errors, "line %u: bad value '%.*s' for %.*s\n",
				  line, (int)vlen, val, (int)klen, key);
			p->n_errors++;
			return;
		}
		if (!parse_u64(val, vlen, &v) || v < k->min || v > k->max) {
			tb_printf(&p->errors,
				  "line %u: %.*s must be a number from %u to %u\n",
				  line, (int)klen, key, k->min, k->max);
			p->n_errors++;
			return;
		}
		config_set(c, k, (uint32_t)v);
		return;
	}
	tb_printf(&p->warnings, "line %u: unknown key '%.*s' ignored\n", line,
		  (int)klen, key);
	p->n_warnings++;
}

unsigned config_parse(struct irqlab_config *c, const char *text, size_t len,
		      struct config_problems *p)
{
	size_t pos = 0;
	unsigned line = 0;

	while (pos < len) {
		size_t start = pos, end, eq, k0, k1, v0, v1;

		line++;
		while (pos < len && text[pos] != '\n' && text[pos] != '\0')
			pos++;
		if (pos < len && text[pos] == '\0') {
			tb_printf(&p->errors, "line %u: a NUL byte: this is not "
				  "a text file\n", line);
			p->n_errors++;
			break;
		}
		end = pos;
		pos++; /* past the newline */
		if (end - start > CONFIG_MAX_LINE) {
			tb_printf(&p->errors, "line %u: longer than %u bytes\n",
				  line, CONFIG_MAX_LINE);
			p->n_errors++;
			continue;
		}
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
			tb_printf(&p->errors, "line %u: expected key = value\n",
				  line);
			p->n_errors++;
			continue;
		}
		for (k1 = eq; k1 > k0 && is_space(text[k1 - 1]); k1--)
			;
		for (v0 = eq + 1; v0 < end && is_space(text[v0]); v0++)
			;
		for (v1 = end; v1 > v0 && is_space(text[v1 - 1]); v1--)
			;
		apply(c, text + k0, k1 - k0, text + v0, v1 - v0, line, p);
	}
	return p->n_errors;
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

void config_warnings_note(const struct config_problems *p, char *out,
			  size_t cap)
{
	struct text_buf tb;
	const char *line = p->warnings.data;
	unsigned shown = 0;

	tb_init(&tb, out, cap);
	while (line && *line && shown < p->n_warnings) {
		size_t len = 0, before = tb.len;

		while (line[len] && line[len] != '\n')
			len++;
		/* Room for this line and for the note of what does not fit. */
		if (tb.len + len + 20 >= cap)
			break;
		tb_printf(&tb, "%s%.*s", shown ? "; " : "", (int)len, line);
		if (tb.overflow) {
			tb.len = before;
			break;
		}
		shown++;
		line += len + (line[len] == '\n');
	}
	if (shown < p->n_warnings)
		tb_printf(&tb, "%s(and %u more)", shown ? "; " : "",
			  p->n_warnings - shown);
}
