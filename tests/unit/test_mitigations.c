/* The rule for Linux's mitigation defaults (bench/model/mitigations.c)
 * on the CPUID words and IA32_ARCH_CAPABILITIES of real parts: each
 * part's bits as its enumeration sets them (Intel's "Affected
 * Processors" table and the AMD PPRs), reduced to the ones the rule
 * reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/lib/cpuid_bits.h"
#include "arch/matrix.h"
#include "bench/model/axes.h"
#include "bench/model/mitigations.h"

#define PCID (1u << 17)
#define FSGSBASE (1u << 0)
#define RTM (1u << 11)
#define SMAP (1u << 20)
#define MD_CLEAR (1u << 10)
#define SPEC_CTRL (1u << 26)
#define STIBP (1u << 27)
#define ARCH_CAP (1u << 29)
#define SSBD (1u << 31)
#define RRSBA_CTRL (1u << 2)
#define BHI_CTRL (1u << 4)
#define AMD_IBPB (1u << 12)
#define AMD_IBRS (1u << 14)

/* The bits above are the SDM's and APM's numbers read again, on purpose:
 * the rule tests arch/lib/cpuid_bits.h's, so a wrong bit there fails the
 * build here instead of deciding every recorded machine alike. */
_Static_assert(PCID == CPUID_01_ECX_PCID, "CPUID.1:ECX[17] PCID");
_Static_assert(FSGSBASE == CPUID_07_0_EBX_FSGSBASE,
	       "CPUID.(7,0):EBX[0] FSGSBASE");
_Static_assert(RTM == CPUID_07_0_EBX_RTM, "CPUID.(7,0):EBX[11] RTM");
_Static_assert(SMAP == CPUID_07_0_EBX_SMAP, "CPUID.(7,0):EBX[20] SMAP");
_Static_assert(MD_CLEAR == CPUID_07_0_EDX_MD_CLEAR,
	       "CPUID.(7,0):EDX[10] MD_CLEAR");
_Static_assert(SPEC_CTRL == CPUID_07_0_EDX_SPEC_CTRL,
	       "CPUID.(7,0):EDX[26] SPEC_CTRL");
_Static_assert(ARCH_CAP == CPUID_07_0_EDX_ARCH_CAPABILITIES,
	       "CPUID.(7,0):EDX[29] ARCH_CAPABILITIES");
_Static_assert(RRSBA_CTRL == CPUID_07_2_EDX_RRSBA_CTRL,
	       "CPUID.(7,2):EDX[2] RRSBA_CTRL");
_Static_assert(BHI_CTRL == CPUID_07_2_EDX_BHI_CTRL,
	       "CPUID.(7,2):EDX[4] BHI_CTRL");
_Static_assert(AMD_IBPB == CPUID_80000008_EBX_IBPB,
	       "CPUID 8000_0008H:EBX[12] IBPB");
_Static_assert(AMD_IBRS == CPUID_80000008_EBX_IBRS,
	       "CPUID 8000_0008H:EBX[14] IBRS");

#define RDCL_NO (1ull << 0)
#define IBRS_ALL (1ull << 1)
#define RSBA (1ull << 2)
#define SKIP_L1DFL (1ull << 3)
#define SSB_NO (1ull << 4)
#define MDS_NO (1ull << 5)
#define PSCHANGE_MC_NO (1ull << 6)
#define TSX_CTRL (1ull << 7)
#define TAA_NO (1ull << 8)
#define SBDR_SSDP_NO (1ull << 13)
#define FBSDP_NO (1ull << 14)
#define PSDP_NO (1ull << 15)
#define RRSBA (1ull << 19)
#define PBRSB_NO (1ull << 24)
#define GDS_NO (1ull << 26)
#define RFDS_NO (1ull << 27)
#define RFDS_CLEAR (1ull << 28)

#define STEP(s) (1u << LINUX_STEP_##s)

/* The swapgs fence's three answers (spectre_v1_select_mitigation), and
 * the return-buffer fill's under each Spectre v2 mode, as Linux's
 * spectre_v2 file words them. */
#define FENCE_USER_FSGSBASE                                                 \
	"on (FENCE_SWAPGS_USER and _KERNEL: FSGSBASE present, "             \
	"X86_BUG_SWAPGS, no PTI)"
