#include "bench/model/mitigations.h"

#include "arch/lib/cpuid_bits.h"
#include "arch/lib/fmt.h"
#include "arch/matrix.h"

/* The bits the rule reads: CPUID's in arch/lib/cpuid_bits.h, and
 * IA32_ARCH_CAPABILITIES's as Linux names them (msr-index.h). */
#define ARCH_CAP_RDCL_NO (1ull << 0)
#define ARCH_CAP_IBRS_ALL (1ull << 1)
#define ARCH_CAP_RSBA (1ull << 2)
#define ARCH_CAP_MDS_NO (1ull << 5)
#define ARCH_CAP_TSX_CTRL (1ull << 7)
#define ARCH_CAP_TAA_NO (1ull << 8)
#define ARCH_CAP_SBDR_SSDP_NO (1ull << 13)
#define ARCH_CAP_FBSDP_NO (1ull << 14)
#define ARCH_CAP_PSDP_NO (1ull << 15)
#define ARCH_CAP_FB_CLEAR (1ull << 17)
#define ARCH_CAP_RRSBA (1ull << 19)
#define ARCH_CAP_BHI_NO (1ull << 20)
#define ARCH_CAP_RFDS_NO (1ull << 27)
#define ARCH_CAP_RFDS_CLEAR (1ull << 28)

const char linux_rule_source[] = "Linux 6.12";

#define NAME(id, name) name,
static const char *const choice_names[] = { LINUX_CHOICE_LIST(NAME) };
#undef NAME

const char *linux_choice_name(unsigned id)
{
	return id < LINUX_CHOICE_COUNT ? choice_names[id] : "?";
}

#define CHOICE_OF(id, name, kind, seeds, handler, setup, against,          \
		  decision, ...)                                            \
	LINUX_CHOICE_##decision,
static const int8_t variant_choices[] = { LINUX_CHOICE_NONE,
					  VARIANT_LIST(CHOICE_OF) };
#undef CHOICE_OF

int linux_choice_of_variant(unsigned variant)
{
	return variant < VARIANT_END ? variant_choices[variant]
				     : LINUX_CHOICE_NONE;
}

uint32_t linux_every_step(const char *vendor, const struct mitigation_bits *b,
			  const char *why_not[LINUX_STEPS])
{
	/* The bits arch/mitigations.c checks on the live CPU: PCID; on
	 * Intel SPEC_CTRL for IBRS and IBPB both, elsewhere AMD's own. */
	int intel = str_eq(vendor, "GenuineIntel");
	int spec_ctrl = !!(b->leaf7_edx & CPUID_07_0_EDX_SPEC_CTRL);
	uint32_t steps = 0;
	unsigned s;

	for (s = 0; s < LINUX_STEPS; s++)
		why_not[s] = 0;
	if (!(b->leaf1_ecx & CPUID_01_ECX_PCID))
		why_not[LINUX_STEP_PTI_PCID] = MITIGATION_NO_PCID;
	if (intel ? !spec_ctrl : !(b->ext8_ebx & CPUID_80000008_EBX_IBRS))
		why_not[LINUX_STEP_IBRS] = intel ? MITIGATION_NO_INTEL_SPEC_CTRL :
						   MITIGATION_NO_AMD_IBRS;
	if (intel ? !spec_ctrl : !(b->ext8_ebx & CPUID_80000008_EBX_IBPB))
		why_not[LINUX_STEP_IBPB] = intel ? MITIGATION_NO_INTEL_PRED_CMD :
						   MITIGATION_NO_AMD_IBPB;
	for (s = 0; s < LINUX_STEPS; s++)
		if (!why_not[s])
			steps |= 1u << s;
	return steps;
}

/* Whether an Intel family-6 model is one of a list of Linux's. */
static int intel_model_in(uint32_t family, uint32_t model,
			  const uint8_t *models, size_t n)
{
	size_t i;

	for (i = 0; family == 6 && i < n; i++)
		if (models[i] == model)
			return 1;
	return 0;
}

/* Linux's cpu_vuln_blacklist entries marked RETBLEED (common.c): the
 * Intel family-6 models whose return predictor falls back to the
 * indirect predictor, and that have no enhanced IBRS. */
