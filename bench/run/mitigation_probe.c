#include "bench/run/mitigation_probe.h"

#include "arch/cpu.h"
#include "arch/exceptions.h"
#include "arch/mitigations.h"
#include "bench/model/mitigations.h"
#include "bench/model/results.h"

static uint32_t leaf_register(uint32_t leaf, uint32_t subleaf,
			      enum cpuid_reg reg)
{
	struct cpuid_regs r;

	if (cpuid_max_leaf(leaf & 0xf0000000u) < leaf)
		return 0;
	r = cpuid(leaf, subleaf);
	return reg == CPUID_EBX ? r.ebx : reg == CPUID_ECX ? r.ecx : r.edx;
}

void mitigation_probe(struct run_result *r)
{
	struct mitigation_bits *b = &r->machine.mitigation;
	struct linux_choices choices;

	b->leaf1_ecx = leaf_register(1, 0, CPUID_ECX);
	b->leaf7_ebx = leaf_register(7, 0, CPUID_EBX);
	b->leaf7_edx = leaf_register(7, 0, CPUID_EDX);
	/* Subleaf 2 exists where leaf 7's EAX says so. */
	b->leaf7_2_edx = cpuid_max_leaf(0) >= 7 && cpuid(7, 0).eax >= 2 ?
				 cpuid(7, 2).edx : 0;
	b->ext8_ebx = leaf_register(0x80000008, 0, CPUID_EBX);
	b->arch_capabilities = 0;
	b->arch_capabilities_read =
		cpu_has(X86_FEATURE_ARCH_CAPABILITIES) &&
		!msr_read_guarded(MSR_IA32_ARCH_CAPABILITIES,
				  &b->arch_capabilities);
	linux_choose(r->machine.cpu_vendor, r->machine.family, r->machine.model,
		     b, &choices);
	mitigation_linux_steps = choices.steps;
	if (config_simulates(&r->config, SIMULATE_LINUX_EVERY_STEP)) {
		const char *why_not[LINUX_STEPS];

		/* Every step the CPU can run, not Linux's set: the reports
		 * name the steps left off, and why, from the same bits. */
		mitigation_linux_steps = linux_every_step(r->machine.cpu_vendor,
							  b, why_not);
		record_probe(r, PROBE_MITIGATIONS, PROBE_SIMULATED,
			     "simulate = linux-every-step: steps 0x%x, where "
			     "Linux's set here is 0x%x; ARCH_CAPABILITIES %s",
			     mitigation_linux_steps, choices.steps,
			     b->arch_capabilities_read ? "read" : "not read");
	} else if (b->arch_capabilities_read)
		record_probe(r, PROBE_MITIGATIONS, PROBE_OK,
			     "IA32_ARCH_CAPABILITIES 0x%llx; Linux's set here: "
			     "steps 0x%x",
			     (unsigned long long)b->arch_capabilities,
			     choices.steps);
	else
		record_probe(r, PROBE_MITIGATIONS, PROBE_ABSENT,
			     "%s; Linux's set here: steps 0x%x",
			     cpu_has(X86_FEATURE_ARCH_CAPABILITIES) ?
				     "reading IA32_ARCH_CAPABILITIES faulted" :
				     "CPUID.(7,0):EDX[29] (ARCH_CAPABILITIES) "
				     "is 0",
			     choices.steps);
}
