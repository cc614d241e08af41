#include "arch/noise.h"

#include "arch/cpu.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"
#include "arch/pmu_msrs.h"

/* Intel's SMI counter (SDM vol. 4, MSR 34H). */
#define MSR_SMI_COUNT 0x34
/* AMD family 17h and later count SMIs received in a core performance
 * counter, event 2BH (arch/pmu_msrs.h); irqlab takes the last legacy
 * counter, so the first ones stay free. The legacy PERF_CTL3/PERF_CTR3
 * are the same counter as the core extension's C001_0206H/C001_0207H
 * (APM vol. 2 §13.2.1). */
#define SMI_COUNTER 3
#define MSR_AMD_EVNTSEL3 (MSR_AMD_PERF_CTL_LEGACY + SMI_COUNTER)
#define MSR_AMD_PERFCTR3 (MSR_AMD_PERF_CTR_LEGACY + SMI_COUNTER)
#define SMI_PROBE_LOOP 100000u

static uint32_t smi_msr;	/* the counter read, 0 when none */
static uint64_t injected;
static const char *smi_why = "not probed";
/* What the AMD counter's set-up changed, put back by noise_finish. */
static struct {
	uint8_t select_changed, global_changed;
	uint64_t select, global;
} amd_before;
static char smi_text[160];
static const char counter3_faults[] =
	"AMD's performance counter 3 faults on this CPU";

static void amd_put_back(void)
{
	if (amd_before.select_changed)
		(void)msr_write_guarded(MSR_AMD_EVNTSEL3, amd_before.select);
	if (amd_before.global_changed)
		(void)msr_write_guarded(MSR_AMD_PERF_GLOBAL_CTL,
					amd_before.global);
	amd_before.select_changed = amd_before.global_changed = 0;
}

/* No loop raises an SMI: raising one (a write to the chipset's APM
 * control port, B2H) runs whatever the firmware's handler does with
 * that command, which no benchmark may ask for. What a loop can prove is
 * that counter 3 itself counts: set to retired instructions (C0H), it
 * must advance by the loop's length at least; then it is set to SMIs
 * received. The event is the PPR's to define. */
static const char *amd_counter3_counts(void)
{
	const uint64_t retired = AMD_EVENT_RETIRED_INSTRUCTIONS |
				 AMD_PERF_CTL_OS | AMD_PERF_CTL_ENABLE;
	uint64_t before, after;
	unsigned i;

	if (msr_write_guarded(MSR_AMD_EVNTSEL3, retired) ||
	    msr_read_guarded(MSR_AMD_PERFCTR3, &before))
		return counter3_faults;
	for (i = 0; i < SMI_PROBE_LOOP; i++)
		__asm__ volatile("" ::: "memory");
	if (msr_read_guarded(MSR_AMD_PERFCTR3, &after))
		return counter3_faults;
	if (((after - before) & AMD_COUNTER_MASK) < SMI_PROBE_LOOP) {
		fmt_snprintf(smi_text, sizeof(smi_text), "AMD's performance "
			     "counter 3 does not count here (%llu retired "
			     "instructions over a loop of %u): SMIs received "
			     "cannot be counted",
			     (unsigned long long)((after - before) &
						  AMD_COUNTER_MASK),
			     SMI_PROBE_LOOP);
		return smi_text;
	}
	fmt_snprintf(smi_text, sizeof(smi_text), "AMD counter 3, event 2BH "
		     "(SMIs received), proven to count (%llu instructions "
		     "over a loop of %u)",
		     (unsigned long long)((after - before) &
					  AMD_COUNTER_MASK),
		     SMI_PROBE_LOOP);
	return 0;
}

static const char *amd_smi_counter(const struct cpu_identity *m)
{
	const uint64_t select = AMD_EVENT_SMI_RECEIVED | AMD_PERF_CTL_USR |
				AMD_PERF_CTL_OS | AMD_PERF_CTL_ENABLE;
	int perfmon_v2 = cpuid_max_leaf(0x80000000) >= 0x80000022 &&
			 (cpuid(0x80000022, 0).eax &
			  CPUID_80000022_EAX_PERFMON_V2);
	uint64_t back, global;
	const char *why;

	if (m->family < 0x17)
		return "AMD before family 17h has no SMI event to count";
	if (msr_read_guarded(MSR_AMD_EVNTSEL3, &amd_before.select) ||
	    msr_write_guarded(MSR_AMD_EVNTSEL3, select) ||
	    msr_read_guarded(MSR_AMD_EVNTSEL3, &back))
		return counter3_faults;
	amd_before.select_changed = 1;
	if (back != select) {
		amd_put_back();
		return "AMD's performance counter 3 does not keep its event "
		       "select: no core PMU here";
	}
	if (perfmon_v2) {
		if (msr_read_guarded(MSR_AMD_PERF_GLOBAL_CTL, &global) ||
		    msr_write_guarded(MSR_AMD_PERF_GLOBAL_CTL,
				      global |
				      AMD_PERF_GLOBAL_COUNTER(SMI_COUNTER))) {
			amd_put_back();
			return "PerfMonV2's PerfCntrGlobalCtl faults: AMD's "
			       "performance counter 3 cannot be enabled";
		}
		amd_before.global = global;
		amd_before.global_changed = 1;
	}
	why = amd_counter3_counts();
	if (why || msr_write_guarded(MSR_AMD_EVNTSEL3, select)) {
		amd_put_back();
		return why ? why : counter3_faults;
	}
	smi_msr = MSR_AMD_PERFCTR3;
	return 0;
}