static int retbleed_model(uint32_t family, uint32_t model)
{
	static const uint8_t models[] = {
		0x4e, 0x5e, 0x55,	/* Skylake L, client, X */
		0x8e, 0x9e,		/* Kaby Lake L, client */
		0x66,			/* Cannon Lake L */
		0x7e,			/* Ice Lake L */
		0xa5, 0xa6,		/* Comet Lake, L */
		0x8a,			/* Lakefield */
		0xa7,			/* Rocket Lake */
	};

	return intel_model_in(family, model, models, sizeof(models));
}

/* Linux's cpu_vuln_whitelist (common.c): the Intel family-6 cores it
 * marks NO_SPECULATION (the in-order Atoms, Bonnell and Saltwell: no bug
 * of the speculative kind at all), and those it marks NO_SWAPGS
 * (Silvermont, Airmont, Goldmont, Goldmont Plus, Knights Landing and
 * Mill). Family 5 is NO_SPECULATION too. */
static int intel_no_speculation(uint32_t family, uint32_t model)
{
	static const uint8_t models[] = { 0x1c, 0x26, 0x27, 0x35, 0x36 };

	return family == 5 ||
	       intel_model_in(family, model, models, sizeof(models));
}

static int intel_no_swapgs(uint32_t family, uint32_t model)
{
	static const uint8_t models[] = {
		0x37, 0x4a, 0x4d,	/* Silvermont, MID, D */
		0x4c, 0x5a, 0x75,	/* Airmont, MID, NP */
		0x57, 0x85,		/* Knights Landing, Knights Mill */
		0x5c, 0x5f, 0x7a,	/* Goldmont, D, Goldmont Plus */
	};

	return intel_no_speculation(family, model) ||
	       intel_model_in(family, model, models, sizeof(models));
}

/* What spectre_v2_select_mitigation takes under spectre_v2=auto, and
 * the words Linux's spectre_v2 file starts with for it. */
enum spectre_v2_mode {
	SPECTRE_V2_NOT_AFFECTED,
	SPECTRE_V2_EIBRS,
	SPECTRE_V2_IBRS,
	SPECTRE_V2_RETPOLINE,
};

static enum spectre_v2_mode spectre_v2_mode(int intel, uint32_t family,
					    uint32_t model,
					    const struct mitigation_bits *b,
					    uint64_t cap)
{
	/* X86_BUG_SPECTRE_V2 is on every CPU but the NO_SPECULATION ones
	 * (and Centaur's and Zhaoxin's family 7, which the rule leaves
	 * out). Enhanced IBRS where IBRS_ALL says so; IBRS on entry where
	 * Intel's retbleed leaves nothing else (choose_ibrs); retpolines
	 * otherwise, AMD's Automatic IBRS (CPUID 8000_0021H:EAX[8]) not
	 * being read here. */
	if (intel && intel_no_speculation(family, model))
		return SPECTRE_V2_NOT_AFFECTED;
	if (cap & ARCH_CAP_IBRS_ALL)
		return SPECTRE_V2_EIBRS;
	if (intel && (b->leaf7_edx & CPUID_07_0_EDX_SPEC_CTRL) &&
	    (retbleed_model(family, model) || (cap & ARCH_CAP_RSBA)))
		return SPECTRE_V2_IBRS;
	return SPECTRE_V2_RETPOLINE;
}

static const char *spectre_v2_words(enum spectre_v2_mode mode)
{
	switch (mode) {
	case SPECTRE_V2_EIBRS:
		return "Mitigation: Enhanced / Automatic IBRS";
	case SPECTRE_V2_IBRS:
		return "Mitigation: IBRS";
	case SPECTRE_V2_RETPOLINE:
		return "Mitigation: Retpolines";
	default:
		return "Not affected";
	}
}

static void say(struct linux_choice *c, int needed, int per_interrupt,
		const char *why)
{
	c->needed = (uint8_t)needed;
	c->per_interrupt = (uint8_t)per_interrupt;
	fmt_snprintf(c->why, sizeof(c->why), "%s", why);
}

