#include "arch/cpu.h"

int cpu_has(struct cpu_feature f)
{
	struct cpuid_regs r;
	uint32_t v;

	if (cpuid_max_leaf(f.leaf & 0xf0000000u) < f.leaf)
		return 0;
	r = cpuid(f.leaf, f.subleaf);
	v = f.reg == CPUID_EAX ? r.eax : f.reg == CPUID_EBX ? r.ebx :
	    f.reg == CPUID_ECX ? r.ecx : r.edx;
	return (v >> f.bit) & 1;
}

uint32_t cpuid_max_leaf(uint32_t base)
{
	return cpuid(base, 0).eax;
}

static void copy_regs(char *dst, const uint32_t *regs, unsigned n)
{
	unsigned i, b;

	for (i = 0; i < n; i++)
		for (b = 0; b < 4; b++)
			dst[i * 4 + b] = (char)(regs[i] >> (8 * b));
	dst[n * 4] = '\0';
}

void cpu_identify(struct cpu_identity *m)
{
	struct cpuid_regs r = cpuid(0, 0);
	uint32_t vendor[3] = { r.ebx, r.edx, r.ecx };
	uint32_t base_family, i;
	char *p;

	copy_regs(m->cpu_vendor, vendor, 3);

	/* Family/model decoding: SDM vol. 2A, CPUID leaf 01H, Figure 3-6. */
	r = cpuid(1, 0);
	base_family = (r.eax >> 8) & 0xf;
	m->stepping = r.eax & 0xf;
	m->family = base_family;
	m->model = (r.eax >> 4) & 0xf;
	if (base_family == 0xf)
		m->family += (r.eax >> 20) & 0xff;
	if (base_family == 0x6 || base_family == 0xf)
		m->model += ((r.eax >> 16) & 0xf) << 4;

	m->brand[0] = '\0';
	if (cpuid_max_leaf(0x80000000) >= 0x80000004) {
		for (i = 0; i < 3; i++) {
			struct cpuid_regs b = cpuid(0x80000002 + i, 0);
			uint32_t regs[4] = { b.eax, b.ebx, b.ecx, b.edx };

			copy_regs(m->brand + 16 * i, regs, 4);
		}
		/* The brand string is often padded with leading spaces. */
		for (p = m->brand; *p == ' '; p++)
			;
		for (i = 0; p[i]; i++)
			m->brand[i] = p[i];
		m->brand[i] = '\0';
	}

	m->hypervisor[0] = '\0';
	if (cpu_has(X86_FEATURE_HYPERVISOR)) {
		struct cpuid_regs h = cpuid(0x40000000, 0);
		uint32_t sig[3] = { h.ebx, h.ecx, h.edx };

		copy_regs(m->hypervisor, sig, 3);
		if (!m->hypervisor[0]) {
			/* Bit set but no signature leaf. */
			m->hypervisor[0] = '?';
			m->hypervisor[1] = '\0';
		}
	}
}

/* Deterministic cache parameters (SDM vol. 2A, CPUID leaf 04H; AMD's
 * 8000_001DH has the same layout): the largest cache level listed. */
static uint64_t largest_cache(uint32_t leaf)
{
	uint64_t best = 0;
	uint32_t i;

	for (i = 0; i < 16; i++) {
		struct cpuid_regs c = cpuid(leaf, i);
		uint64_t ways = (c.ebx >> 22) + 1, partitions = ((c.ebx >> 12) & 0x3ff) + 1;
		uint64_t line = (c.ebx & 0xfff) + 1, sets = (uint64_t)c.ecx + 1;

		if ((c.eax & 0x1f) == 0)
			break;
		if (ways * partitions * line * sets > best)
			best = ways * partitions * line * sets;
	}
	return best;
}

