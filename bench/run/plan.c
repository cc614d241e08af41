#include "bench/run/plan.h"

#include "apic/lapic.h"
#include "arch/lib/fmt.h"
#include "bench/run/apic_mode.h"
#include "bench/run/plan_select.h"

struct builder {
	struct plan_row *rows;
	size_t cap, n;
	const struct irqlab_config *config;
	struct source_lines *lines;
};

/* Appends a row; the caller fills in what the row is. */
static struct plan_row *add(struct builder *b, uint8_t kind)
{
	struct plan_row *row;

	if (b->n == b->cap)
		return 0;
	row = &b->rows[b->n++];
	*row = (struct plan_row){ .kind = kind, .lines = b->lines };
	return row;
}

static uint32_t at_most(uint32_t want, uint32_t cap)
{
	return want < cap ? want : cap;
}

static const char *scheme_unsupported(const struct dispatch_scheme *s)
{
	return s->unsupported ? s->unsupported() : 0;
}

/* The source INT n rows come from: the entry variants, the cache states
 * and the self-tests all use it. */
static const struct irq_source *instruction_source(void)
{
	size_t i;

	for (i = 0; i < irq_source_count; i++)
		if (irq_sources[i].kind == SOURCE_RAISED_BY_INSTRUCTION)
			return &irq_sources[i];
	return 0;
}

/* A row of `source` under `scheme`, with `variant` (VARIANT_ABSENT for
 * none) in the given APIC pass. */
static struct row_id row_of(const struct irq_source *source, uint8_t scheme,
			    uint8_t variant, int x2apic_repeat)
{
	return (struct row_id){ .source = source->id, .scheme = scheme,
				.variant = variant,
				.x2apic_repeat = (uint8_t)x2apic_repeat };
}

/* The same in a cache state. */
static struct row_id row_in(const struct irq_source *source, uint8_t scheme,
			    uint8_t variant, uint8_t cache)
{
	struct row_id id = row_of(source, scheme, variant, 0);

	id.cache = cache;
	return id;
}

/* Your entry code (docs/your-entry.md): each file's handler on one
 * source in one APIC mode, against the source's direct row, where the
 * source takes the row's vector: not a fixed vector's (the 8259's),
 * nor another processor's answer. Where the source cannot run here,
 * the row says why, as its direct row does. */
static void add_yours(struct builder *b, const struct irq_source *src,
		      enum lapic_mode mode, int repeat)
{
	size_t i;

	if (src->vector || src->kind == SOURCE_OTHER_CPU)
		return;
	for (i = 0; i < entry_variant_count; i++) {
		const struct entry_variant *v = &entry_variants[i];
		struct plan_row *row;

		if (variant_kind_of(v->id) != VARIANT_KIND_YOURS)
			continue;
		if (!(row = add(b, ROW_EXPERIMENT)))
			return;
		row->entry = v;
		row->source = src;
		row->mode = (uint8_t)mode;
		row->without_mode = ROW_OMITTED;
		row->vector = VARIANT_VECTOR;
		row->samples = b->config->samples;
		row->id = row_of(src, dispatch_baseline->id, v->id, repeat);
		row->baseline = row_of(src, dispatch_baseline->id,
				       VARIANT_ABSENT, repeat);
	}
}

/* One source in one APIC mode: a row per scheme, or only the baseline
 * scheme's where the source runs under one scheme or cannot run here at
 * all (one skipped row, not one per scheme). A scheme that cannot run
 * here says so once, under the instruction source. `repeat` marks the
 * second pass of a source measured in both modes: its rows carry the
 * mode in their names and vanish if that mode does not come up. */
static void add_source(struct builder *b, const struct irq_source *src,
		       enum lapic_mode mode, int repeat)
{
	const struct irqlab_config *c = b->config;
	int every = src->every_scheme &&
		    !(src->unsupported && src->unsupported(src, b->lines));
	int instruction = src->kind == SOURCE_RAISED_BY_INSTRUCTION;
	size_t s;

	for (s = 0; s < dispatch_scheme_count; s++) {
		const struct dispatch_scheme *scheme = &dispatch_schemes[s];
		int first = scheme == dispatch_baseline;
		struct plan_row *row;

		if (!first && (!every || (scheme_unsupported(scheme) &&
					  !instruction)))
			continue;
		row = add(b, ROW_EXPERIMENT);
		if (!row)
			return;
		row->scheme = scheme;
		row->source = src;
		row->mode = (uint8_t)mode;
		row->without_mode = repeat || !first ? ROW_OMITTED : ROW_SKIPPED;
		row->vector = src->vector ? src->vector : (uint8_t)c->int_vector;
		row->samples = c->samples;
		row->inject_smi = c->selftest_smi && instruction && first;
		row->id = row_of(src, scheme->id, VARIANT_ABSENT, repeat);
		row->baseline = row_of(src, dispatch_baseline->id,
				       VARIANT_ABSENT, repeat);
	}
	add_yours(b, src, mode, repeat);
}

