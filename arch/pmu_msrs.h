/* AMD's core performance counters, named once for the counted instrument
 * (bench/run/counters.c) and the SMI counter's proof (arch/noise.c).
 * Pure macros. */
#ifndef IRQLAB_ARCH_PMU_MSRS_H
#define IRQLAB_ARCH_PMU_MSRS_H

/* The counters' MSRs (APM vol. 2 §13.2.1): the legacy four, PERF_CTLn
 * at C001_0000H + n and PERF_CTRn at C001_0004H + n; with the core
 * extension (CPUID 8000_0001H:ECX[23]) six, PERF_CTLn at C001_0200H + 2n
 * and PERF_CTRn at + 2n + 1, the first four the legacy ones again. */
#define MSR_AMD_PERF_CTL_LEGACY 0xc0010000u
#define MSR_AMD_PERF_CTR_LEGACY 0xc0010004u
#define MSR_AMD_PERF_CTL_CORE 0xc0010200u
/* PerfMonV2 (CPUID 8000_0022H:EAX[0], APM vol. 2 §13.2.3; Linux's
 * amd_pmu_v2_enable_all, arch/x86/events/amd/core.c): a counter counts
 * only while its bit n in PerfCntrGlobalCtl is set too. */
#define MSR_AMD_PERF_GLOBAL_CTL 0xc0000301u
#define AMD_PERF_GLOBAL_COUNTER(n) (1ull << (n))

/* PERF_CTLn's fields (APM vol. 2 §13.2.1, Figure 13-7): the event
 * select in bits 7:0, counting in user mode (USR) and in ring 0 (OS),
 * and the enable. */
#define AMD_PERF_CTL_USR (1ull << 16)
#define AMD_PERF_CTL_OS (1ull << 17)
#define AMD_PERF_CTL_ENABLE (1ull << 22)

/* The events (AMD PPR for family 17h, "Core Performance Monitor
 * Counters"): PMCx076, PMCx0C0 and PMCx02B. */
#define AMD_EVENT_CYCLES_NOT_IN_HALT 0x76
#define AMD_EVENT_RETIRED_INSTRUCTIONS 0xc0
#define AMD_EVENT_SMI_RECEIVED 0x2b

/* Every counter is 48 bits wide (APM vol. 2 §13.2.1). */
#define AMD_COUNTER_WIDTH 48
#define AMD_COUNTER_MASK ((1ull << AMD_COUNTER_WIDTH) - 1)

#endif
