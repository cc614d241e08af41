#include "bench/model/config_parse.h"

/* quick = 1: these counts, whatever the file says (docs/run.md). */
static const struct {
	size_t offset;
	uint32_t value;
} quick_counts[] = {
	{ offsetof(struct irqlab_config, samples), 1000 },
	{ offsetof(struct irqlab_config, warmup), 100 },
	{ offsetof(struct irqlab_config, floor_samples), 200 },
	{ offsetof(struct irqlab_config, primitive_blocks), 20 },
	{ offsetof(struct irqlab_config, cold_samples), 100 },
	{ offsetof(struct irqlab_config, thrash_samples), 5 },
	{ offsetof(struct irqlab_config, gap_samples), 200 },
};

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

/* The key a misspelled one is nearest, at most two edits away
 * (insertions, deletions, substitutions), or NULL. */
static const char *nearest_key(const char *key, size_t klen)
{
	const char *best = NULL;
	unsigned best_d = 3;
	size_t i;

	if (klen > 32)
		return NULL;
	for (i = 0; i < config_key_count; i++) {
		const char *name = config_keys[i].name;
		size_t n = 0, a, b;
		unsigned row[34], prev, cur;

		while (name[n] && n <= 32)
			n++;
		if (n > 32)
			continue;
		for (b = 0; b <= n; b++)
			row[b] = (unsigned)b;
		for (a = 1; a <= klen; a++) {
			prev = row[0];
			row[0] = (unsigned)a;
			for (b = 1; b <= n; b++) {
				cur = row[b];
				row[b] = prev + ((key[a - 1] | 0x20) !=
						 (name[b - 1] | 0x20));
				if (cur + 1 < row[b])
					row[b] = cur + 1;
				if (row[b - 1] + 1 < row[b])
					row[b] = row[b - 1] + 1;
				prev = cur;
			}
		}
		if (row[n] < best_d) {
			best_d = row[n];
			best = name;
		}
	}
	return best;
}

static int is_separator(char c)
{
	return c == ',' || is_space(c);
}

/* A list key's value: all, none (where the key allows an empty set), or
 * names separated by commas or blanks. Returns 0 and reports the line's
 * problem when a name is unknown or nothing is selected. */
static int parse_list(const struct config_key *k, const char *val,
		      size_t vlen, unsigned line, struct config_problems *p,
		      uint32_t *out)
{
	uint32_t set = 0;
	size_t at = 0;

	if (token_eq(val, vlen, "all")) {
		*out = CONFIG_ALL;
		return 1;
	}
	if (k->min == 0 && token_eq(val, vlen, "none")) {
		*out = 0;
		return 1;
	}
	while (at < vlen) {
		size_t start, n;
		unsigned i;

		while (at < vlen && is_separator(val[at]))
			at++;
		start = at;
		while (at < vlen && !is_separator(val[at]))
			at++;
		n = at - start;
		if (!n)
			break;
		for (i = 0; k->choices[i] && !token_eq(val + start, n,
							  k->choices[i]); i++)
			;
		if (!k->choices[i]) {
			tb_printf(&p->errors, "line %u: %s: unknown name '%.*s' "
				  "(known:", line, k->name, (int)n, val + start);
			for (i = 0; k->choices[i]; i++)
				tb_printf(&p->errors, " %s", k->choices[i]);
			tb_printf(&p->errors, "; or all)\n");
			p->n_errors++;
			return 0;
		}
		set |= 1u << i;
	}
	if (!set) {
		tb_printf(&p->errors, "line %u: %s selects nothing: name what "
			  "runs, or all\n", line, k->name);
		p->n_errors++;
		return 0;
	}
	*out = set;
	return 1;
}

/* Returns the key's index when the line set it, else -1. */
static int apply(struct irqlab_config *c, const char *key, size_t klen,
		 const char *val, size_t vlen, unsigned line,
		 struct config_problems *p)
{
	const char *near;
	size_t i;
	uint32_t n;
	uint64_t v;

	for (i = 0; i < config_key_count; i++) {
		const struct config_key *k = &config_keys[i];

		if (!token_eq(key, klen, k->name))
			continue;
		if (k->list) {
			if (!parse_list(k, val, vlen, line, p, &n))
				return -1;
			config_set(c, k, n);
			return (int)i;
		}
		if (k->choices) {
			for (n = 0; n <= k->max; n++)
				if (token_eq(val, vlen, k->choices[n])) {
					config_set(c, k, n);
					return (int)i;
				}
			tb_printf(&p->errors, "line %u: bad value '%.*s' for %.*s\n",
				  line, (int)vlen, val, (int)klen, key);
			p->n_errors++;
			return -1;
		}
		if (!parse_u64(val, vlen, &v) || v < k->min || v > k->max) {
			tb_printf(&p->errors,
				  "line %u: %.*s must be a number from %u to %u, "
				  "not '%.*s'\n", line, (int)klen, key, k->min,
				  k->max, (int)vlen, val);
			p->n_errors++;
			return -1;
		}
		config_set(c, k, (uint32_t)v);
		return (int)i;
	}
	near = nearest_key(key, klen);
	if (near)
		tb_printf(&p->warnings, "line %u: unknown key '%.*s' ignored "
			  "(did you mean '%s'?)\n", line, (int)klen, key, near);
	else
		tb_printf(&p->warnings, "line %u: unknown key '%.*s' ignored\n",
			  line, (int)klen, key);
	p->n_warnings++;
	return -1;
}

/* quick = 1 sets every count to its quick value, whatever the file
 * says: a copy of the shipped file, which sets them all, then runs
 * short with one line changed. The counts used are in the results, and
 * the runner prints them. */
static void apply_quick(struct irqlab_config *c)
{
	size_t i, k;

	if (!c->quick)
		return;
	for (i = 0; i < sizeof(quick_counts) / sizeof(quick_counts[0]); i++)
		for (k = 0; k < config_key_count; k++)
			if (config_keys[k].offset == quick_counts[i].offset)
				config_set(c, &config_keys[k],
					   quick_counts[i].value);
}

/* handoff = serial writes nothing to the variable store, and a series
 * (runs > 1) keeps its earlier runs there for the next boot: the two
 * cannot go together, and the run stops before it measures. */
static void check_serial_series(const struct irqlab_config *c,
				struct config_problems *p)
{
	if (!config_hands_over_serial(c) || c->runs <= 1)
		return;
	tb_printf(&p->errors, "runs = %u with handoff = serial: a series "
		  "keeps its earlier runs in the variable store, where "
		  "handoff = serial writes nothing; set runs = 1\n", c->runs);
	p->n_errors++;
}

/* A UTF-8 byte order mark, which Notepad writes at a file's start. */
static const char utf8_bom[] = "\xef\xbb\xbf";

unsigned config_parse(struct irqlab_config *c, const char *text, size_t len,
		      struct config_problems *p)
{
	size_t pos = 0;
	unsigned line = 0;

	/* Taken as the text's start, not as part of the first key. */
	if (len >= 3 && text[0] == utf8_bom[0] && text[1] == utf8_bom[1] &&
	    text[2] == utf8_bom[2])
		pos = 3;

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
		(void)apply(c, text + k0, k1 - k0, text + v0, v1 - v0, line, p);
	}
	apply_quick(c);
	check_serial_series(c, p);
	return p->n_errors;
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