/* Sources of one pass: before the APIC is touched, in xAPIC mode, or in
 * x2APIC mode, each in table order. */
static void add_sources(struct builder *b, enum lapic_mode mode)
{
	size_t i;

	for (i = 0; i < irq_source_count; i++) {
		const struct irq_source *src = &irq_sources[i];

		if (mode == LAPIC_NONE && src->modes == SOURCE_NO_APIC)
			add_source(b, src, LAPIC_NONE, 0);
		if (mode == LAPIC_XAPIC && (src->modes == SOURCE_EITHER_APIC ||
					    src->modes == SOURCE_XAPIC_ONLY ||
					    (src->modes == SOURCE_XAPIC_PREFERRED &&
					     !apic_mode_x2apic_only())))
			add_source(b, src, LAPIC_XAPIC, 0);
		if (mode == LAPIC_X2APIC && (src->modes == SOURCE_EITHER_APIC ||
					     src->modes == SOURCE_X2APIC_ONLY ||
					     (src->modes == SOURCE_XAPIC_PREFERRED &&
					      apic_mode_x2apic_only())))
			add_source(b, src, LAPIC_X2APIC,
				   src->modes == SOURCE_EITHER_APIC);
	}
}

/* Seeds 002 and 003, and the mitigations: each entry variant's handler
 * under INT n, against the first variant, which adds nothing, or the
 * one its row names. */
static void add_entry_variants(struct builder *b, const struct irq_source *src)
{
	size_t i;

	for (i = 0; src && i < entry_variant_count; i++) {
		struct plan_row *row;

		if (variant_kind_of(entry_variants[i].id) == VARIANT_KIND_YOURS)
			continue;	/* add_yours: on every source */
		if (!(row = add(b, ROW_EXPERIMENT)))
			return;
		row->entry = &entry_variants[i];
		row->source = src;
		row->vector = VARIANT_VECTOR;
		row->samples = b->config->samples;
		row->id = row_of(src, dispatch_baseline->id,
				 entry_variants[i].id, 0);
		row->baseline = row_of(src, dispatch_baseline->id,
				       entry_variants[i].against ?
					       entry_variants[i].against :
					       entry_variants[0].id, 0);
	}
}

/* Seed 000: every scheme that runs warm, again in every cache state,
 * against its warm row. */
static void add_cache_states(struct builder *b, const struct irq_source *src)
{
	const struct irqlab_config *c = b->config;
	size_t i, s;

	for (i = 0; src && i < cache_state_count; i++)
		for (s = 0; s < dispatch_scheme_count; s++) {
			const struct dispatch_scheme *scheme = &dispatch_schemes[s];
			const struct cache_state *cache = &cache_states[i];
			struct plan_row *row;

			if (scheme_unsupported(scheme))
				continue;
			row = add(b, ROW_EXPERIMENT);
			if (!row)
				return;
			row->scheme = scheme;
			row->cache = cache;
			row->source = src;
			row->vector = (uint8_t)c->int_vector;
			row->samples = at_most(cache->heavy ? c->thrash_samples
							    : c->cold_samples,
					       c->samples);
			row->id = row_in(src, scheme->id, VARIANT_ABSENT,
					 cache->id);
			row->baseline = row_of(src, scheme->id, VARIANT_ABSENT, 0);
		}
}

/* Whether a mitigation's row, in the cold state, measures against this
 * variant: the baseline of entry variants, or one a mitigation names. */
static int mitigation_baseline(const struct entry_variant *v)
{
	size_t i;

	if (v == &entry_variants[0])
		return 1;
	for (i = 0; i < entry_variant_count; i++)
		if (variant_kind_of(entry_variants[i].id) ==
			    VARIANT_KIND_MITIGATION &&
		    entry_variants[i].against == v->id)
			return 1;
	return 0;
}

/* The variant a row of v is measured against, cold as it is warm: a
 * file of yours against direct (no variant), the others against the one
 * they name or the first. */
static uint8_t cold_baseline_of(const struct entry_variant *v)
{
	if (variant_kind_of(v->id) == VARIANT_KIND_YOURS)
		return VARIANT_ABSENT;
	return v->against ? v->against : entry_variants[0].id;
}

/* The mitigations' costs hang on predictor, cache and TLB state: each
 * mitigation's row, and each file of yours, again with the gate, the
 * handler and its descriptor flushed before every sample (the cold
 * state), against its baseline in the same state: a file's is direct's
 * cold row, as its warm rows are against direct's. */
