/* Where two processors sit relative to each other, from their APIC IDs
 * and the boot CPU's topology leaves (docs/controllers.md "The other
 * CPUs"): SMT siblings, the same last-level cache (a core complex), the
 * same package, or another package. The cross-CPU rows name each pair's
 * relation. Plain C, host-built too. */
#ifndef IRQLAB_BENCH_MODEL_TOPOLOGY_H
#define IRQLAB_BENCH_MODEL_TOPOLOGY_H

#include <stdint.h>

#include "arch/cpu_topology.h"

#define TOPOLOGY_MAX_LEVELS CPUID_TOPOLOGY_SUBLEAVES

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
	/* This processor's APIC ID as the leaves give it (the x2APIC ID
	 * of 1FH/0BH's EDX, AMD's extended APIC ID of 8000_001EH's EAX,
	 * else the initial APIC ID of leaf 01H's EBX[31:24]); the logical
	 * processors of its core (the SMT level's EBX[15:0], or AMD's
	 * threads per core) and of its package (the last level's
	 * EBX[15:0], or 8000_0008H ECX[7:0] + 1); 0 where unknown. */
	uint32_t apic_id;
	uint32_t logical_in_core, logical_in_package;
};

/* The leaves above from CPUID's words as the CPU returned them
 * (arch/cpu_topology.h): 1FH where it has levels, else 0BH; the
 * last-level cache from leaf 4, or AMD's 8000_001DH where TOPOEXT says
 * it is there; AMD's own leaves where neither has levels. */
void topology_extract(const struct cpuid_topology_words *w,
		      struct topology_leaves *l);

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
/* The fields of an APIC ID: its thread within the core, its core within
 * the package (the ID's bits between smt_shift and package_shift, which
 * may skip numbers: SDM vol. 3A §9.9.1), and its package. */
struct topology_place {
	uint32_t package, core, thread;
};
struct topology_place topology_place_of(const struct topology *t,
					 uint32_t apic_id);
/* The closest relation two APIC IDs share. */
enum cpu_relation topology_relation(const struct topology *t, uint32_t a,
				    uint32_t b);
const char *cpu_relation_name(unsigned relation);

#endif
