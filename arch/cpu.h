/* CPU access: CPUID, MSRs, control registers and port I/O, as small inline
 * wrappers. Every CPUID bit the project tests is named once, in
 * arch/lib/cpuid_bits.h, which the host-built model reads too. */
#ifndef IRQLAB_ARCH_CPU_H
#define IRQLAB_ARCH_CPU_H

#include <stdint.h>

#include "arch/lib/cpuid_bits.h"


struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

static inline struct cpuid_regs cpuid(uint32_t leaf, uint32_t subleaf)
{
	struct cpuid_regs r;

	__asm__ volatile("cpuid"
			 : "=a"(r.eax), "=b"(r.ebx), "=c"(r.ecx), "=d"(r.edx)
			 : "a"(leaf), "c"(subleaf));
	return r;
}

/* A feature is a CPUID leaf, subleaf, register and bit. */
enum cpuid_reg { CPUID_EAX, CPUID_EBX, CPUID_ECX, CPUID_EDX };
struct cpu_feature {
	uint32_t leaf, subleaf;
	uint8_t reg, bit;
};

/* The bit number from its mask in arch/lib/cpuid_bits.h, folded at
 * compile time. */
#define X86_FEATURE(name, l, s, r, mask) \
	static const struct cpu_feature X86_FEATURE_##name = \
		{ l, s, r, __builtin_ctz(mask) }
X86_FEATURE(TSC, 0x1, 0, CPUID_EDX, CPUID_01_EDX_TSC);
X86_FEATURE(MSR, 0x1, 0, CPUID_EDX, CPUID_01_EDX_MSR);
X86_FEATURE(APIC, 0x1, 0, CPUID_EDX, CPUID_01_EDX_APIC);
X86_FEATURE(CLFLUSH, 0x1, 0, CPUID_EDX, CPUID_01_EDX_CLFLUSH);
X86_FEATURE(MONITOR, 0x1, 0, CPUID_ECX, CPUID_01_ECX_MONITOR);
X86_FEATURE(X2APIC, 0x1, 0, CPUID_ECX, CPUID_01_ECX_X2APIC);
X86_FEATURE(TSC_DEADLINE, 0x1, 0, CPUID_ECX, CPUID_01_ECX_TSC_DEADLINE);
X86_FEATURE(HYPERVISOR, 0x1, 0, CPUID_ECX, CPUID_01_ECX_HYPERVISOR);
X86_FEATURE(FRED, 0x7, 1, CPUID_EAX, CPUID_07_1_EAX_FRED);
X86_FEATURE(LKGS, 0x7, 1, CPUID_EAX, CPUID_07_1_EAX_LKGS);
X86_FEATURE(FSGSBASE, 0x7, 0, CPUID_EBX, CPUID_07_0_EBX_FSGSBASE);
X86_FEATURE(SHSTK, 0x7, 0, CPUID_ECX, CPUID_07_0_ECX_SHSTK);
X86_FEATURE(TSC_ADJUST, 0x7, 0, CPUID_EBX, CPUID_07_0_EBX_TSC_ADJUST);
X86_FEATURE(ARCH_CAPABILITIES, 0x7, 0, CPUID_EDX,
	    CPUID_07_0_EDX_ARCH_CAPABILITIES);
X86_FEATURE(HYBRID, 0x7, 0, CPUID_EDX, CPUID_07_0_EDX_HYBRID);
X86_FEATURE(MCA, 0x1, 0, CPUID_EDX, CPUID_01_EDX_MCA);
X86_FEATURE(MTRR, 0x1, 0, CPUID_EDX, CPUID_01_EDX_MTRR);
X86_FEATURE(PDPE1GB, 0x80000001, 0, CPUID_EDX, CPUID_80000001_EDX_PDPE1GB);
X86_FEATURE(RDTSCP, 0x80000001, 0, CPUID_EDX, CPUID_80000001_EDX_RDTSCP);
X86_FEATURE(INVARIANT_TSC, 0x80000007, 0, CPUID_EDX,
	    CPUID_80000007_EDX_INVARIANT_TSC);
#undef X86_FEATURE

int cpu_has(struct cpu_feature f);
/* This processor's CPUID.1AH:EAX where CPUID.7.0:EDX[15] says the CPU
 * is hybrid (core type in bits 31:24, CPUID_1A_EAX_CORE_TYPE_SHIFT:
 * CORE_TYPE_ATOM or CORE_TYPE_CORE); 0 elsewhere. */