static void add_cold_mitigations(struct builder *b,
				 const struct irq_source *src)
{
	const struct cache_state *cold = 0;
	size_t i;

	for (i = 0; i < cache_state_count; i++)
		if (cache_states[i].id == VARIANT_COLD)
			cold = &cache_states[i];
	for (i = 0; src && cold && i < entry_variant_count; i++) {
		const struct entry_variant *v = &entry_variants[i];
		struct plan_row *row;

		if (variant_kind_of(v->id) != VARIANT_KIND_MITIGATION &&
		    variant_kind_of(v->id) != VARIANT_KIND_YOURS &&
		    !mitigation_baseline(v))
			continue;
		if (!(row = add(b, ROW_EXPERIMENT)))
			return;
		row->entry = v;
		row->cache = cold;
		row->source = src;
		row->vector = VARIANT_VECTOR;
		row->samples = at_most(b->config->cold_samples,
				       b->config->samples);
		row->id = row_in(src, dispatch_baseline->id, v->id, cold->id);
		row->baseline = row_in(src, dispatch_baseline->id,
				       cold_baseline_of(v), cold->id);
	}
}

/* The source of that id, or NULL. */
static const struct irq_source *source_with_id(enum source_id id)
{
	size_t i;

	for (i = 0; i < irq_source_count; i++)
		if (irq_sources[i].id == id)
			return &irq_sources[i];
	return 0;
}

/* Seed 004's last row: its cached IO-APIC level line timed again with
 * the caches thrashed, in xAPIC mode, against its warm row. */
static void add_thrashed_source(struct builder *b)
{
	const struct irqlab_config *c = b->config;
	const struct irq_source *src =
		source_with_id(SOURCE_IOAPIC_LEVEL_VALUE_CACHED);
	size_t k;

	for (k = 0; src && k < cache_state_count; k++) {
		struct plan_row *row;

		if (!cache_states[k].heavy)
			continue;
		row = add(b, ROW_EXPERIMENT);
		if (!row)
			return;
		row->scheme = dispatch_baseline;
		row->cache = &cache_states[k];
		row->source = src;
		row->mode = LAPIC_XAPIC;
		row->without_mode = ROW_SKIPPED;
		row->vector = (uint8_t)c->int_vector;
		row->samples = at_most(c->thrash_samples, c->samples);
		row->id = row_in(src, dispatch_baseline->id, VARIANT_ABSENT,
				 cache_states[k].id);
		row->baseline = row_of(src, dispatch_baseline->id,
				       VARIANT_ABSENT, 0);
	}
}

/* Seed 000's gap method: every scheme, a row each, in xAPIC mode. */
static void add_gap_rows(struct builder *b)
{
	const struct irqlab_config *c = b->config;
	const struct irq_source *timer = source_with_id(SOURCE_LAPIC_PERIODIC);
	size_t s;

	for (s = 0; s < dispatch_scheme_count && s < RESULTS_MAX_GAPS; s++) {
		struct plan_row *row = add(b, ROW_GAP);

		if (!row)
			return;
		row->scheme = &dispatch_schemes[s];
		row->source = timer;
		row->mode = LAPIC_XAPIC;
		row->without_mode = ROW_SKIPPED;
		row->vector = (uint8_t)c->int_vector;
		row->samples = at_most(c->gap_samples, c->samples);
		row->id = (struct row_id){ .scheme = dispatch_schemes[s].id };
	}
}

/* The i386 rows (docs/protected-mode.md): every i386 scheme under each
 * source the 32-bit phase raises itself, against i386-direct; then
 * i386-direct's entry variants under INT n. The local APIC sources run
 * there in xAPIC mode, so these come before the switch to x2APIC. */
static void add_i386_rows(struct builder *b)
{
	const struct irqlab_config *c = b->config;
	const struct irq_source *src;
	size_t i, s;

	for (i = 0; i < irq_source_count; i++) {
		src = &irq_sources[i];
		if (!src->protected_trigger)
			continue;
		for (s = 0; s < i386_scheme_count; s++) {
			struct plan_row *row = add(b, ROW_I386);

			if (!row)
				return;
			row->i386 = &i386_schemes[s];
			row->source = src;
			row->mode = (uint8_t)(src->modes == SOURCE_NO_APIC ?
					      LAPIC_NONE : LAPIC_XAPIC);
			row->without_mode = s ? ROW_OMITTED : ROW_SKIPPED;
			row->vector = (uint8_t)c->int_vector;
			row->samples = c->samples;
			row->id = row_of(src, i386_schemes[s].id,
					 VARIANT_ABSENT, 0);
			row->baseline = row_of(src, i386_baseline->id,
					       VARIANT_ABSENT, 0);
		}
	}
	for (i = 0, src = instruction_source(); src && i < i386_variant_count;
	     i++) {
		struct plan_row *row = add(b, ROW_I386);

		if (!row)
			return;
		row->i386 = i386_baseline;
		row->i386_entry = &i386_variants[i];
		row->source = src;
		row->vector = VARIANT_VECTOR;
		row->samples = c->samples;
		row->id = row_of(src, i386_baseline->id, i386_variants[i].id, 0);
		row->baseline = row_of(src, i386_baseline->id, VARIANT_ABSENT, 0);
	}
}