static void choose_pti(int intel, const struct mitigation_bits *b,
		       uint64_t cap, struct linux_choice *c)
{
	/* Meltdown (X86_BUG_CPU_MELTDOWN): every Intel core without
	 * RDCL_NO; AMD and the others are on the NO_MELTDOWN list. */
	if (!intel)
		say(c, 0, 0, "off (not Intel: not affected by Meltdown)");
	else if (cap & ARCH_CAP_RDCL_NO)
		say(c, 0, 0, "off (RDCL_NO)");
	else if (b->leaf1_ecx & CPUID_01_ECX_PCID)
		say(c, 1, 1, "on (RDCL_NO is 0), with PCID");
	else
		say(c, 1, 1, "on (RDCL_NO is 0), no PCID: a flush each way");
}

static void choose_ibrs(int intel, int amd, uint32_t family, uint32_t model,
			const struct mitigation_bits *b, uint64_t cap,
			struct linux_choice *c)
{
	/* spectre_v2=auto: enhanced IBRS where IBRS_ALL says so; IBRS on
	 * every entry only where retbleed leaves nothing else on Intel
	 * (spectre_v2_select_mitigation); retpolines otherwise. */
	if (amd)
		say(c, 0, 0, "off (AMD: retpolines, or IBRS_ALL; Zen 1 and 2 "
			     "untrain returns instead, not timed here)");
	else if (!intel)
		say(c, 0, 0, "off (not Intel)");
	else if (cap & ARCH_CAP_IBRS_ALL)
		say(c, 0, 0, "off (IBRS_ALL: enhanced IBRS, set once at boot)");
	else if (!(b->leaf7_edx & CPUID_07_0_EDX_SPEC_CTRL))
		say(c, 0, 0, "off (no SPEC_CTRL, CPUID.(7,0):EDX[26]: "
			     "retpolines)");
	else if (retbleed_model(family, model) || (cap & ARCH_CAP_RSBA))
		say(c, 1, 1, "on (IBRS_ALL is 0, and retbleed: on Linux's "
			     "RETBLEED list or RSBA)");
	else
		say(c, 0, 0, "off (IBRS_ALL is 0, not retbleed-affected: "
			     "retpolines)");
}

static void choose_verw(int intel, const struct mitigation_bits *b,
			uint64_t cap, struct linux_choice *c)
{
	/* MDS, TAA and RFDS all clear the buffers with VERW on the way
	 * out (X86_FEATURE_CLEAR_CPU_BUF); Linux runs it without MD_CLEAR
	 * too, where it then clears nothing (MDS_MITIGATION_VMWERV). TAA
	 * needs TSX, which Linux's default (tsx=off) turns off wherever
	 * TSX_CTRL lets it; MMIO Stale Data alone clears on VM entry only
	 * (mmio_select_mitigation). */
	const uint64_t mmio_no = ARCH_CAP_SBDR_SSDP_NO | ARCH_CAP_FBSDP_NO |
				 ARCH_CAP_PSDP_NO;
	int mds = intel && !(cap & ARCH_CAP_MDS_NO);
	int taa = intel && (b->leaf7_ebx & CPUID_07_0_EBX_RTM) &&
		  !(cap & (ARCH_CAP_TAA_NO | ARCH_CAP_TSX_CTRL));
	int rfds = !(cap & ARCH_CAP_RFDS_NO) && (cap & ARCH_CAP_RFDS_CLEAR);
	int mmio = intel && (cap & mmio_no) != mmio_no;
	/* Whether VERW clears anything here, said in every decision. */
	const char *clears = (b->leaf7_edx & CPUID_07_0_EDX_MD_CLEAR) ||
				     (cap & ARCH_CAP_RFDS_CLEAR) ?
			     "MD_CLEAR present: it clears buffers" :
			     "no MD_CLEAR: it clears nothing here";
	char why[sizeof(c->why)];

	if (mds || taa || rfds)
		fmt_snprintf(why, sizeof(why), "on (%s; %s)",
			     mds ? "MDS_NO is 0" :
			     taa ? "TAA_NO is 0 with TSX" : "RFDS_CLEAR",
			     clears);
	else if (mmio)
		fmt_snprintf(why, sizeof(why), "VM entry only (MMIO Stale "
			     "Data: SBDR_SSDP_NO, FBSDP_NO or PSDP_NO is 0%s; "
			     "%s)", cap & ARCH_CAP_FB_CLEAR ? ", FB_CLEAR" : "",
			     clears);
	else
		fmt_snprintf(why, sizeof(why), "off (%s; %s)",
			     intel ? "MDS_NO; TAA_NO, TSX_CTRL or no TSX" :
				     "not Intel: not affected by MDS",
			     clears);
	say(c, mds || taa || rfds || mmio, mds || taa || rfds, why);
}

