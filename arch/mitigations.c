#include "arch/mitigations.h"

#include "arch/cpu.h"

#define CR4_PCIDE (1ull << 17)
#define CR3_ADDRESS_MASK 0x000ffffffffff000ull

static int intel(void)
{
	return cpuid(0, 0).ebx == 0x756e6547;	/* "Genu" */
}

static uint32_t amd_ext8_ebx(void)
{
	return cpuid_max_leaf(0x80000000) >= 0x80000008 ?
		       cpuid(0x80000008, 0).ebx : 0;
}

static uint32_t leaf7_edx(void)
{
	return cpuid_max_leaf(0) >= 7 ? cpuid(7, 0).edx : 0;
}

const char *mitigation_no_pcid(void)
{
	return cpuid(1, 0).ecx & CPUID_01_ECX_PCID ? 0 : MITIGATION_NO_PCID;
}

const char *mitigation_no_spec_ctrl(void)
{
	if (intel())
		return leaf7_edx() & CPUID_07_0_EDX_SPEC_CTRL ? 0 :
		       MITIGATION_NO_INTEL_SPEC_CTRL;
	return amd_ext8_ebx() & CPUID_80000008_EBX_IBRS ? 0 :
	       MITIGATION_NO_AMD_IBRS;
}

const char *mitigation_no_ibpb(void)
{
	if (intel())
		return leaf7_edx() & CPUID_07_0_EDX_SPEC_CTRL ? 0 :
		       MITIGATION_NO_INTEL_PRED_CMD;
	return amd_ext8_ebx() & CPUID_80000008_EBX_IBPB ? 0 :
	       MITIGATION_NO_AMD_IBPB;
}

/* PTI's two tables: the kernel's at an 8 KiB boundary, the user's 4 KiB
 * above, each a copy of the live top level, so every address maps the
 * same through both and only the switch's cost is seen. The loader
 * places irqlab at a 4 KiB boundary only, so the pair is found in three
 * pages at run time rather than trusted to an alignment attribute. */
static uint8_t pti_area[3 * 4096] __attribute__((aligned(4096)));
static uint64_t pti_saved_cr3, pti_saved_cr4;

void mitigations_pti_enter(int pcid)
{
	uint64_t (*pti_tables)[512] = (uint64_t (*)[512])(
		((uintptr_t)pti_area + 8191) & ~(uintptr_t)8191);
	const uint64_t *live;
	unsigned i;

	pti_saved_cr3 = read_cr3();
	pti_saved_cr4 = read_cr4();
	live = (const uint64_t *)(uintptr_t)(pti_saved_cr3 & CR3_ADDRESS_MASK);
	for (i = 0; i < 512; i++)
		pti_tables[0][i] = pti_tables[1][i] = live[i];
	/* The interrupted code runs on the user table. CR4.PCIDE may be
	 * set only while CR3[11:0] is 0 (SDM vol. 3 §4.10.1). */
	write_cr3((uint64_t)(uintptr_t)pti_tables[1]);
	if (pcid) {
		write_cr4(pti_saved_cr4 | CR4_PCIDE);
		write_cr3((uint64_t)(uintptr_t)pti_tables[1] | PTI_USER_PCID);
	}
}

void mitigations_pti_leave(void)
{
	/* PCID 0 before PCIDE goes, which flushes every PCID's entries. */
	write_cr3(pti_saved_cr3 & CR3_ADDRESS_MASK);
	write_cr4(pti_saved_cr4);
	write_cr3(pti_saved_cr3);
}

extern uint64_t spec_ctrl_kernel, spec_ctrl_user;

void mitigations_prepare_ibrs(void)
{
	spec_ctrl_user = rdmsr(MSR_IA32_SPEC_CTRL);
	spec_ctrl_kernel = spec_ctrl_user | SPEC_CTRL_IBRS;
}

void mitigations_finish_ibrs(void)
{
	wrmsr(MSR_IA32_SPEC_CTRL, spec_ctrl_user);
}

/* The patch sites of Linux's set: the linux variant's (variants.S) and
 * fred-linux's (fred.S). */
struct linux_site {
	uint8_t *at;
	uint8_t step, distance;
};
extern const struct linux_site linux_sites[], linux_sites_end[];
extern const struct linux_site fred_linux_sites[], fred_linux_sites_end[];

uint32_t mitigation_linux_steps;

static int linux_step_on(unsigned step)
{
	return (mitigation_linux_steps >> step) & 1;
}

/* A site runs its step through a two-byte NOP (66 90), or skips it with
 * the short jump it was assembled with (EB disp8). */
static void patch_sites(const struct linux_site *s,
			const struct linux_site *end, uint32_t steps)
{
	for (; s < end; s++) {
		int on = (steps >> s->step) & 1;

		s->at[0] = on ? 0x66 : 0xeb;
		s->at[1] = on ? 0x90 : s->distance;
	}
}

void mitigations_linux_patch(uint32_t steps)
{
	patch_sites(linux_sites, linux_sites_end, steps);
	patch_sites(fred_linux_sites, fred_linux_sites_end, steps);
	/* Code this CPU may have fetched was written: CPUID serializes
	 * before it runs (SDM vol. 3 §9.1.3, self-modifying code). */
	(void)cpuid(0, 0);
}

void mitigations_linux_prepare(void)
{
	mitigations_linux_patch(mitigation_linux_steps);
	if (linux_step_on(LINUX_STEP_PTI_PCID) || linux_step_on(LINUX_STEP_PTI))
		mitigations_pti_enter(linux_step_on(LINUX_STEP_PTI_PCID));
	if (linux_step_on(LINUX_STEP_IBRS))
		mitigations_prepare_ibrs();
}

void mitigations_linux_finish(void)
{
	if (linux_step_on(LINUX_STEP_IBRS))
		mitigations_finish_ibrs();
	if (linux_step_on(LINUX_STEP_PTI_PCID) || linux_step_on(LINUX_STEP_PTI))
		mitigations_pti_leave();
	mitigations_linux_patch(0);
}
