#include "arch/cpu_topology.h"

#include "arch/cpu.h"

static struct cpuid_words words_of(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r = cpuid(leaf, subleaf);

	return (struct cpuid_words){ r.eax, r.ebx, r.ecx, r.edx };
}

/* Every subleaf of `leaf` up to `n`, where the CPU has the leaf. Which
 * of them mean something is the decode's to say. */
static void subleaves(uint32_t leaf, uint32_t max, struct cpuid_words *out,
		      unsigned n)
{
	unsigned i;

	for (i = 0; max >= leaf && i < n; i++)
		out[i] = words_of(leaf, i);
}

void cpu_topology_read(struct cpuid_topology_words *w)
{
	uint32_t max = cpuid_max_leaf(0), ext = cpuid_max_leaf(0x80000000);

	*w = (struct cpuid_topology_words){ .max_leaf = max,
					    .max_ext_leaf = ext };
	w->leaf_01 = words_of(1, 0);
	subleaves(0x04, max, w->leaf_04, CPUID_CACHE_SUBLEAVES);
	subleaves(0x0b, max, w->leaf_0b, CPUID_TOPOLOGY_SUBLEAVES);
	subleaves(0x1f, max, w->leaf_1f, CPUID_TOPOLOGY_SUBLEAVES);
	if (ext >= 0x80000001)
		w->leaf_80000001 = words_of(0x80000001, 0);
	if (ext >= 0x80000008)
		w->leaf_80000008 = words_of(0x80000008, 0);
	if (ext >= 0x8000001e)
		w->leaf_8000001e = words_of(0x8000001e, 0);
	subleaves(0x8000001d, ext, w->leaf_8000001d, CPUID_CACHE_SUBLEAVES);
}