#define FENCE_KERNEL_PTI                                                    \
	"kernel entries only (FENCE_SWAPGS_KERNEL: FSGSBASE present; from " \
	"user mode PTI's CR3 write serializes)"
#define FENCE_KERNEL_AMD                                                    \
	"kernel entries only (FENCE_SWAPGS_KERNEL: FSGSBASE present; not "  \
	"X86_BUG_SWAPGS: not Intel)"
#define RSB_FILL(mode)                                                      \
	"context switch and VM exit only, not interrupts (\"Mitigation: "   \
	mode "; ... RSB filling\")"
#define BHB_LOOP                                                            \
	"system calls and VM exits only, not interrupts (BHI_NO is 0, no "  \
	"BHI_CTRL: \"BHI: SW loop, KVM: SW loop\")"
#define BHB_RETPOLINE                                                       \
	"off (retpolines, RRSBA is 0: \"BHI: Retpoline\", no loop)"
#define BHB_DIS_S "off (BHI_CTRL: BHI_DIS_S set once at boot)"

struct part {
	const char *name, *vendor;
	uint32_t family, model;
	struct mitigation_bits bits;
	uint32_t steps;		/* what the "linux" variant runs */
	/* A word each decision's reason must hold, NULL: not checked. */
	const char *pti, *ibrs, *verw;
	/* The whole reason, exactly. */
	const char *bhb, *lfence, *rsb;
};

