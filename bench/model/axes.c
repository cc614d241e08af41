#include "bench/model/axes.h"

#include "arch/lib/fmt.h"

#define NAME(id, name, ...) name,
const char *const scheme_names[] = { SCHEME_LIST(NAME) NULL };
const char *const source_names[] = { SOURCE_LIST(NAME) NULL };
const char *const variant_names[] = { "", VARIANT_LIST(NAME) NULL };
/* A config's variants list holds a bit per name but "none", below
 * CONFIG_ALL's 32 (bench/model/config.h): what bounds the files of
 * `make ENTRY=...` (image/your-entry.py, FILES_MAX). */
_Static_assert(VARIANT_END - 1 < 32, "the variants list has a bit each");
const char *const apic_mode_names[] = { APIC_MODE_LIST(NAME) NULL };
const char *const cpu_mode_names[] = { CPU_MODE_LIST(NAME) NULL };
const char *const selftest_names[] = { "", SELFTEST_LIST(NAME) NULL };
#undef NAME

#define SCHEME_MODE(id, name, mode, ...) CPU_MODE_##mode,
static const uint8_t scheme_modes[] = { SCHEME_LIST(SCHEME_MODE) };
#undef SCHEME_MODE
#define SCHEME_SEED(id, name, mode, seed, words) seed,
static const char *const scheme_seeds[] = { SCHEME_LIST(SCHEME_SEED) };
#undef SCHEME_SEED
#define SCHEME_WORDS(id, name, mode, seed, words) words,
static const char *const scheme_word_list[] = { SCHEME_LIST(SCHEME_WORDS) };
#undef SCHEME_WORDS
#define VARIANT_KIND(id, name, kind, ...) VARIANT_KIND_##kind,
static const uint8_t variant_kinds[] = { 0, VARIANT_LIST(VARIANT_KIND) };
#undef VARIANT_KIND
#define VARIANT_SEED(id, name, kind, seed, ...) seed,
static const char *const variant_seeds[] = { "", VARIANT_LIST(VARIANT_SEED) };
#undef VARIANT_SEED
#define VARIANT_WORDS(id, name, kind, seed, handler, setup, against,       \
			  decision, words)                                  \
	words,
static const char *const variant_word_list[] = { "",
						 VARIANT_LIST(VARIANT_WORDS) };
#undef VARIANT_WORDS

static const char *by_id(const char *const *table, unsigned n, unsigned id)
{
	return id < n ? table[id] : "?";
}

const char *scheme_name(unsigned scheme)
{
	return by_id(scheme_names, SCHEME_COUNT, scheme);
}

int source_between_cpus(unsigned source)
{
	return source == SOURCE_IPI_CPU_ROUNDTRIP ||
	       source == SOURCE_IPI_CPU_ROUNDTRIP_HALTED ||
	       source == SOURCE_IPI_CPU_ROUNDTRIP_MWAIT ||
	       source == SOURCE_IPI_CPU_NMI;
}

int source_target_waits(unsigned source)
{
	return source == SOURCE_IPI_CPU_ROUNDTRIP_HALTED ||
	       source == SOURCE_IPI_CPU_ROUNDTRIP_MWAIT;
}

const char *source_name(unsigned source)
{
	return by_id(source_names, SOURCE_COUNT, source);
}

const char *variant_name(unsigned variant)
{
	return by_id(variant_names, VARIANT_END, variant);
}

const char *cpu_mode_name(unsigned mode)
{
	return by_id(cpu_mode_names, CPU_MODE_COUNT, mode);
}

const char *apic_mode_name(unsigned mode)
{
	return by_id(apic_mode_names, APIC_MODE_COUNT, mode);
}

enum cpu_mode scheme_cpu_mode(unsigned scheme)
{
	return scheme < SCHEME_COUNT ? (enum cpu_mode)scheme_modes[scheme]
				     : CPU_MODE_LONG;
}

enum scheme_id scheme_floor(enum cpu_mode mode)
{
	unsigned s;

	for (s = 0; s < SCHEME_COUNT; s++)
		if (scheme_modes[s] == mode)
			return (enum scheme_id)s;
	return SCHEME_DIRECT;
}

const char *scheme_words(unsigned scheme)
{
	return by_id(scheme_word_list, SCHEME_COUNT, scheme);
}

const char *scheme_seed(unsigned scheme)
{
	return by_id(scheme_seeds, SCHEME_COUNT, scheme);
}

const char *variant_words(unsigned variant)
{
	return by_id(variant_word_list, VARIANT_END, variant);
}

const char *variant_seed(unsigned variant)
{
	return by_id(variant_seeds, VARIANT_END, variant);
}

enum variant_kind variant_kind_of(unsigned variant)
{
	return variant < VARIANT_END ? (enum variant_kind)variant_kinds[variant]
				     : VARIANT_KIND_ENTRY;
}

void row_name(const struct row_id *id, char *out, size_t cap)
{
	if (id->selftest != SELFTEST_ABSENT) {
		fmt_snprintf(out, cap, "%s",
			     by_id(selftest_names, SELFTEST_END, id->selftest));
		return;
	}
	struct text_buf tb;

	tb_init(&tb, out, cap);
	tb_printf(&tb, "%s-%s%s%s%s%s%s", source_name(id->source),
		  scheme_name(id->scheme),
		  id->variant != VARIANT_ABSENT ? "+" : "",
		  id->variant != VARIANT_ABSENT ? variant_name(id->variant) : "",
		  id->cache != VARIANT_ABSENT ? "+" : "",
		  id->cache != VARIANT_ABSENT ? variant_name(id->cache) : "",
		  id->x2apic_repeat ? "@x2apic" : "");
	if (id->cpu)
		tb_printf(&tb, "@cpu%u", id->cpu - 1u);
}

void row_variant_text(const struct row_id *id, char *out, size_t cap)
{
	int both = id->variant != VARIANT_ABSENT && id->cache != VARIANT_ABSENT;

	fmt_snprintf(out, cap, "%s%s%s", variant_name(id->variant),
		     both ? "+" : "", variant_name(id->cache));
}

int row_id_eq(const struct row_id *a, const struct row_id *b)
{
	return a->source == b->source && a->scheme == b->scheme &&
	       a->variant == b->variant && a->cache == b->cache &&
	       a->x2apic_repeat == b->x2apic_repeat &&
	       a->selftest == b->selftest && a->cpu == b->cpu;
}

int row_id_valid(const struct row_id *id)
{
	return id->source < SOURCE_COUNT && id->scheme < SCHEME_COUNT &&
	       id->variant < VARIANT_END &&
	       (id->cache == VARIANT_ABSENT ||
		(id->cache < VARIANT_END &&
		 variant_kind_of(id->cache) == VARIANT_KIND_CACHE)) &&
	       id->x2apic_repeat <= 1 &&
	       id->selftest < SELFTEST_END && id->cpu <= ROW_CPU_MAX &&
	       (id->cpu == 0 || id->selftest == SELFTEST_ABSENT);
}
