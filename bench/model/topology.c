#include "bench/model/topology.h"

#define LEVEL_TYPE_SMT 1	/* ECX[15:8] of leaf 0BH/1FH */

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
