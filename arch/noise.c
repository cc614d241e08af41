#include "noise.h"

#include "cpu.h"
#include "exceptions.h"

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
	struct machine_info m;
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