static const struct part parts[] = {
	/* PTI: the swapgs fence on kernel entries only; IBRS on entry, so
	 * not retpolines, and the loop on system calls. */
	{ "Skylake client, i7-6700K (06_5E), no ARCH_CAPABILITIES",
	  "GenuineIntel", 6, 0x5e,
	  { PCID, FSGSBASE | SMAP, MD_CLEAR | SPEC_CTRL | STIBP | SSBD, 0, 0,
	    0, 0 },
	  STEP(PTI_PCID) | STEP(IBRS) | STEP(VERW),
	  "on (RDCL_NO is 0), with PCID", "retbleed",
	  "MD_CLEAR present: it clears buffers", BHB_LOOP, FENCE_KERNEL_PTI,
	  RSB_FILL("IBRS") },
	/* Broadwell-EP: PTI, but retpolines, not IBRS; with RRSBA
	 * 0 (no ARCH_CAPABILITIES) they stop BHI too. */
	{ "Broadwell-EP, E5-2667 v4 (06_4F)", "GenuineIntel", 6, 0x4f,
	  { PCID, FSGSBASE | SMAP | RTM, MD_CLEAR | SPEC_CTRL | STIBP | SSBD,
	    0, 0, 0, 0 },
	  STEP(PTI_PCID) | STEP(VERW), "with PCID", "retpolines",
	  "MDS_NO is 0", BHB_RETPOLINE, FENCE_KERNEL_PTI,
	  RSB_FILL("Retpolines") },
	/* From Cascade Lake on, no PTI: FSGSBASE puts the fence after
	 * swapgs on every entry from user mode. */
	{ "Cascade Lake, Xeon Gold 6230 (06_55 stepping 7)", "GenuineIntel",
	  6, 0x55,
	  { PCID, FSGSBASE | SMAP | RTM,
	    MD_CLEAR | SPEC_CTRL | STIBP | ARCH_CAP | SSBD, 0, 0,
	    RDCL_NO | IBRS_ALL | SKIP_L1DFL | MDS_NO | TSX_CTRL, 1 },
	  STEP(LFENCE_SWAPGS), "off (RDCL_NO)", "IBRS_ALL",
	  "VM entry only (MMIO Stale Data", BHB_LOOP, FENCE_USER_FSGSBASE,
	  RSB_FILL("Enhanced / Automatic IBRS") },
	{ "Ice Lake client, i7-1065G7 (06_7E)", "GenuineIntel", 6, 0x7e,
	  { PCID, FSGSBASE | SMAP,
	    MD_CLEAR | SPEC_CTRL | STIBP | ARCH_CAP | SSBD, 0, 0,
	    RDCL_NO | IBRS_ALL | SKIP_L1DFL | MDS_NO | PSCHANGE_MC_NO, 1 },
	  STEP(LFENCE_SWAPGS), "off (RDCL_NO)", "IBRS_ALL",
	  "VM entry only (MMIO Stale Data", BHB_LOOP, FENCE_USER_FSGSBASE,
	  RSB_FILL("Enhanced / Automatic IBRS") },
	{ "Sapphire Rapids, Xeon 8480+ (06_8F)", "GenuineIntel", 6, 0x8f,
	  { PCID, FSGSBASE | SMAP,
	    MD_CLEAR | SPEC_CTRL | STIBP | ARCH_CAP | SSBD, BHI_CTRL, 0,
	    RDCL_NO | IBRS_ALL | SKIP_L1DFL | MDS_NO | PSCHANGE_MC_NO |
		    TSX_CTRL | TAA_NO | SBDR_SSDP_NO | FBSDP_NO | PSDP_NO |
		    PBRSB_NO | GDS_NO | RFDS_NO, 1 },
	  STEP(LFENCE_SWAPGS), "off (RDCL_NO)", "IBRS_ALL", "off (MDS_NO",
	  BHB_DIS_S, FENCE_USER_FSGSBASE,
	  RSB_FILL("Enhanced / Automatic IBRS") },
	/* Alder Lake's hybrid desktop part: its Gracemont cores bring
	 * RFDS, cleared by VERW; BHI_DIS_S for BHI. */
	{ "Alder Lake-S, i9-12900K (06_97)", "GenuineIntel", 6, 0x97,
	  { PCID, FSGSBASE | SMAP,
	    MD_CLEAR | SPEC_CTRL | STIBP | ARCH_CAP | SSBD, BHI_CTRL, 0,
	    RDCL_NO | IBRS_ALL | SKIP_L1DFL | MDS_NO | PSCHANGE_MC_NO |
		    TAA_NO | SBDR_SSDP_NO | FBSDP_NO | PSDP_NO | GDS_NO |
		    RFDS_CLEAR, 1 },
	  STEP(LFENCE_SWAPGS) | STEP(VERW), "off (RDCL_NO)", "IBRS_ALL",
	  "RFDS_CLEAR", BHB_DIS_S, FENCE_USER_FSGSBASE,
	  RSB_FILL("Enhanced / Automatic IBRS") },
	/* Alder Lake-N's Gracemont cores: RFDS, cleared by VERW. */
	{ "Alder Lake-N, N100 (06_BE)", "GenuineIntel", 6, 0xbe,
	  { PCID, FSGSBASE | SMAP,
	    MD_CLEAR | SPEC_CTRL | STIBP | ARCH_CAP | SSBD, 0, 0,
	    RDCL_NO | IBRS_ALL | SKIP_L1DFL | SSB_NO | MDS_NO | TAA_NO |
		    SBDR_SSDP_NO | FBSDP_NO | PSDP_NO | RFDS_CLEAR, 1 },
	  STEP(LFENCE_SWAPGS) | STEP(VERW), "off (RDCL_NO)", "IBRS_ALL",
	  "RFDS_CLEAR", BHB_LOOP, FENCE_USER_FSGSBASE,
	  RSB_FILL("Enhanced / Automatic IBRS") },
	/* Bochs' wildcat_lake model reads ARCH_CAPABILITIES as 0x1F,
	 * enables FSGSBASE and answers CPUID.(7,2):EDX with 0xBF, BHI_CTRL
	 * and RRSBA_CTRL among them (cpudb/intel/wildcat_lake.cc). */
	{ "Bochs wildcat_lake (emulated)", "GenuineIntel", 6, 0xd5,
	  { PCID, FSGSBASE | SMAP, MD_CLEAR | SPEC_CTRL | ARCH_CAP, 0xbf, 0,
	    RDCL_NO | IBRS_ALL | RSBA | SKIP_L1DFL | SSB_NO, 1 },
	  STEP(LFENCE_SWAPGS) | STEP(VERW), "off (RDCL_NO)", "IBRS_ALL",
	  "MDS_NO is 0", BHB_DIS_S, FENCE_USER_FSGSBASE,
	  RSB_FILL("Enhanced / Automatic IBRS") },
	{ "Zen 3, EPYC 7763 (19_01)", "AuthenticAMD", 0x19, 0x01,
	  { PCID, FSGSBASE | SMAP, 0, 0, AMD_IBPB | AMD_IBRS, 0, 0 },
	  0, "not Intel", "AMD", "not Intel",
	  "off (not Intel: not affected by BHI)", FENCE_KERNEL_AMD,
	  RSB_FILL("Retpolines") },
	/* QEMU's TCG CPUs: none of the speculation bits; -cpu max offers
	 * FSGSBASE and SMAP. */
	{ "QEMU TCG max (emulated)", "AuthenticAMD", 0x6, 0x6,
	  { 0, FSGSBASE | SMAP, 0, 0, 0, 0, 0 }, 0, "not Intel", NULL, NULL,
	  "off (not Intel: not affected by BHI)", FENCE_KERNEL_AMD,
	  RSB_FILL("Retpolines") },
	/* QEMU's Skylake-Client under TCG: no SPEC_CTRL, no
	 * ARCH_CAPABILITIES, so retpolines, which stop BHI; Debian's
	 * kernel there reads "Mitigation: Retpolines; ... RSB filling; ...
	 * BHI: Retpoline". */
	{ "QEMU TCG Skylake-Client (emulated)", "GenuineIntel", 6, 0x5e,
	  { 0, FSGSBASE | SMAP, 0, 0, 0, 0, 0 }, STEP(PTI) | STEP(VERW),
	  "no PCID", "no SPEC_CTRL", "no MD_CLEAR", BHB_RETPOLINE,
	  FENCE_KERNEL_PTI, RSB_FILL("Retpolines") },
};