uint64_t cpu_llc_bytes(void)
{
	uint64_t bytes = 0;

	if (cpuid_max_leaf(0) >= 4)
		bytes = largest_cache(4);
	if (!bytes && cpuid_max_leaf(0x80000000) >= 0x8000001d)
		bytes = largest_cache(0x8000001d);
	if (!bytes && cpuid_max_leaf(0x80000000) >= 0x80000006)
		/* EDX[31:18]: L3 size in 512 KiB units; ECX[31:16]: L2 KiB */
		bytes = (uint64_t)(cpuid(0x80000006, 0).edx >> 18) * 512 * 1024;
	if (!bytes && cpuid_max_leaf(0x80000000) >= 0x80000006)
		bytes = (uint64_t)(cpuid(0x80000006, 0).ecx >> 16) * 1024;
	return bytes;
}

/* IA32_BIOS_SIGN_ID (8BH): write 0, execute CPUID(1), read the loaded
 * microcode's revision from the high half (SDM vol. 3A §10.11.7.1).
 * Intel only; an architectural MSR there, so not guarded. */
#define MSR_BIOS_SIGN_ID 0x8b

uint32_t cpu_microcode_revision(const struct cpu_identity *id)
{
	if (!cpu_has(X86_FEATURE_MSR))
		return 0;
	/* AMD family 10h and later: PATCH_LEVEL, the same MSR number, read
	 * as it is (AMD BKDG/PPR, MSR0000_008B). */
	if (id->cpu_vendor[0] == 'A' && id->family >= 0x10)
		return (uint32_t)rdmsr(MSR_BIOS_SIGN_ID);
	if (id->cpu_vendor[0] != 'G')
		return 0;
	wrmsr(MSR_BIOS_SIGN_ID, 0);
	(void)cpuid(1, 0);
	return (uint32_t)(rdmsr(MSR_BIOS_SIGN_ID) >> 32);
}

/* An Intel CPU has IA32_MISC_ENABLE from Pentium M Dothan (family 6
 * model 0DH) on, family 0FH included: where Linux's early_init_intel
 * reads it. */
static int misc_enable_exists(const struct cpu_identity *id)
{
	return id->family > 6 || (id->family == 6 && id->model >= 0x0d);
}

/* Turbo (Intel: CPUID.06H:EAX[1], disabled by IA32_MISC_ENABLE[38]) or
 * core performance boost (AMD: CPUID 8000_0007H:EDX[9], disabled by
 * HWCR[25]); and Intel's HWP (CPUID.06H:EAX[7], on in IA32_PM_ENABLE
 * bit 0). Only MSRs CPUID says exist are read: phase A runs under the
 * firmware's IDT, where a #GP is not irqlab's to catch. */

void cpu_clock_controls(const struct cpu_identity *id,
			struct cpu_clock_controls *c)
{
	int intel = id->cpu_vendor[0] == 'G', amd = id->cpu_vendor[0] == 'A';
	uint32_t leaf6 = cpuid_max_leaf(0) >= 6 ? cpuid(6, 0).eax : 0;

	*c = (struct cpu_clock_controls){
		.invariant_tsc = (uint8_t)cpu_has(X86_FEATURE_INVARIANT_TSC),
	};
	c->leaf6_eax = leaf6;
	if (intel && cpu_has(X86_FEATURE_MSR)) {
		c->boost_known = 1;
		/* IA32_MISC_ENABLE is read whatever CPUID 06H:EAX[1] says:
		 * setting its bit 38 (turbo off) clears that CPUID bit (SDM
		 * vol. 4, Table 2-2), so the bit alone would read "absent"
		 * where turbo is off. Read, unguarded, where Linux's
		 * early_init_intel reads it (misc_enable_exists). */
		c->misc_enable_read = misc_enable_exists(id);
		c->misc_enable = c->misc_enable_read ? rdmsr(MSR_MISC_ENABLE)
						     : 0;
		c->has_hwp = !!(leaf6 & CPUID_06_EAX_HWP);
		c->hwp_on = c->has_hwp && (rdmsr(MSR_PM_ENABLE) & 1);
	}
	if (amd && cpu_has(X86_FEATURE_MSR) &&
	    cpuid_max_leaf(0x80000000) >= 0x80000007) {
		c->boost_known = 1;
		c->has_boost = !!(cpuid(0x80000007, 0).edx &
				 CPUID_80000007_EDX_CPB);
		c->boost_disabled = c->has_boost &&
			!!(rdmsr(MSR_AMD_HWCR) & HWCR_CPB_DISABLE);
	}
	c->core_type = (uint8_t)(cpu_core_type() >>
				 CPUID_1A_EAX_CORE_TYPE_SHIFT);
}
int cpu_turbo_off_simulated(uint64_t *misc_enable_before)
{
	struct cpu_identity id;

	cpu_identify(&id);
	/* Only where bit 38 is not reserved: Intel, IA32_MISC_ENABLE read
	 * as cpu_clock_controls reads it, turbo offered by CPUID. */
	if (id.cpu_vendor[0] != 'G' || !cpu_has(X86_FEATURE_MSR) ||
	    !misc_enable_exists(&id) ||
	    cpuid_max_leaf(0) < 6 || !(cpuid(6, 0).eax & CPUID_06_EAX_TURBO))
		return 0;
	*misc_enable_before = rdmsr(MSR_MISC_ENABLE);
	wrmsr(MSR_MISC_ENABLE,
	      *misc_enable_before | MISC_ENABLE_TURBO_DISABLE);
	return 1;
}