static void choose_bhb(int intel, enum spectre_v2_mode mode,
		       const struct mitigation_bits *b, uint64_t cap,
		       struct linux_choice *c)
{
	/* X86_BUG_BHI: Intel without BHI_NO (AMD is on the NO_BHI list).
	 * bhi_select_mitigation, spectre_bhi=on (6.9 on): retpolines stop
	 * BHI where the return predictor does not fall back to the
	 * indirect one (RRSBA 0, or RRSBA_DIS_S set through RRSBA_CTRL),
	 * and Linux returns before the loop ("BHI: Retpoline"); else
	 * BHI_DIS_S where BHI_CTRL offers it; else the clearing loop on
	 * system calls and VM exits, which an interrupt never takes. */
	int rrsba_off = !(cap & ARCH_CAP_RRSBA) ||
			(b->leaf7_2_edx & CPUID_07_2_EDX_RRSBA_CTRL);

	if (!intel)
		say(c, 0, 0, "off (not Intel: not affected by BHI)");
	else if (cap & ARCH_CAP_BHI_NO)
		say(c, 0, 0, "off (BHI_NO)");
	else if (mode == SPECTRE_V2_RETPOLINE && rrsba_off)
		say(c, 0, 0, cap & ARCH_CAP_RRSBA ?
			     "off (retpolines, RRSBA_DIS_S set once at boot: "
			     "\"BHI: Retpoline\", no loop)" :
			     "off (retpolines, RRSBA is 0: \"BHI: Retpoline\", "
			     "no loop)");
	else if (b->leaf7_2_edx & CPUID_07_2_EDX_BHI_CTRL)
		say(c, 0, 0, "off (BHI_CTRL: BHI_DIS_S set once at boot)");
	else
		say(c, 1, 0, "system calls and VM exits only, not interrupts "
			     "(BHI_NO is 0, no BHI_CTRL: \"BHI: SW loop, KVM: "
			     "SW loop\")");
}

static void choose_ibpb(const struct mitigation_bits *b, int intel,
			struct linux_choice *c)
{
	int has = intel ? !!(b->leaf7_edx & CPUID_07_0_EDX_SPEC_CTRL) :
			  !!(b->ext8_ebx & CPUID_80000008_EBX_IBPB);

	say(c, has, 0, has ? "context switch only, not interrupts (entry "
			     "IBPB is not a default)" :
			     "off (no IBPB on this CPU)");
}

static void choose_lfence_swapgs(int intel, uint32_t family, uint32_t model,
				 int pti, const struct mitigation_bits *b,
				 struct linux_choice *c)
{
	/* spectre_v1_select_mitigation: with FSGSBASE the user can put a
	 * kernel address in GS, which SMAP does not stop; without it, a
	 * user address, which SMAP stops unless it does not work
	 * speculatively (no SMAP, or Meltdown: smap_works_speculatively).
	 * Either way Linux fences the kernel entries that skip swapgs
	 * (FENCE_SWAPGS_KERNEL), and the user entries after swapgs
	 * (FENCE_SWAPGS_USER, the step an interrupt from user mode runs)
	 * where X86_BUG_SWAPGS holds and PTI's CR3 write does not already
	 * serialize. X86_BUG_SWAPGS: every Intel core outside the
	 * NO_SWAPGS list; AMD updates GS before any GS-relative load
	 * issues, so it is on that list (Centaur's and Zhaoxin's family 7
	 * too; other vendors the rule leaves out). */
	int fsgsbase = !!(b->leaf7_ebx & CPUID_07_0_EBX_FSGSBASE);
	int smap = !!(b->leaf7_ebx & CPUID_07_0_EBX_SMAP);
	const char *because = fsgsbase ? "FSGSBASE present" :
			      !smap ? "no SMAP" :
				      "SMAP does not work speculatively under "
				      "Meltdown";
	char why[sizeof(c->why)];