static void each_part_gets_the_steps_and_reasons_linux_would(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		const struct part *p = &parts[i];
		struct linux_choices c;

		linux_choose(p->vendor, p->family, p->model, &p->bits, &c);
		if (c.steps != p->steps)
			fail_msg("%s: steps 0x%x, want 0x%x", p->name, c.steps,
				 p->steps);
#define WHY(field, id)                                                      \
	if (p->field && !strstr(c.choice[LINUX_CHOICE_##id].why, p->field)) \
		fail_msg("%s: %s is \"%s\", want \"%s\" in it", p->name,     \
			 #id, c.choice[LINUX_CHOICE_##id].why, p->field);
#define EXACTLY(field, id)                                                  \
	if (strcmp(c.choice[LINUX_CHOICE_##id].why, p->field))              \
		fail_msg("%s: %s is \"%s\", want \"%s\"", p->name, #id,         \
			 c.choice[LINUX_CHOICE_##id].why, p->field);
		WHY(pti, PTI)
		WHY(ibrs, IBRS)
		WHY(verw, VERW)
		EXACTLY(bhb, BHB)
		EXACTLY(lfence, LFENCE_SWAPGS)
		EXACTLY(rsb, RSB)
#undef EXACTLY
#undef WHY
	}
}

static void steps_follow_the_per_interrupt_decisions(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		struct linux_choices c;

		linux_choose(parts[i].vendor, parts[i].family, parts[i].model,
			     &parts[i].bits, &c);
		assert_int_equal(!!(c.steps & (STEP(PTI) | STEP(PTI_PCID))),
				 c.choice[LINUX_CHOICE_PTI].per_interrupt);
		assert_int_equal(!!(c.steps & STEP(VERW)),
				 c.choice[LINUX_CHOICE_VERW].per_interrupt);
		assert_int_equal(!!(c.steps & STEP(LFENCE_SWAPGS)),
				 c.choice[LINUX_CHOICE_LFENCE_SWAPGS]
					 .per_interrupt);
		assert_true(c.choice[LINUX_CHOICE_LFENCE_SWAPGS].needed ||
			    !c.choice[LINUX_CHOICE_LFENCE_SWAPGS]
				     .per_interrupt);
		assert_false(c.choice[LINUX_CHOICE_BHB].per_interrupt);
		assert_false(c.choice[LINUX_CHOICE_RSB].per_interrupt);
		assert_true(c.choice[LINUX_CHOICE_PTI].needed ||
			    !c.choice[LINUX_CHOICE_PTI].per_interrupt);
	}
}

/* PTI takes the PCID form where CPUID offers it, the flushing one
 * where not; an unread ARCH_CAPABILITIES counts as all zero. */
static void pti_form_follows_pcid_and_an_unread_msr_is_zero(void **state)
{
	struct mitigation_bits b = { 0, SMAP, SPEC_CTRL, 0, 0, RDCL_NO, 0 };
	struct linux_choices c;

	(void)state;
	linux_choose("GenuineIntel", 6, 0x3c, &b, &c);
	assert_int_equal(c.steps, STEP(PTI) | STEP(VERW));
	assert_non_null(strstr(c.choice[LINUX_CHOICE_PTI].why, "no PCID"));
	assert_non_null(strstr(c.choice[LINUX_CHOICE_VERW].why,
			       "no MD_CLEAR: it clears nothing"));
}

static const char *fence_why(const char *vendor, uint32_t model,
			     const struct mitigation_bits *b,
			     struct linux_choices *c)
{
	linux_choose(vendor, 6, model, b, c);
	return c->choice[LINUX_CHOICE_LFENCE_SWAPGS].why;
}

/* spectre_v1_select_mitigation's condition, branch by branch: the fence
 * where FSGSBASE is present or SMAP does not work speculatively; after
 * swapgs from user mode only with X86_BUG_SWAPGS and no PTI. */
static void swapgs_fence_follows_fsgsbase_smap_and_pti(void **state)
{
	/* Haswell-like (06_3C) without PTI: RDCL_NO read. */
	struct mitigation_bits b = { 0, SMAP, SPEC_CTRL | ARCH_CAP, 0, 0,
				     RDCL_NO | MDS_NO, 1 };
	struct linux_choices c;

	(void)state;
	assert_string_equal(fence_why("GenuineIntel", 0x3c, &b, &c),
			    "off (no FSGSBASE, and SMAP stops the speculative "
			    "user load)");
	assert_false(c.choice[LINUX_CHOICE_LFENCE_SWAPGS].needed);
	assert_int_equal(c.steps, 0);
	b.leaf7_ebx = 0;
	assert_string_equal(fence_why("GenuineIntel", 0x3c, &b, &c),
			    "on (FENCE_SWAPGS_USER and _KERNEL: no SMAP, "
			    "X86_BUG_SWAPGS, no PTI)");
	assert_int_equal(c.steps, STEP(LFENCE_SWAPGS));
	b.leaf7_ebx = FSGSBASE | SMAP;
	assert_string_equal(fence_why("GenuineIntel", 0x3c, &b, &c),
			    FENCE_USER_FSGSBASE);
	assert_int_equal(c.steps, STEP(LFENCE_SWAPGS));
	/* Goldmont (06_5C) is on the NO_SWAPGS list: kernel entries only. */
	assert_string_equal(fence_why("GenuineIntel", 0x5c, &b, &c),
			    "kernel entries only (FENCE_SWAPGS_KERNEL: "
			    "FSGSBASE present; not X86_BUG_SWAPGS: on Linux's "
			    "NO_SWAPGS list)");
	assert_true(c.choice[LINUX_CHOICE_LFENCE_SWAPGS].needed);
	assert_int_equal(c.steps, 0);
	/* Bonnell (06_1C) is on the NO_SPECULATION list. */
	assert_non_null(strstr(fence_why("GenuineIntel", 0x1c, &b, &c),
			       "NO_SPECULATION"));
	assert_false(c.choice[LINUX_CHOICE_LFENCE_SWAPGS].needed);
	assert_string_equal(c.choice[LINUX_CHOICE_RSB].why,
			    "off (not affected by Spectre v2)");
	/* Meltdown: SMAP without FSGSBASE does not work speculatively, so
	 * the fence is on, but PTI's CR3 write takes the user entry's. */
	b.leaf7_ebx = SMAP;
	b.arch_capabilities = 0;
	assert_string_equal(fence_why("GenuineIntel", 0x3c, &b, &c),
			    "kernel entries only (FENCE_SWAPGS_KERNEL: SMAP "
			    "does not work speculatively under Meltdown; from "
			    "user mode PTI's CR3 write serializes)");
	assert_int_equal(c.steps, STEP(PTI) | STEP(VERW));
}

/* bhi_select_mitigation's early return: only retpolines with the return
 * predictor's fallback off stop BHI without the loop. */
static void bhb_loop_follows_retpolines_and_rrsba(void **state)
{
	/* Broadwell-EP (06_4F): SPEC_CTRL but not retbleed: retpolines. */
	struct mitigation_bits b = { PCID, FSGSBASE | SMAP,
				     SPEC_CTRL | ARCH_CAP, 0, 0, RRSBA, 1 };
	struct linux_choices c;

	(void)state;
	linux_choose("GenuineIntel", 6, 0x4f, &b, &c);
	assert_string_equal(c.choice[LINUX_CHOICE_BHB].why, BHB_LOOP);
	assert_true(c.choice[LINUX_CHOICE_BHB].needed);
	b.leaf7_2_edx = RRSBA_CTRL;
	linux_choose("GenuineIntel", 6, 0x4f, &b, &c);
	assert_string_equal(c.choice[LINUX_CHOICE_BHB].why,
			    "off (retpolines, RRSBA_DIS_S set once at boot: "
			    "\"BHI: Retpoline\", no loop)");
	assert_false(c.choice[LINUX_CHOICE_BHB].needed);
	b.leaf7_2_edx = BHI_CTRL;
	linux_choose("GenuineIntel", 6, 0x4f, &b, &c);
	assert_string_equal(c.choice[LINUX_CHOICE_BHB].why, BHB_DIS_S);
	/* IBRS on entry (Skylake, retbleed) is no retpoline: the loop. */
	b.leaf7_2_edx = 0;
	b.arch_capabilities = 0;
	linux_choose("GenuineIntel", 6, 0x5e, &b, &c);
	assert_string_equal(c.choice[LINUX_CHOICE_BHB].why, BHB_LOOP);
	assert_string_equal(c.choice[LINUX_CHOICE_RSB].why, RSB_FILL("IBRS"));
}

static const struct mitigation_bits *bits_of(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (strstr(parts[i].name, name))
			return &parts[i].bits;
	fail_msg("no part named %s", name);
	return NULL;
}

/* simulate = linux-every-step: every step whose CPUID bit is there,
 * whatever the rule takes; each other step named with its bit. */
static void every_step_is_each_step_the_cpu_can_run(void **state)
{
	const uint32_t all = (1u << LINUX_STEPS) - 1;
	const char *why_not[LINUX_STEPS];
	unsigned s;

	(void)state;
	/* wildcat_lake: PCID, SPEC_CTRL; the rule takes two steps. */
	assert_int_equal(linux_every_step("GenuineIntel", bits_of("wildcat_lake"),
					  why_not), all);
	for (s = 0; s < LINUX_STEPS; s++)
		assert_null(why_not[s]);
	/* QEMU's TCG max: AMD without PCID, IBRS or IBPB. */
	assert_int_equal(linux_every_step("AuthenticAMD", bits_of("QEMU TCG max"),
					  why_not),
			 STEP(LFENCE_SWAPGS) | STEP(PTI) | STEP(VERW));
	assert_string_equal(why_not[LINUX_STEP_PTI_PCID],
			    "CPUID.1:ECX[17] (PCID) is 0 on this CPU");
	assert_string_equal(why_not[LINUX_STEP_IBRS],
			    "CPUID.80000008H:EBX[14] (IBRS) is 0 on this CPU");
	assert_string_equal(why_not[LINUX_STEP_IBPB],
			    "CPUID.80000008H:EBX[12] (IBPB) is 0 on this CPU");
	assert_null(why_not[LINUX_STEP_PTI]);
	/* Zen 3 has both of AMD's bits and PCID. */
	assert_int_equal(linux_every_step("AuthenticAMD", bits_of("Zen 3"),
					  why_not), all);
	/* An Intel core without SPEC_CTRL loses IBRS and IBPB, named by
	 * Intel's bit. */
	assert_int_equal(linux_every_step("GenuineIntel", bits_of("QEMU TCG Skylake"),
					  why_not),
			 STEP(LFENCE_SWAPGS) | STEP(PTI) | STEP(VERW));
	assert_string_equal(why_not[LINUX_STEP_IBPB],
			    "CPUID.(7,0):EDX[26] (IBRS/IBPB, IA32_PRED_CMD) is "
			    "0 on this CPU");
}

/* Every variant of VARIANT_LIST, walked: a mitigation's row answers to
 * one of Linux's decisions (its LINUX column), every decision has a row
 * answering to it, and nothing else answers to one. A variant added to
 * the list without its decision fails here. */
static void every_mitigation_variant_answers_to_a_decision(void **state)
{
	unsigned answered[LINUX_CHOICE_COUNT] = { 0 };
	unsigned v, c, mitigations = 0;

	(void)state;
	for (v = VARIANT_ABSENT + 1; v < VARIANT_END; v++) {
		int choice = linux_choice_of_variant(v);

		if (variant_kind_of(v) != VARIANT_KIND_MITIGATION ||
		    v == VARIANT_LINUX) {
			if (choice != LINUX_CHOICE_NONE)
				fail_msg("%s is no mitigation's sequence but "
					 "answers to %s", variant_name(v),
					 linux_choice_name((unsigned)choice));
			continue;
		}
		mitigations++;
		if (choice < 0 || choice >= LINUX_CHOICE_COUNT)
			fail_msg("mitigation variant %s answers to no decision "
				 "(its LINUX column in VARIANT_LIST is NONE)",
				 variant_name(v));
		answered[choice]++;
	}
	for (c = 0; c < LINUX_CHOICE_COUNT; c++)
		if (!answered[c])
			fail_msg("no mitigation variant answers to %s",
				 linux_choice_name(c));
	/* The rows the reports name (docs/mitigations.md), as they are. */
	assert_true(mitigations >= 10);
	assert_int_equal(linux_choice_of_variant(VARIANT_PTI_CR3_PCID),
			 LINUX_CHOICE_PTI);
	assert_int_equal(linux_choice_of_variant(VARIANT_PTI_CR3_TOUCH),
			 LINUX_CHOICE_PTI);
	assert_int_equal(linux_choice_of_variant(VARIANT_IBRS),
			 LINUX_CHOICE_IBRS);
	assert_int_equal(linux_choice_of_variant(VARIANT_IBPB),
			 LINUX_CHOICE_IBPB);
	assert_int_equal(linux_choice_of_variant(VARIANT_VERW),
			 LINUX_CHOICE_VERW);
	assert_int_equal(linux_choice_of_variant(VARIANT_BHB_CLEAR_5X5),
			 LINUX_CHOICE_BHB);
	assert_int_equal(linux_choice_of_variant(VARIANT_BHB_CLEAR_12X7),
			 LINUX_CHOICE_BHB);
	assert_int_equal(linux_choice_of_variant(VARIANT_LFENCE_SWAPGS),
			 LINUX_CHOICE_LFENCE_SWAPGS);
	assert_int_equal(linux_choice_of_variant(VARIANT_RSB_FILL),
			 LINUX_CHOICE_RSB);
	assert_int_equal(linux_choice_of_variant(VARIANT_LINUX),
			 LINUX_CHOICE_NONE);
	assert_int_equal(linux_choice_of_variant(VARIANT_TOUCH),
			 LINUX_CHOICE_NONE);
	assert_int_equal(linux_choice_of_variant(VARIANT_END),
			 LINUX_CHOICE_NONE);
	assert_string_equal(linux_choice_name(LINUX_CHOICE_VERW), "VERW");
	assert_string_equal(linux_choice_name(99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_part_gets_the_steps_and_reasons_linux_would),
		cmocka_unit_test(steps_follow_the_per_interrupt_decisions),
		cmocka_unit_test(pti_form_follows_pcid_and_an_unread_msr_is_zero),
		cmocka_unit_test(swapgs_fence_follows_fsgsbase_smap_and_pti),
		cmocka_unit_test(bhb_loop_follows_retpolines_and_rrsba),
		cmocka_unit_test(every_step_is_each_step_the_cpu_can_run),
		cmocka_unit_test(every_mitigation_variant_answers_to_a_decision),
	};

	return cmocka_run_group_tests_name("mitigations", tests, NULL, NULL);
}
