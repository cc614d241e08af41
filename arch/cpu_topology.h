/* The CPUID leaves that say where a processor sits, as CPUID returns
 * them, word for word: arch/cpu_topology.c reads them on the boot CPU,
 * and the host-built model decodes them (bench/model/topology.c), so
 * that the unit tests can feed in the words recorded on real parts and
 * run the firmware's own decode. Plain C: no firmware header. */
#ifndef IRQLAB_ARCH_CPU_TOPOLOGY_H
#define IRQLAB_ARCH_CPU_TOPOLOGY_H

#include <stdint.h>

/* Subleaves read of the topology leaves (0BH, 1FH: SMT, core, module,
 * tile, die, then the terminating level of type 0) and of the cache
 * leaves (4, 8000_001DH: up to the first of cache type 0). */
#define CPUID_TOPOLOGY_SUBLEAVES 8
#define CPUID_CACHE_SUBLEAVES 16

struct cpuid_words {
	uint32_t eax, ebx, ecx, edx;
};

/* A leaf above the CPU's maximum (CPUID.0:EAX, CPUID.8000_0000H:EAX) is
 * left zero: the CPU would answer it with its highest basic leaf's data
 * (SDM vol. 2A, CPUID, "If a value entered for CPUID.EAX is higher than
 * the maximum input value ..."), which a decode must never read. */
struct cpuid_topology_words {
	uint32_t max_leaf, max_ext_leaf;
	struct cpuid_words leaf_01;
	struct cpuid_words leaf_04[CPUID_CACHE_SUBLEAVES];
	struct cpuid_words leaf_0b[CPUID_TOPOLOGY_SUBLEAVES];
	struct cpuid_words leaf_1f[CPUID_TOPOLOGY_SUBLEAVES];
	struct cpuid_words leaf_80000001, leaf_80000008, leaf_8000001e;
	struct cpuid_words leaf_8000001d[CPUID_CACHE_SUBLEAVES];
};

/* This processor's words, every leaf within its maximum. */
void cpu_topology_read(struct cpuid_topology_words *w);

#endif