	if (intel && intel_no_speculation(family, model)) {
		say(c, 0, 0, "off (on Linux's NO_SPECULATION list: not "
			     "affected by Spectre v1)");
		return;
	}
	if (!fsgsbase && smap && !pti) {
		say(c, 0, 0, "off (no FSGSBASE, and SMAP stops the speculative "
			     "user load)");
		return;
	}
	if (!intel || intel_no_swapgs(family, model))
		fmt_snprintf(why, sizeof(why), "kernel entries only "
			     "(FENCE_SWAPGS_KERNEL: %s; not X86_BUG_SWAPGS: "
			     "%s)", because,
			     intel ? "on Linux's NO_SWAPGS list" :
				     "not Intel");
	else if (pti)
		fmt_snprintf(why, sizeof(why), "kernel entries only "
			     "(FENCE_SWAPGS_KERNEL: %s; from user mode PTI's "
			     "CR3 write serializes)", because);
	else
		fmt_snprintf(why, sizeof(why), "on (FENCE_SWAPGS_USER and "
			     "_KERNEL: %s, X86_BUG_SWAPGS, no PTI)", because);
	say(c, 1, intel && !intel_no_swapgs(family, model) && !pti, why);
}

static void choose_rsb(enum spectre_v2_mode mode, struct linux_choice *c)
{
	/* spectre_v2_select_mitigation fills the return buffer on context
	 * switch (X86_FEATURE_RSB_CTXSW) whatever mitigation it took, and
	 * on VM exit as spectre_v2_determine_rsb_fill_type_at_vmexit
	 * says; its file then reads "<mode>; ...; RSB filling". */
	char why[sizeof(c->why)];

	if (mode == SPECTRE_V2_NOT_AFFECTED) {
		say(c, 0, 0, "off (not affected by Spectre v2)");
		return;
	}
	fmt_snprintf(why, sizeof(why), "context switch and VM exit only, not "
		     "interrupts (\"%s; ... RSB filling\")",
		     spectre_v2_words(mode));
	say(c, 1, 0, why);
}

void linux_choose(const char *vendor, uint32_t family, uint32_t model,
		  const struct mitigation_bits *b, struct linux_choices *out)
{
	int intel = str_eq(vendor, "GenuineIntel");
	int amd = str_eq(vendor, "AuthenticAMD") ||
		  str_eq(vendor, "HygonGenuine");
	uint64_t cap = b->arch_capabilities_read ? b->arch_capabilities : 0;
	struct linux_choice *c = out->choice;
	enum spectre_v2_mode v2 = spectre_v2_mode(intel, family, model, b, cap);

	choose_pti(intel, b, cap, &c[LINUX_CHOICE_PTI]);
	choose_ibrs(intel, amd, family, model, b, cap, &c[LINUX_CHOICE_IBRS]);
	choose_verw(intel, b, cap, &c[LINUX_CHOICE_VERW]);
	choose_bhb(intel, v2, b, cap, &c[LINUX_CHOICE_BHB]);
	choose_ibpb(b, intel, &c[LINUX_CHOICE_IBPB]);
	choose_lfence_swapgs(intel, family, model, c[LINUX_CHOICE_PTI].needed,
			     b, &c[LINUX_CHOICE_LFENCE_SWAPGS]);
	choose_rsb(v2, &c[LINUX_CHOICE_RSB]);

	out->steps = 0;
	if (c[LINUX_CHOICE_PTI].per_interrupt)
		out->steps |= 1u << (b->leaf1_ecx & CPUID_01_ECX_PCID ?
				     LINUX_STEP_PTI_PCID : LINUX_STEP_PTI);
	if (c[LINUX_CHOICE_IBRS].per_interrupt)
		out->steps |= 1u << LINUX_STEP_IBRS;
	if (c[LINUX_CHOICE_VERW].per_interrupt)
		out->steps |= 1u << LINUX_STEP_VERW;
	if (c[LINUX_CHOICE_IBPB].per_interrupt)
		out->steps |= 1u << LINUX_STEP_IBPB;
	if (c[LINUX_CHOICE_LFENCE_SWAPGS].per_interrupt)
		out->steps |= 1u << LINUX_STEP_LFENCE_SWAPGS;
}
