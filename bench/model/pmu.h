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

/* Intel's clock controls (SDM vol. 4, Table 2-2, IA32_MISC_ENABLE; vol.
 * 3B §15.3): bit 16 enables Enhanced Intel SpeedStep (EIST), without
 * which IA32_PERF_CTL is not acted on; bit 38 turns turbo off. */
#define PMU_MISC_ENABLE_EIST (1ull << 16)
#define PMU_MISC_ENABLE_TURBO_DISABLE (1ull << 38)

/* Turbo's state on Intel, an enum boost_state (bench/model/names.h),
 * from CPUID 06H:EAX and IA32_MISC_ENABLE where it could be read.
 * Setting MISC_ENABLE[38] clears CPUID 06H:EAX[1] (Table 2-2), so the
 * CPUID bit alone never shows turbo turned off: the MSR decides, as
 * Linux's intel_pstate and acpi-cpufreq read it. */
unsigned pmu_intel_turbo_state(uint32_t leaf6_eax, int misc_enable_read,
			       uint64_t misc_enable);

/* What Intel's frequency pin does (docs/timing.md "Pinning the
 * frequency"), from what the boot CPU, or the processor pinned, read:
 * HWP where it is on; else IA32_PERF_CTL at the base ratio where EIST is
 * offered (CPUID.1:ECX[7]) and enabled (MISC_ENABLE[16]); else nothing,
 * with *why set. */
enum pmu_pin_path {
	PIN_PATH_NONE,
	PIN_PATH_HWP,
	PIN_PATH_PERF_CTL,
};
struct pmu_intel_clock {
	uint8_t hwp_on;		/* CPUID 06H:EAX[7] and IA32_PM_ENABLE[0] */
	uint8_t eist;		/* CPUID.1:ECX[7] */
	uint8_t misc_enable_read;	/* IA32_MISC_ENABLE read without a fault */
	uint64_t misc_enable;
};
enum pmu_pin_path pmu_intel_pin_path(const struct pmu_intel_clock *c,
				     const char **why);

/* Turbo, on the IA32_PERF_CTL path: already off (MISC_ENABLE[38] set);
 * to be turned off (CPUID 06H:EAX[1] offers it and bit 38 is clear);
 * or not offered (both 0: bit 38 is then reserved, and the ratio asked
 * for is the highest the processor runs at). */
enum pmu_turbo_step {
	TURBO_ALREADY_OFF,
	TURBO_TURN_OFF,
	TURBO_NOT_OFFERED,
};
enum pmu_turbo_step pmu_intel_turbo_step(uint32_t leaf6_eax,
					 uint64_t misc_enable);

/* IA32_PERF_CTL's request (SDM vol. 4, Table 2-2): the target ratio in
 * bits 15:8, everything else as it was, since other bits are not
 * irqlab's to set (bit 32 disengages turbo on some parts). On
 * Silvermont and Airmont Atoms (family 6, models 37H Bay Trail and 4CH
 * Cherry Trail and Braswell), bits 7:0 are the voltage ID the ratio is
 * to run at: a VID of 0, or one left from a slower request, asks for
 * the ratio at too low a voltage. There the VID is the one Linux's
 * intel_pstate gives such a ratio (atom_get_val, from the
 * MSR_ATOM_CORE_* table below): the VID of the lowest ratio, plus an
 * equal step for each ratio above it, rounded up, up to the VID of the
 * highest non-turbo ratio; past that ratio, the turbo VID. */
#define PMU_MSR_ATOM_CORE_RATIOS 0x66a	/* 14:8 lowest, 22:16 highest */
#define PMU_MSR_ATOM_CORE_VIDS 0x66b	/* 14:8 lowest's, 22:16 highest's */
#define PMU_MSR_ATOM_CORE_TURBO_VIDS 0x66d	/* 6:0 turbo's */
int pmu_atom_takes_vid(uint32_t family, uint32_t model);
struct pmu_atom_vids {
	uint64_t ratios, vids, turbo_vids;	/* the three MSRs as read */
};
/* `atom` NULL where the processor is not such an Atom. */
uint64_t pmu_perf_ctl_request(uint64_t current, uint32_t ratio,
			      const struct pmu_atom_vids *atom);

/* IA32_MISC_ENABLE[38], turbo off, is the package's on most parts (SDM
 * vol. 4, the MSR tables of Nehalem on give bit 38 package scope), so a
 * processor that set it must not clear it while another of its package
 * still measures: that one would go on with turbo on. The bit's holders
 * are counted per package (docs/timing.md "Pinning the frequency"): the
 * last one out clears it, where one of them set it. A processor that
 * finds it clear while another of its package holds it set shows that
 * the bit is narrower here (the core's or the thread's): from then on
 * each processor of that package clears its own. Where the table is
 * full a processor counts as narrower, and clears its own. */
#define PMU_PACKAGE_HOLDS_MAX 64
struct pmu_package_hold {
	uint32_t package;	/* the APIC ID's package field */
	uint32_t holders;
	uint8_t set_by_a_holder;	/* found clear by the first in */
	uint8_t narrower;
};
struct pmu_package_holds {
	uint32_t n;
	struct pmu_package_hold p[PMU_PACKAGE_HOLDS_MAX];
};
/* A processor of `package` holds the bit from now on; it found the bit
 * set (`found_set`), or clear and set it. */
void pmu_package_hold_take(struct pmu_package_holds *h, uint32_t package,
			   int found_set);
/* The holder of `package` that set the bit itself (`set_here`) or not
 * lets go: whether it is to clear the bit now, and why. */
enum pmu_hold_leave {
	PMU_HOLD_KEEP,
	PMU_HOLD_CLEAR_LAST,	/* the last of its package out */
	PMU_HOLD_CLEAR_OWN,	/* narrower than the package: its own */
};
int pmu_package_hold_leave(struct pmu_package_holds *h, uint32_t package,
			   int set_here);

#endif
