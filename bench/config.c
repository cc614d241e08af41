#include "config.h"

void config_defaults(struct irqlab_config *c)
{
	*c = (struct irqlab_config){
		.samples = CONFIG_DEFAULT_SAMPLES,
		.warmup = CONFIG_DEFAULT_WARMUP,
		.floor_samples = CONFIG_DEFAULT_FLOOR_SAMPLES,
		.primitive_blocks = CONFIG_DEFAULT_PRIMITIVE_BLOCKS,
		.cold_samples = CONFIG_DEFAULT_COLD_SAMPLES,
		.thrash_samples = CONFIG_DEFAULT_THRASH_SAMPLES,
		.gap_samples = CONFIG_DEFAULT_GAP_SAMPLES,
		.runs = 1,
		.unstable_pct = CONFIG_DEFAULT_UNSTABLE_PCT,
		.int_vector = CONFIG_DEFAULT_INT_VECTOR,
		.finish = FINISH_SHUTDOWN,
	};
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

struct number_key {
	const char *name;
	uint64_t min, max;
	size_t offset;
	unsigned size;
};

#define NUMBER_KEY(field, lo, hi)                                          \
	{ #field, lo, hi, offsetof(struct irqlab_config, field),           \
	  sizeof(((struct irqlab_config *)0)->field) }

static const struct number_key number_keys[] = {
	NUMBER_KEY(samples, 1, CONFIG_MAX_SAMPLES),
	NUMBER_KEY(warmup, 0, CONFIG_MAX_SAMPLES),
	NUMBER_KEY(floor_samples, 1, CONFIG_MAX_SAMPLES),
	NUMBER_KEY(primitive_blocks, 1, CONFIG_MAX_SAMPLES),
	NUMBER_KEY(cold_samples, 1, CONFIG_MAX_SAMPLES),
	NUMBER_KEY(thrash_samples, 1, CONFIG_MAX_SAMPLES),
	NUMBER_KEY(gap_samples, 1, CONFIG_MAX_SAMPLES),
	NUMBER_KEY(runs, 1, CONFIG_MAX_RUNS),
	NUMBER_KEY(unstable_pct, 1, 100),
	/* 0-31 are exceptions; 0xff is kept for the APIC spurious vector. */
	NUMBER_KEY(int_vector, 32, 254),
	NUMBER_KEY(selftest_fault, 0, 1),
	NUMBER_KEY(selftest_smi, 0, 1),
};

static void store(struct irqlab_config *c, const struct number_key *k,
		  uint64_t v)
{
	uint8_t *p = (uint8_t *)c + k->offset;

	if (k->size == 1)
		*p = (uint8_t)v;
	else
		*(uint32_t *)(void *)p = (uint32_t)v;
}

static int apply(struct irqlab_config *c, const char *key, size_t klen,
		 const char *val, size_t vlen, unsigned line,
		 struct text_buf *errors)
{
	size_t i;
	uint64_t v;

	if (token_eq(key, klen, "finish")) {
		if (token_eq(val, vlen, "shutdown"))
			c->finish = FINISH_SHUTDOWN;
		else if (token_eq(val, vlen, "wait-key"))
			c->finish = FINISH_WAIT_KEY;
		else
			goto bad_value;
		return 0;
	}
	for (i = 0; i < sizeof(number_keys) / sizeof(number_keys[0]); i++) {
		const struct number_key *k = &number_keys[i];

		if (!token_eq(key, klen, k->name))
			continue;
		if (!parse_u64(val, vlen, &v) || v < k->min || v > k->max) {
			tb_printf(errors,
				  "line %u: %.*s must be a number from %llu to %llu\n",
				  line, (int)klen, key,
				  (unsigned long long)k->min,
				  (unsigned long long)k->max);
			return 1;
		}
		store(c, k, v);
		return 0;
	}
	tb_printf(errors, "line %u: unknown key '%.*s'\n", line, (int)klen, key);
	return 1;
bad_value:
	tb_printf(errors, "line %u: bad value '%.*s' for %.*s\n", line,
		  (int)vlen, val, (int)klen, key);
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
