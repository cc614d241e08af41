#include "arch/noise.h"

#include "arch/cpu.h"
#include "arch/exceptions.h"
#include "arch/lib/fmt.h"

#define MSR_SMI_COUNT 0x34

/* Intel's SMI counter (SDM vol. 4, MSR 34H). */
#define MSR_SMI_COUNT 0x34
/* AMD family 17h and later count SMIs received in a core performance
 * counter, event 2BH (AMD PPR for family 17h, "PMCx02B"); irqlab takes
 * the last legacy counter, so the first ones stay free. */
#define MSR_AMD_EVNTSEL3 0xc0010003
#define MSR_AMD_PERFCTR3 0xc0010007
#define AMD_EVENT_SMI_RECEIVED 0x2b
#define AMD_EVNTSEL_USR (1ull << 16)
#define AMD_EVNTSEL_OS (1ull << 17)
#define AMD_EVNTSEL_EN (1ull << 22)

static uint32_t smi_msr;	/* the counter read, 0 when none */
static uint64_t injected;
static const char *smi_why = "not probed";

static const char *amd_smi_counter(const struct cpu_identity *m)
{
	const uint64_t select = AMD_EVENT_SMI_RECEIVED | AMD_EVNTSEL_USR |
				AMD_EVNTSEL_OS | AMD_EVNTSEL_EN;
	uint64_t back, count;

	if (m->family < 0x17)
		return "AMD before family 17h has no SMI event to count";
	if (msr_write_guarded(MSR_AMD_EVNTSEL3, select) ||
	    msr_read_guarded(MSR_AMD_EVNTSEL3, &back) ||
	    msr_read_guarded(MSR_AMD_PERFCTR3, &count))
		return "AMD's performance counter 3 faults on this CPU";
	if (back != select)
		return "AMD's performance counter 3 does not keep its event "
		       "select: no core PMU here";
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
	/* QEMU's TCG runs one instruction after another: nothing to order.
	 * The caveat is for an AMD CPU that executes out of order. */
	if (str_eq(m.hypervisor, "TCGTCGTCGTCG"))
		return "QEMU TCG with an AMD CPUID: instructions run in order, "
		       "so LFENCE orders the reads as on Intel";
	return "AMD: LFENCE serialisation could not be confirmed (DE_CFG not "
	       "writable): timestamps may drift by a few instructions";
}

const char *noise_counter(void)
{
	return smi_msr == MSR_SMI_COUNT ? "Intel MSR_SMI_COUNT (0x34)" :
	       smi_msr ? "AMD performance counter 3, event 2BH (SMIs received)" :
			 0;
}