void cpu_misc_enable_put_back(uint64_t misc_enable_before)
{
	wrmsr(MSR_MISC_ENABLE, misc_enable_before);
}

/* CET: CR4.CET (bit 23) and the supervisor settings in IA32_S_CET
 * (6A2H), SDM vol. 1 §17. Firmware that leaves them on would fault
 * irqlab's lretq and its stubs without ENDBR64. */
#define CR4_CET (1ull << 23)
#define MSR_S_CET 0x6a2

int cpu_cet_clear(uint64_t *s_cet)
{
	uint64_t cr4 = read_cr4();

	*s_cet = 0;
	if (!(cr4 & CR4_CET))
		return 0;
	*s_cet = rdmsr(MSR_S_CET);
	wrmsr(MSR_S_CET, 0);
	write_cr4(cr4 & ~CR4_CET);
	return 1;
}

uint32_t cpu_core_type(void)
{
	if (cpuid_max_leaf(0) < 0x1a || !cpu_has(X86_FEATURE_HYBRID))
		return 0;
	return cpuid(0x1a, 0).eax;
}

const char *fpu_state_unsupported(void)
{
	uint32_t edx = cpuid(1, 0).edx;

	if (!(edx & CPUID_01_EDX_FXSR))
		return "CPUID says the processor has no FXSAVE/FXRSTOR "
		       "(CPUID.1:EDX[24]), without which CR4.OSFXSR cannot "
		       "turn SSE on";
	if (!(edx & CPUID_01_EDX_SSE2))
		return "CPUID says the processor has no SSE2 (CPUID.1:EDX[26])";
	return 0;
}

int fpu_state_as_uefi(uint64_t cr0, uint64_t cr4)
{
	return (cr0 & FPU_CR0_BITS) == FPU_CR0_WANTED &&
	       (cr4 & FPU_CR4_BITS) == FPU_CR4_BITS;
}

/* FNINIT's control word is 037FH; MXCSR 1F80H masks every SSE
 * exception, round to nearest (UEFI 2.10 §2.3.4). */
static void fpu_control_words(void)
{
	uint32_t mxcsr = 0x1f80;

	__asm__ volatile("fninit; ldmxcsr %0" ::"m"(mxcsr) : "memory");
}

void fpu_take(struct fpu_control *firmware)
{
	firmware->cr0 = read_cr0();
	firmware->cr4 = read_cr4();
	write_cr0((firmware->cr0 & ~FPU_CR0_BITS) | FPU_CR0_WANTED);
	write_cr4(firmware->cr4 | FPU_CR4_BITS);
	fpu_control_words();
}

void fpu_give_back(const struct fpu_control *firmware)
{
	fpu_control_words();
	write_cr4((read_cr4() & ~FPU_CR4_BITS) | (firmware->cr4 & FPU_CR4_BITS));
	write_cr0((read_cr0() & ~FPU_CR0_BITS) | (firmware->cr0 & FPU_CR0_BITS));
}
