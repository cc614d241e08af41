#include "arch/noise.h"

#include "arch/cpu.h"
#include "arch/exceptions.h"

#define MSR_SMI_COUNT 0x34

static int smi_readable;
static uint64_t injected;
static const char *smi_why = "not probed";

static void probe(void *arg)
{
	*(uint64_t *)arg = rdmsr(MSR_SMI_COUNT);
}

const char *noise_init(void)
{
	struct cpu_identity m;
	struct fault_info fault;
	uint64_t value;

	cpu_identify(&m);
	if (m.cpu_vendor[0] != 'G') {	/* GenuineIntel */
		smi_why = "MSR_SMI_COUNT (0x34) is Intel-only";
		return smi_why;
	}
	if (guard_run(probe, &value, &fault)) {
		smi_why = "MSR_SMI_COUNT (0x34) faults on this CPU";
		return smi_why;
	}
	smi_readable = 1;
	return smi_why = 0;
}

uint64_t noise_snapshot(void)
{
	uint64_t smi = smi_readable ? rdmsr(MSR_SMI_COUNT) : 0;

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

/* The timestamps fence with LFENCE (docs/timing.md). On Intel it is dispatch-
 * serialising; on AMD only when CPUID 8000_0021 EAX[2] says so or DE_CFG
 * bit 1 is set, which Linux sets too. */
const char *fences_prepare(void)
{
	struct cpu_identity m;
	struct fault_info fault;
	uint64_t de_cfg = 0;

	cpu_identify(&m);
	if (m.cpu_vendor[0] == 'G')
		return "Intel: LFENCE is dispatch-serialising";
	if (m.cpu_vendor[0] != 'A')
		return "not Intel or AMD: LFENCE assumed dispatch-serialising";
	if (cpuid_max_leaf(0x80000000) >= 0x80000021 &&
	    (cpuid(0x80000021, 0).eax & (1u << 2)))
		return "AMD: CPUID 8000_0021 EAX[2] says LFENCE is "
		       "dispatch-serialising";
	if (!guard_run(set_de_cfg, &de_cfg, &fault) &&
	    (de_cfg & DE_CFG_LFENCE_SERIALIZE))
		return "AMD: DE_CFG (C001_1029) bit 1 set, so LFENCE is "
		       "dispatch-serialising";
	return "AMD: LFENCE serialisation could not be confirmed (DE_CFG not "
	       "writable): timestamps may drift by a few instructions";
}
