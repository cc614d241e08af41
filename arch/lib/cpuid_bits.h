/* Every CPUID bit irqlab tests, named once, as a mask over the register
 * CPUID returns it in, grouped by leaf and register: Intel's SDM vol. 2A,
 * "CPUID", and AMD's APM vol. 3, Appendix E, unless the leaf says
 * otherwise. Pure macros: the firmware build tests the bits on the CPU
 * (arch/cpu.h), the host-built model decides from the same bits as
 * recorded (bench/model), and the unit tests feed them in. */
#ifndef IRQLAB_ARCH_LIB_CPUID_BITS_H
#define IRQLAB_ARCH_LIB_CPUID_BITS_H

/* Leaf 01H (SDM vol. 2A, Table 3-10 and 3-11). */
#define CPUID_01_ECX_MONITOR (1u << 3)
#define CPUID_01_ECX_EIST (1u << 7)	/* Enhanced Intel SpeedStep */
#define CPUID_01_ECX_PCID (1u << 17)
#define CPUID_01_ECX_X2APIC (1u << 21)
#define CPUID_01_ECX_TSC_DEADLINE (1u << 24)
#define CPUID_01_ECX_HYPERVISOR (1u << 31)	/* reserved for hypervisors */
#define CPUID_01_EDX_TSC (1u << 4)
#define CPUID_01_EDX_MSR (1u << 5)
#define CPUID_01_EDX_APIC (1u << 9)
#define CPUID_01_EDX_MTRR (1u << 12)
#define CPUID_01_EDX_MCA (1u << 14)
#define CPUID_01_EDX_CLFLUSH (1u << 19)
#define CPUID_01_EDX_FXSR (1u << 24)
#define CPUID_01_EDX_SSE2 (1u << 26)

/* Leaf 05H, MONITOR/MWAIT (SDM vol. 2A, Table 3-8): the largest
 * monitor-line size in bytes, 0 where not given. */
#define CPUID_05_EBX_LARGEST_LINE 0xffffu

/* Leaf 06H, thermal and power management (SDM vol. 2A, Table 3-8). */
#define CPUID_06_EAX_TURBO (1u << 1)	/* cleared by MISC_ENABLE[38] */
#define CPUID_06_EAX_HWP (1u << 7)
#define CPUID_06_ECX_APERFMPERF (1u << 0)

/* Leaf 07H subleaf 0, structured extended features (SDM vol. 2A,
 * Table 3-8). */
#define CPUID_07_0_EBX_FSGSBASE (1u << 0)
#define CPUID_07_0_EBX_TSC_ADJUST (1u << 1)
#define CPUID_07_0_EBX_RTM (1u << 11)
#define CPUID_07_0_EBX_SMAP (1u << 20)
#define CPUID_07_0_ECX_SHSTK (1u << 7)	/* CET shadow stacks */
#define CPUID_07_0_EDX_MD_CLEAR (1u << 10)
#define CPUID_07_0_EDX_HYBRID (1u << 15)
#define CPUID_07_0_EDX_SPEC_CTRL (1u << 26)	/* Intel: IBRS and IBPB */
#define CPUID_07_0_EDX_ARCH_CAPABILITIES (1u << 29)

/* Leaf 07H subleaf 1 (SDM vol. 2A, Table 3-8; FRED and LKGS: Intel's
 * FRED specification, docs/long-mode.md "FRED"). */
#define CPUID_07_1_EAX_FRED (1u << 17)
#define CPUID_07_1_EAX_LKGS (1u << 18)

/* Leaf 07H subleaf 2 (SDM vol. 2A, Table 3-8). */
#define CPUID_07_2_EDX_RRSBA_CTRL (1u << 2)
#define CPUID_07_2_EDX_BHI_CTRL (1u << 4)

/* Leaf 1AH, the hybrid core's type in EAX[31:24] (SDM vol. 2A,
 * Table 3-8): an efficiency (Atom) core or a performance (Core) one. */
#define CPUID_1A_EAX_CORE_TYPE_SHIFT 24
#define CORE_TYPE_ATOM 0x20
#define CORE_TYPE_CORE 0x40

/* Leaf 8000_0001H (APM vol. 3, CPUID Fn8000_0001_ECX/EDX). */
#define CPUID_80000001_ECX_TOPOEXT (1u << 22)
#define CPUID_80000001_ECX_PERFCTR_CORE (1u << 23)	/* six core counters */
#define CPUID_80000001_EDX_PDPE1GB (1u << 26)
#define CPUID_80000001_EDX_RDTSCP (1u << 27)

/* Leaf 8000_0007H, advanced power management (APM vol. 3, CPUID
 * Fn8000_0007_EDX; invariant TSC: SDM vol. 2A, Table 3-8 too). */
#define CPUID_80000007_EDX_HW_PSTATE (1u << 7)
#define CPUID_80000007_EDX_INVARIANT_TSC (1u << 8)
#define CPUID_80000007_EDX_CPB (1u << 9)	/* core performance boost */

/* Leaf 8000_0008H (APM vol. 3, CPUID Fn8000_0008_EBX). */
#define CPUID_80000008_EBX_IRPERF (1u << 1)	/* instructions-retired MSR */
#define CPUID_80000008_EBX_IBPB (1u << 12)
#define CPUID_80000008_EBX_IBRS (1u << 14)

/* Leaf 8000_0021H (APM vol. 3, CPUID Fn8000_0021_EAX). */
#define CPUID_80000021_EAX_LFENCE_SERIALIZING (1u << 2)

/* Leaf 8000_0022H (APM vol. 3, CPUID Fn8000_0022_EAX). */
#define CPUID_80000022_EAX_PERFMON_V2 (1u << 0)

#endif