const char *noise_init(void)
{
	struct cpu_identity m;
	uint64_t value;

	cpu_identify(&m);
	smi_msr = 0;
	if (m.cpu_vendor[0] == 'A' || m.cpu_vendor[0] == 'H') {
		/* AuthenticAMD, HygonGenuine */
		smi_why = amd_smi_counter(&m);
		return smi_why;
	}
	if (m.cpu_vendor[0] != 'G') {	/* GenuineIntel */
		smi_why = "no SMI counter is known on this vendor's CPUs";
		return smi_why;
	}
	if (msr_read_guarded(MSR_SMI_COUNT, &value)) {
		smi_why = "MSR_SMI_COUNT (0x34) faults on this CPU";
		return smi_why;
	}
	smi_msr = MSR_SMI_COUNT;
	return smi_why = 0;
}

uint64_t noise_snapshot(void)
{
	uint64_t smi = smi_msr ? rdmsr(smi_msr) & 0xffffffffu : 0;

	/* SMI and NMI counts are both small: one sum changes when either
	 * does. The injected count only ever grows. */
	return (smi << 32) + nmi_count + injected;
}

void noise_inject_smi(void)
{
	injected += 1ull << 32;
}

#define MSR_AMD_DE_CFG 0xc0011029
#define DE_CFG_LFENCE_SERIALIZE (1ull << 1)

static void set_de_cfg(void *arg)
{
	uint64_t v = rdmsr(MSR_AMD_DE_CFG);

	if (!(v & DE_CFG_LFENCE_SERIALIZE))
		wrmsr(MSR_AMD_DE_CFG, v | DE_CFG_LFENCE_SERIALIZE);
	*(uint64_t *)arg = rdmsr(MSR_AMD_DE_CFG);
}

/* How the boot CPU found LFENCE (fences_prepare), for the others. */
static enum fence_kind boot_fence = FENCE_NOT_PREPARED;

/* The timestamps fence with LFENCE (docs/timing.md). On Intel it is dispatch-
 * serialising; on AMD, and Hygon's Zen-derived parts (Linux's init_hygon
 * sets the same bit), only when CPUID 8000_0021 EAX[2] says so or DE_CFG
 * bit 1 is set, which Linux sets too. */
const char *fences_prepare(void)
{
	struct cpu_identity m;
	struct fault_info fault;
	uint64_t de_cfg = 0;
	int faulted;

	cpu_identify(&m);
	boot_fence = FENCE_ARCHITECTURAL;
	if (m.cpu_vendor[0] == 'G')
		return "Intel: LFENCE is dispatch-serialising";
	if (m.cpu_vendor[0] != 'A' && m.cpu_vendor[0] != 'H')
		return "not Intel, AMD or Hygon: LFENCE assumed "
		       "dispatch-serialising";
	if (cpuid_max_leaf(0x80000000) >= 0x80000021 &&
	    (cpuid(0x80000021, 0).eax &
	     CPUID_80000021_EAX_LFENCE_SERIALIZING))
		return "AMD: CPUID 8000_0021 EAX[2] says LFENCE is "
		       "dispatch-serialising";
	boot_fence = FENCE_DE_CFG;
	faulted = guard_run(set_de_cfg, &de_cfg, &fault) != 0;
	if (!faulted && (de_cfg & DE_CFG_LFENCE_SERIALIZE))
		return "AMD: DE_CFG (C001_1029) bit 1 set, so LFENCE is "
		       "dispatch-serialising";
	/* QEMU's TCG runs one instruction after another: nothing to order.
	 * The caveat is for an AMD CPU that executes out of order. */
	if (str_eq(m.hypervisor, "TCGTCGTCGTCG")) {
		boot_fence = FENCE_IN_ORDER;
		return "QEMU TCG with an AMD CPUID: instructions run in order, "
		       "so LFENCE orders the reads as on Intel";
	}
	boot_fence = FENCE_UNCONFIRMED;
	return faulted ? "AMD: LFENCE serialisation could not be confirmed "
			 "(DE_CFG faults): timestamps may drift by a few "
			 "instructions"
		       : "AMD: LFENCE serialisation could not be confirmed "
			 "(DE_CFG bit 1 does not stick): timestamps may drift "
			 "by a few instructions";
}

/* DE_CFG is each core's own (Linux's init_amd sets the bit on every
 * CPU as it comes up, arch/x86/kernel/cpu/amd.c), so a processor that
 * runs rows or sends IPIs sets it too. Unguarded: an exception here
 * parks the processor, so only an MSR the boot CPU wrote without one. */
enum fence_kind fences_prepare_here(void)
{
	uint64_t de_cfg = 0;

	if (boot_fence != FENCE_DE_CFG)
		return boot_fence;
	set_de_cfg(&de_cfg);
	return de_cfg & DE_CFG_LFENCE_SERIALIZE ? FENCE_DE_CFG
						: FENCE_UNCONFIRMED;
}

const char *noise_counter(void)
{
	return smi_msr == MSR_SMI_COUNT ? "Intel MSR_SMI_COUNT (0x34)" :
	       smi_msr ? smi_text : 0;
}

void noise_finish(void)
{
	amd_put_back();
	smi_msr = 0;
}
