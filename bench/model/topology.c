#include "bench/model/topology.h"

#include "arch/lib/cpuid_bits.h"

#define LEVEL_TYPE_SMT 1	/* ECX[15:8] of leaf 0BH/1FH */
#define CACHE_TYPE_NULL 0	/* EAX[4:0] of leaf 4/8000_001DH */

static uint32_t level_type(const struct cpuid_words *level)
{
	return (level->ecx >> 8) & 0xff;
}

/* The sharers of the deepest cache a deterministic-cache leaf (4, or
 * AMD's 8000_001DH) lists: EAX[25:14] + 1 of the subleaf whose level,
 * EAX[7:5], is highest; 0 where it lists none. */
static uint32_t llc_sharing_from(const struct cpuid_words *cache)
{
	uint32_t sharing = 0, level = 0, i;

	for (i = 0; i < CPUID_CACHE_SUBLEAVES; i++) {
		uint32_t eax = cache[i].eax;

		if ((eax & 0x1f) == CACHE_TYPE_NULL)
			break;
		if (((eax >> 5) & 7) >= level) {
			level = (eax >> 5) & 7;
			sharing = ((eax >> 14) & 0xfff) + 1;
		}
	}
	return sharing;
}

void topology_extract(const struct cpuid_topology_words *w,
		      struct topology_leaves *l)
{
	/* A leaf the CPU has answers subleaf 0 with a nonzero EBX (SDM
	 * vol. 2A, CPUID leaf 0BH: "if ... EBX = 0, leaf not supported"). */
	const struct cpuid_words *levels =
		w->max_leaf >= 0x1f && w->leaf_1f[0].ebx ? w->leaf_1f :
		w->max_leaf >= 0x0b && w->leaf_0b[0].ebx ? w->leaf_0b : 0;
	int topoext = w->max_ext_leaf >= 0x80000001 &&
		      (w->leaf_80000001.ecx & CPUID_80000001_ECX_TOPOEXT);
	unsigned i;

	*l = (struct topology_leaves){ 0 };
	l->apic_id = w->leaf_01.ebx >> 24;
	for (i = 0; levels && i < TOPOLOGY_MAX_LEVELS; i++) {
		if (level_type(&levels[i]) == 0)
			break;
		l->level_eax[i] = levels[i].eax;
		l->level_ecx[i] = levels[i].ecx;
		l->n_levels = (uint8_t)(i + 1);
		if (level_type(&levels[i]) == LEVEL_TYPE_SMT)
			l->logical_in_core = levels[i].ebx & 0xffff;
		l->logical_in_package = levels[i].ebx & 0xffff;
	}
	if (l->n_levels)
		l->apic_id = levels[0].edx;
	if (w->max_leaf >= 4)
		l->llc_sharing = llc_sharing_from(w->leaf_04);
	if (!l->llc_sharing && topoext && w->max_ext_leaf >= 0x8000001d)
		l->llc_sharing = llc_sharing_from(w->leaf_8000001d);
	if (topoext && w->max_ext_leaf >= 0x8000001e)
		l->amd_threads_per_core =
			((w->leaf_8000001e.ebx >> 8) & 0xff) + 1;
	if (w->max_ext_leaf >= 0x80000008)
		l->amd_apic_id_size = (w->leaf_80000008.ecx >> 12) & 0xf;
	if (!l->n_levels && l->amd_apic_id_size) {
		if (topoext && w->max_ext_leaf >= 0x8000001e)
			l->apic_id = w->leaf_8000001e.eax;
		l->logical_in_core = l->amd_threads_per_core;
		l->logical_in_package = (w->leaf_80000008.ecx & 0xff) + 1;
	}
}

/* The bits that number n things: the smallest s with 2^s >= n, as the
 * SDM reserves APIC IDs for a cache's sharers ("the nearest power-of-2
 * integer that is not smaller than (1 + EAX[25:14])"). */
static uint8_t order_of(uint32_t n)
{
	uint8_t s = 0;

	while (s < 32 && (1ull << s) < n)
		s++;
	return s;
}

void topology_decode(const struct topology_leaves *l, struct topology *t)
{
	unsigned i;

	*t = (struct topology){ 0 };
	if (l->n_levels) {
		/* Each level's EAX[4:0] shifts an x2APIC ID to the next
		 * level's; the last level's reaches the package. */
		for (i = 0; i < l->n_levels && i < TOPOLOGY_MAX_LEVELS; i++) {
			uint8_t shift = l->level_eax[i] & 0x1f;

			if (((l->level_ecx[i] >> 8) & 0xff) == LEVEL_TYPE_SMT)
				t->smt_shift = shift;
			t->package_shift = shift;
		}
		t->known = 1;
	} else if (l->amd_apic_id_size) {
		t->smt_shift = order_of(l->amd_threads_per_core);
		t->package_shift = (uint8_t)l->amd_apic_id_size;
		t->known = 1;
	} else {
		return;
	}
	/* A last-level cache no leaf describes is the package's; one that
	 * claims more than a package serves the package. */
	t->llc_shift = l->llc_sharing ? order_of(l->llc_sharing)
				      : t->package_shift;
	if (t->llc_shift > t->package_shift)
		t->llc_shift = t->package_shift;
	if (t->llc_shift < t->smt_shift)
		t->llc_shift = t->smt_shift;
}

static uint32_t id_bits(uint32_t id, uint8_t low, uint8_t high)
{
	uint32_t width = high > low ? high - low : 0;

	id = low >= 32 ? 0 : id >> low;
	return width >= 32 ? id : id & ((1u << width) - 1);
}

struct topology_place topology_place_of(const struct topology *t,
					 uint32_t apic_id)
{
	return (struct topology_place){
		.package = id_bits(apic_id, t->package_shift, 32),
		.core = id_bits(apic_id, t->smt_shift, t->package_shift),
		.thread = id_bits(apic_id, 0, t->smt_shift),
	};
}

static int same_above(uint32_t a, uint32_t b, uint8_t shift)
{
	return shift >= 32 || (a >> shift) == (b >> shift);
}

enum cpu_relation topology_relation(const struct topology *t, uint32_t a,
				    uint32_t b)
{
	if (a == b)
		return CPU_RELATION_SELF;
	if (!t->known)
		return CPU_RELATION_UNKNOWN;
	if (same_above(a, b, t->smt_shift))
		return CPU_RELATION_SMT_SIBLING;
	if (same_above(a, b, t->llc_shift))
		return CPU_RELATION_SAME_LLC;
	if (same_above(a, b, t->package_shift))
		return CPU_RELATION_SAME_PACKAGE;
	return CPU_RELATION_OTHER_PACKAGE;
}

const char *cpu_relation_name(unsigned relation)
{
#define NAME(id, name) name,
	static const char *const names[] = { CPU_RELATION_LIST(NAME) };
#undef NAME
	return relation < CPU_RELATION_COUNT ? names[relation] : "?";
}