static const struct dispatch_scheme *scheme_with_id(enum scheme_id id)
{
	size_t i;

	for (i = 0; i < dispatch_scheme_count; i++)
		if (dispatch_schemes[i].id == id)
			return &dispatch_schemes[i];
	return dispatch_baseline;
}

/* With selftest_fault = 1: rows that raise #UD, to prove an exception
 * fails only its own row; one in the measuring loop, one inside a stub
 * scheme's dispatch path, and one under FRED, whose entry takes the
 * exception instead of the IDT (skipped where the CPU has no FRED). */
static void add_selftests(struct builder *b, const struct irq_source *src)
{
	static const struct {
		uint8_t selftest;	/* enum selftest_id */
		uint8_t inject;
		uint8_t behind_stubs;	/* a stub scheme, not `scheme` */
		uint8_t scheme;		/* enum scheme_id */
	} selftests[] = {
		{ SELFTEST_IN_LOOP, INJECT_IN_LOOP, 0, SCHEME_DIRECT },
		{ SELFTEST_IN_HANDLER, INJECT_IN_HANDLER, 1, 0 },
		{ SELFTEST_IN_FRED, INJECT_IN_HANDLER, 0, SCHEME_FRED },
	};
	const struct dispatch_scheme *behind_stubs = dispatch_baseline;
	size_t i;

	for (i = 0; i < dispatch_scheme_count; i++)
		if (dispatch_schemes[i].fault_selftest)
			behind_stubs = &dispatch_schemes[i];
	for (i = 0; src && b->config->selftest_fault &&
		    i < sizeof(selftests) / sizeof(selftests[0]); i++) {
		struct plan_row *row = add(b, ROW_EXPERIMENT);

		if (!row)
			return;
		row->scheme = selftests[i].behind_stubs ?
				      behind_stubs :
				      scheme_with_id(selftests[i].scheme);
		row->source = src;
		row->vector = (uint8_t)b->config->int_vector;
		row->inject = selftests[i].inject;
		row->samples = b->config->samples;
		row->id = row_of(src, row->scheme->id, VARIANT_ABSENT, 0);
		row->id.selftest = selftests[i].selftest;
		row->baseline = row->id;
	}
	/* And one in the 32-bit phase, behind i386 stubs' common path: the
	 * trip must still come back to long mode and the run go on. */
	for (i = 0; src && b->config->selftest_fault && i < i386_scheme_count;
	     i++) {
		struct plan_row *row;

		if (!i386_schemes[i].fault_selftest)
			continue;
		if (!(row = add(b, ROW_I386)))
			return;
		row->i386 = &i386_schemes[i];
		row->source = src;
		row->vector = (uint8_t)b->config->int_vector;
		row->inject = INJECT_IN_HANDLER;
		row->samples = b->config->samples;
		row->id = row_of(src, i386_schemes[i].id, VARIANT_ABSENT, 0);
		row->id.selftest = SELFTEST_I386;
		row->baseline = row->id;
	}
}

/* Each row's label, from its ids: row_name(), or "gap-<scheme>". */
static void name_rows(struct plan_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (rows[i].kind == ROW_GAP)
			fmt_snprintf(rows[i].name, sizeof(rows[i].name), "gap-%s",
				     scheme_name(rows[i].id.scheme));
		else
			row_name(&rows[i].id, rows[i].name, sizeof(rows[i].name));
}

/* The matrix, in order: INT n under every scheme; then in xAPIC mode the
 * sources that run there under every scheme; the entry variants; every
 * scheme in every cache state; the mitigations cold; the thrashed level
 * line; the gap method;
 * the i386 rows in 32-bit protected mode; then, x2APIC being a one-way
 * switch (SDM vol. 3 §11.12.5), the x2APIC sources; the self-tests last. */
size_t plan_build(struct plan_row *rows, size_t cap,
		  const struct irqlab_config *c, struct source_lines *lines)
{
	struct builder b = { rows, cap, 0, c, lines };
	const struct irq_source *int_source = instruction_source();

	add_sources(&b, LAPIC_NONE);
	add_sources(&b, LAPIC_XAPIC);
	add_entry_variants(&b, int_source);
	add_cache_states(&b, int_source);
	add_cold_mitigations(&b, int_source);
	add_thrashed_source(&b);
	add_gap_rows(&b);
	add_i386_rows(&b);
	add_sources(&b, LAPIC_X2APIC);
	add_selftests(&b, int_source);
	name_rows(rows, b.n);
	return plan_keep_selected(rows, b.n, c);
}
