/* Where two processors sit relative to each other, from their APIC IDs
 * and the boot CPU's topology leaves (docs/controllers.md "The other
 * CPUs"): SMT siblings, the same last-level cache (a core complex), the
 * same package, or another package. The cross-CPU rows name each pair's
 * relation. Plain C, host-built too. */
#ifndef IRQLAB_BENCH_MODEL_TOPOLOGY_H
#define IRQLAB_BENCH_MODEL_TOPOLOGY_H

#include <stdint.h>

#define TOPOLOGY_MAX_LEVELS 8

/* What the decode reads, as the boot CPU's CPUID gives it. */
struct topology_leaves {
	/* Leaf 1FH where the CPU has it, else 0BH: each subleaf's EAX and
	 * ECX up to the first of level type 0; n_levels 0 without either
	 * (SDM vol. 2A, CPUID, "V2 Extended Topology Enumeration"). */
	uint8_t n_levels;
	uint32_t level_eax[TOPOLOGY_MAX_LEVELS];
	uint32_t level_ecx[TOPOLOGY_MAX_LEVELS];
	/* Logical processors the last-level cache serves: EAX[25:14] + 1
	 * of that cache's subleaf of leaf 4 (Intel) or 8000_001DH (AMD);
	 * 0 where unknown. */
	uint32_t llc_sharing;
	/* AMD, where leaf 0BH is absent: threads per core (8000_001EH
	 * EBX[15:8] + 1) and the APIC ID bits of a package (8000_0008H
	 * ECX[15:12]); 0 where unknown (AMD APM vol. 3, CPUID). */
	uint32_t amd_threads_per_core;
	uint32_t amd_apic_id_size;
};

/* The APIC ID bits below each level: an ID shifted right by smt_shift
 * names its core, by llc_shift its last-level cache, by package_shift
 * its package. known 0: no leaf said anything, and every pair is
 * "unknown". */
struct topology {
	uint8_t known;
	uint8_t smt_shift, llc_shift, package_shift;
};

/* X(ID, "name"), closest first. */
#define CPU_RELATION_LIST(X)                                                \
	X(SELF, "self")                                                     \
	X(SMT_SIBLING, "smt-sibling")                                       \
	X(SAME_LLC, "same-llc")                                             \
	X(SAME_PACKAGE, "same-package")                                     \
	X(OTHER_PACKAGE, "other-package")                                   \
	X(UNKNOWN, "unknown")

#define CPU_RELATION_ID(id, name) CPU_RELATION_##id,
enum cpu_relation { CPU_RELATION_LIST(CPU_RELATION_ID) CPU_RELATION_COUNT };
#undef CPU_RELATION_ID

void topology_decode(const struct topology_leaves *l, struct topology *t);
/* The closest relation two APIC IDs share. */
enum cpu_relation topology_relation(const struct topology *t, uint32_t a,
				    uint32_t b);
const char *cpu_relation_name(unsigned relation);

#endif