uint32_t cpu_core_type(void);
uint32_t cpuid_max_leaf(uint32_t base);

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" ::"c"(msr), "a"((uint32_t)v),
			 "d"((uint32_t)(v >> 32))
			 : "memory");
}

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" ::"a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;

	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;

	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline uint64_t read_cr2(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr3(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

#define CR4_LA57 (1ull << 12)	/* 5-level paging (SDM vol. 3 §2.5) */
#define CR4_FSGSBASE (1ull << 16)	/* RD/WR FS/GS BASE allowed */
#define CR4_FRED (1ull << 32)	/* FRED event delivery (docs/long-mode.md) */

/* FRED's MSRs (docs/long-mode.md "FRED"): the stack for each of the four
 * stack levels, the level each exception is delivered at (2 bits per
 * vector 0-31), and the entry page with the current stack level in bits
 * 1:0, the red zone in 8:6 and the interrupts' stack level in 10:9. */
#define MSR_FRED_RSP0 0x1cc
#define MSR_FRED_STKLVLS 0x1d0
#define MSR_FRED_CONFIG 0x1d4

static inline uint64_t read_cr4(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void write_cr4(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr4" ::"r"(v) : "memory");
}

static inline uint64_t read_cr0(void)
{
	uint64_t v;

	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline void write_cr0(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr0" ::"r"(v) : "memory");
}

static inline void write_cr3(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr3" ::"r"(v) : "memory");
}

static inline void clflush_line(const void *p)
{
	__asm__ volatile("clflush %0" ::"m"(*(const volatile char *)p) : "memory");
}

static inline void cli(void) { __asm__ volatile("cli" ::: "memory"); }

/* Interrupts off, returning RFLAGS as they were; irq_restore turns them
 * back on only if they were (RFLAGS.IF, bit 9). */
static inline uint64_t irq_save(void)
{
	uint64_t flags;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) :: "memory");
	return flags;
}

static inline void irq_restore(uint64_t flags)
{
	if (flags & (1u << 9))
		__asm__ volatile("sti" ::: "memory");
}

/* Orders every earlier load and store before every later one. */
static inline void mfence(void) { __asm__ volatile("mfence" ::: "memory"); }

/* WRMSR to the x2APIC registers and to IA32_TSC_DEADLINE is not
 * serialising: Intel wants MFENCE; LFENCE before it (SDM vol. 3
 * §11.12.3 and §11.5.4.1; Linux weak_wrmsr_fence). */
static inline void weak_wrmsr_fence(void)
{
	__asm__ volatile("mfence; lfence" ::: "memory");
}

/* Raises #UD on purpose: the fault self-tests. */
static inline void cpu_ud2(void) { __asm__ volatile("ud2"); }

/* LGDT, LIDT and LTR; `pointer` is a 10-byte limit-and-base operand
 * (SDM vol. 3 §3.5.1, §6.10). */
static inline void lgdt(const void *pointer)
{
	__asm__ volatile("lgdt (%0)" ::"r"(pointer) : "memory");
}

static inline void lidt(const void *pointer)
{
	__asm__ volatile("lidt (%0)" ::"r"(pointer) : "memory");
}

static inline void ltr(uint16_t selector)
{
	__asm__ volatile("ltr %w0" ::"r"(selector) : "memory");
}
static inline void hlt(void) { __asm__ volatile("hlt" ::: "memory"); }

/* Opening read of a timed region: lfence orders RDTSC after everything
 * before it (Intel 324264; docs/timing.md). */
static inline uint64_t tsc_open(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Closing read: the same sequence as TSC_CLOSE in arch/timing.h. */
static inline uint64_t tsc_close(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
	return ((uint64_t)hi << 32) | lo;
}

/* The counted instrument's reads of counter `ecx`, as RDPMC takes it
 * (PMC_OPEN_TO and PMC_CLOSE in arch/timing.h; docs/timing.md "Core
 * cycles"). */
static inline uint64_t pmc_open(uint32_t ecx)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx)
			 : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t pmc_close(uint32_t ecx)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdpmc; lfence" : "=a"(lo), "=d"(hi)
			 : "c"(ecx) : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Busy-waits `us` microseconds on the TSC ticking at `tsc_hz` (taken as
 * 1 GHz while the frequency is unknown, 0). */
static inline void tsc_pause_us(uint64_t tsc_hz, uint64_t us)
{
	uint64_t until = tsc_close() + (tsc_hz ? tsc_hz : 1000000000ull) /
					       1000000u * us;

	while (tsc_close() < until)
		;
}

/* Size of the last-level cache from CPUID (leaf 4 on Intel, 8000_001D or
 * 8000_0006 on AMD), or 0 when CPUID does not say. */
uint64_t cpu_llc_bytes(void);

/* The x87 and SSE state irqlab runs on: what UEFI 2.10 §2.3.4 requires
 * of x64 firmware (CR0.MP and NE set, EM and TS clear; CR4.OSFXSR and
 * OSXMMEXCPT set; FCW 037FH, MXCSR 1F80H), which not every firmware
 * leaves: U-Boot's EFI leaves CR4.OSFXSR clear, where LDMXCSR raises
 * #UD (docs/run.md "The FPU and SSE"). */
#define FPU_CR0_BITS ((1ull << 1) | (1ull << 2) | (1ull << 3) | (1ull << 5))
#define FPU_CR0_WANTED ((1ull << 1) | (1ull << 5))	/* MP, NE */
#define FPU_CR4_BITS ((1ull << 9) | (1ull << 10))	/* OSFXSR, OSXMMEXCPT */
struct fpu_control {
	uint64_t cr0, cr4;	/* the firmware's, as fpu_take found them */
};
/* Why this processor cannot run so, or NULL: no FXSR or SSE2
 * (CPUID.1:EDX[24], [26]), which every x86-64 processor has. */
const char *fpu_state_unsupported(void);
/* Whether CR0 and CR4 are as UEFI requires. */
int fpu_state_as_uefi(uint64_t cr0, uint64_t cr4);
/* Phase B, before anything that may use the x87 or SSE: CR0 and CR4 as
 * UEFI requires, then FCW and MXCSR; the firmware's CR0 and CR4 into
 * `firmware`. */
void fpu_take(struct fpu_control *firmware);
/* Before the firmware runs again: FCW and MXCSR as UEFI requires, then
 * CR0's and CR4's x87 and SSE bits as the firmware had them. */
void fpu_give_back(const struct fpu_control *firmware);

/* What CPUID says this processor is. */
struct cpu_identity {
	char cpu_vendor[13];
	char brand[49];
	char hypervisor[13];	/* CPUID 0x40000000 signature, "" on bare metal */
	uint32_t family, model, stepping;
};

void cpu_identify(struct cpu_identity *m);
/* Turns CET off where the firmware left CR4.CET on: IA32_S_CET cleared,
 * then CR4.CET. Returns 1 when it was on, with IA32_S_CET as found. */
int cpu_cet_clear(uint64_t *s_cet);
/* Supervisor shadow stacks on, as firmware that uses them leaves them
 * (arch/firmware_abi.S), the shadow stack's token at `token` on a page
 * paging_shadow_stack_page made: IA32_PL0_SSP, CR0.WP, CR4.CET,
 * IA32_S_CET.SH_STK_EN, then SETSSBSY. The stack it starts holds no
 * return address for this call, so it returns by a jump; its caller
 * must not return while they are on (only simulate = cet-shadow-stack
 * calls it, at the start of phase B, which never returns). */
void cpu_shadow_stack_on(uint64_t *token);
/* What moves the core clock against the TSC: turbo or core performance
 * boost (offered, turned off), HWP (offered, on), the hybrid core type
 * (CPUID 1AH EAX[31:24], 0 when not hybrid) and the invariant-TSC bit.
 * boost_known is 0 where the vendor's controls are not known. */
/* The MSRs that control turbo and boost, read by cpu_clock_controls and
 * written by the runner's frequency pin (SDM vol. 4; AMD PPR). */
#define MSR_MISC_ENABLE 0x1a0
#define MISC_ENABLE_TURBO_DISABLE (1ull << 38)
#define MISC_ENABLE_EIST (1ull << 16)
#define MSR_PM_ENABLE 0x770
#define MSR_AMD_HWCR 0xc0010015
#define HWCR_CPB_DISABLE (1ull << 25)
struct cpu_clock_controls {
	/* has_boost and boost_disabled: AMD's, from CPUID and HWCR. */
	uint8_t boost_known, has_boost, boost_disabled;
	uint8_t has_hwp, hwp_on;
	uint8_t core_type, invariant_tsc;
	/* Intel: CPUID 06H:EAX, and IA32_MISC_ENABLE where it was read;
	 * turbo's state is decided from both (pmu_intel_turbo_state). */
	uint32_t leaf6_eax;
	uint8_t misc_enable_read;
	uint64_t misc_enable;
};
void cpu_clock_controls(const struct cpu_identity *id,
			struct cpu_clock_controls *c);
/* simulate = turbo-off: turbo turned off through IA32_MISC_ENABLE[38]
 * as a firmware setup option leaves it, which clears CPUID 06H:EAX[1]
 * (SDM vol. 4, Table 2-2). Returns 1 where it did (Intel, turbo
 * offered), with the MSR as it was; cpu_misc_enable_put_back writes
 * that back. Unguarded: phase A, under the firmware's IDT. */
int cpu_turbo_off_simulated(uint64_t *misc_enable_before);
void cpu_misc_enable_put_back(uint64_t misc_enable_before);
/* The loaded microcode's revision: Intel's IA32_BIOS_SIGN_ID, AMD's
 * PATCH_LEVEL; 0 elsewhere. */
uint32_t cpu_microcode_revision(const struct cpu_identity *id);

#endif
