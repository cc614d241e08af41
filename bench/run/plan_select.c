/* Which rows the config's lists keep (docs/run.md "Choosing what
 * runs"): the plan is built whole, then cut to them. */
#include "bench/run/plan_select.h"

#include "apic/lapic.h"

/* i386-direct, the i386 rows' floor, and its variants run when the
 * schemes list takes in an i386 scheme, or the variants list names an
 * i386 variant itself: `variants = all` alone does not bring in the
 * 32-bit phase (docs/run.md "Choosing what runs"). */
static int i386_selected(const struct irqlab_config *c)
{
	size_t i;

	for (i = 0; i < i386_scheme_count; i++)
		if (config_selects(c->schemes, config_scheme_names,
				   scheme_name(i386_schemes[i].id)))
			return 1;
	for (i = 0; c->variants != CONFIG_ALL && i < i386_variant_count; i++)
		if (config_selects(c->variants, config_variant_names,
				   variant_name(i386_variants[i].id)))
			return 1;
	return 0;
}

static int variant_listed(const struct irqlab_config *c, uint8_t variant)
{
	return config_selects(c->variants, config_variant_names,
			      variant_name(variant));
}

/* Whether an entry variant runs: named in the list, or the baseline of
 * one that is (VARIANT_NONE is every entry variant's, unless it names
 * another). */
static int entry_variant_selected(const struct irqlab_config *c,
				  const struct entry_variant *v)
{
	size_t i;

	if (v == &entry_variants[0])
		return c->variants != 0;
	if (variant_listed(c, v->id))
		return 1;
	for (i = 0; i < entry_variant_count; i++)
		if (entry_variants[i].against == v->id &&
		    variant_listed(c, entry_variants[i].id))
			return 1;
	return 0;
}

/* Whether the config's lists (schemes, sources, variants, apic_modes)
 * keep a row. The baseline scheme runs wherever its source does: every
 * overhead is measured against it; i386-direct runs with the i386 rows.
 * The gap method follows its timer source; the self-tests follow
 * selftest_fault alone. */
static int row_selected(const struct irqlab_config *c,
			const struct plan_row *r)
{
	uint8_t variant = r->entry ? VARIANT_ABSENT :
			  r->cache ? r->cache->id :
			  r->i386_entry ? r->i386_entry->id : VARIANT_ABSENT;

	if (r->inject || r->inject_smi)
		return 1;
	if (r->source && !config_selects(c->sources, config_source_names,
					 source_name(r->source->id)))
		return 0;
	if (r->mode != LAPIC_NONE &&
	    !config_selects(c->apic_modes, config_apic_mode_names,
			    apic_mode_name(r->mode)))
		return 0;
	if (variant != VARIANT_ABSENT && !variant_listed(c, variant))
		return 0;
	/* An entry variant in a cache state needs both named. */
	if (r->entry && (!entry_variant_selected(c, r->entry) ||
			 (r->cache && !variant_listed(c, r->cache->id))))
		return 0;
	if (r->i386 && (r->i386_entry || r->i386 == i386_baseline))
		return i386_selected(c);
	if (r->i386)
		return config_selects(c->schemes, config_scheme_names,
				      scheme_name(r->i386->id));
	return !r->scheme || r->scheme == dispatch_baseline ||
	       config_selects(c->schemes, config_scheme_names,
			      scheme_name(r->scheme->id));
}

size_t plan_keep_selected(struct plan_row *rows, size_t n,
			  const struct irqlab_config *c)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++)
		if (row_selected(c, &rows[i]))
			rows[kept++] = rows[i];
	return kept;
}
