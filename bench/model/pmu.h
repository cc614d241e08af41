/* The performance counters' description, from CPUID (docs/timing.md
 * "The performance counters"): pure decoding, unit-tested on the leaves
 * real and emulated CPUs give. */
#ifndef IRQLAB_BENCH_MODEL_PMU_H
#define IRQLAB_BENCH_MODEL_PMU_H

#include <stddef.h>
#include <stdint.h>

/* Intel's architectural PMU, CPUID 0AH (SDM vol. 3B §20.2): version,
 * general-purpose counters and their width, fixed counters and theirs. */
struct pmu_intel {
	uint8_t version;
	uint8_t gp_counters, gp_width;
	uint8_t fixed_counters, fixed_width;
};

void pmu_decode_intel(uint32_t eax, uint32_t edx, struct pmu_intel *p);

/* Why the fixed counters for instructions retired, core cycles and
 * reference cycles (FIXED_CTR0-2) cannot be used, or NULL when they
 * can: version 2 or later, with three fixed counters at least. */
const char *pmu_intel_fixed_unusable(const struct pmu_intel *p, char *why,
				     size_t cap);

/* AMD's counters (APM vol. 2 §13.2): the core extension (CPUID
 * 8000_0001H:ECX[23], six counters at C001_0200H), PerfMonV2 (CPUID
 * 8000_0022H:EAX[0], global control) and the instructions-retired MSR
 * (CPUID 8000_0008H:EBX[1], IRPerfCount). */
struct pmu_amd {
	uint8_t core_extension, perfmon_v2, irperf;
};

void pmu_decode_amd(uint32_t ext1_ecx, uint32_t ext8_ebx, uint32_t ext22_eax,
		    struct pmu_amd *p);

/* after - before on a counter `width` bits wide, across one wrap. */
uint64_t pmu_delta(uint64_t before, uint64_t after, unsigned width);

/* The core clock against the TSC's (APERF against MPERF, or core
 * cycles against reference cycles), in thousandths; 0 when the
 * reference did not move. */
uint32_t pmu_ratio_milli(uint64_t core, uint64_t reference);

/* Whether a row's ratios, lowest and highest over its batches, moved by
 * more than FREQUENCY_STABLE_PERMILLE of the lowest: the row is then
 * UNSTABLE (frequency). */
#define FREQUENCY_STABLE_PERMILLE 20
int pmu_frequency_moved(uint32_t low_milli, uint32_t high_milli);

#endif
