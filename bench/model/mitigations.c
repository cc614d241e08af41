#include "bench/model/mitigations.h"

#include "arch/lib/fmt.h"
#include "arch/matrix.h"

/* The bits the rule reads: CPUID (SDM vol. 2A; AMD APM vol. 3) and
 * IA32_ARCH_CAPABILITIES as Linux names them (msr-index.h). */
#define LEAF1_ECX_PCID (1u << 17)
#define LEAF7_EBX_RTM (1u << 11)
#define LEAF7_EBX_SMAP (1u << 20)
#define LEAF7_EDX_MD_CLEAR (1u << 10)
#define LEAF7_EDX_SPEC_CTRL (1u << 26)
#define LEAF7_2_EDX_BHI_CTRL (1u << 4)
#define EXT8_EBX_IBPB (1u << 12)
#define EXT8_EBX_IBRS (1u << 14)

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

int linux_choice_of_variant(unsigned variant)
{
	switch (variant) {
	case VARIANT_PTI_CR3_PCID:
	case VARIANT_PTI_CR3:
	case VARIANT_PTI_CR3_TOUCH:
		return LINUX_CHOICE_PTI;
	case VARIANT_IBRS:
		return LINUX_CHOICE_IBRS;
	case VARIANT_VERW:
		return LINUX_CHOICE_VERW;
	case VARIANT_BHB_CLEAR_5X5:
	case VARIANT_BHB_CLEAR_12X7:
		return LINUX_CHOICE_BHB;
	case VARIANT_IBPB:
		return LINUX_CHOICE_IBPB;
	case VARIANT_LFENCE_SWAPGS:
		return LINUX_CHOICE_LFENCE_SWAPGS;
	case VARIANT_RSB_FILL:
		return LINUX_CHOICE_RSB;
	}
	return -1;
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
	size_t i;

	for (i = 0; family == 6 && i < sizeof(models); i++)
		if (models[i] == model)
			return 1;
	return 0;
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
	else if (b->leaf1_ecx & LEAF1_ECX_PCID)
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
	else if (!(b->leaf7_edx & LEAF7_EDX_SPEC_CTRL))
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
	int taa = intel && (b->leaf7_ebx & LEAF7_EBX_RTM) &&
		  !(cap & (ARCH_CAP_TAA_NO | ARCH_CAP_TSX_CTRL));
	int rfds = !(cap & ARCH_CAP_RFDS_NO) && (cap & ARCH_CAP_RFDS_CLEAR);
	int mmio = intel && (cap & mmio_no) != mmio_no;
	/* Whether VERW clears anything here, said in every decision. */
	const char *clears = (b->leaf7_edx & LEAF7_EDX_MD_CLEAR) ||
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

static void choose_bhb(int intel, const struct mitigation_bits *b,
		       uint64_t cap, struct linux_choice *c)
{
	/* spectre_bhi=on (6.9 on): BHI_DIS_S where BHI_CTRL offers it,
	 * otherwise the clearing loop on system calls and VM exits, which
	 * an interrupt never takes. */
	if (!intel)
		say(c, 0, 0, "off (not Intel: not affected by BHI)");
	else if (cap & ARCH_CAP_BHI_NO)
		say(c, 0, 0, "off (BHI_NO)");
	else if (b->leaf7_2_edx & LEAF7_2_EDX_BHI_CTRL)
		say(c, 0, 0, "off (BHI_CTRL: BHI_DIS_S set once at boot)");
	else
		say(c, 1, 0, "system calls and VM exits only, not interrupts "
			     "(BHI_NO is 0, no BHI_CTRL)");
}

static void choose_ibpb(const struct mitigation_bits *b, int intel,
			struct linux_choice *c)
{
	int has = intel ? !!(b->leaf7_edx & LEAF7_EDX_SPEC_CTRL) :
			  !!(b->ext8_ebx & EXT8_EBX_IBPB);

	say(c, has, 0, has ? "context switch only, not interrupts (entry "
			     "IBPB is not a default)" :
			     "off (no IBPB on this CPU)");
}

static void choose_lfence_swapgs(int intel, int meltdown,
				 const struct mitigation_bits *b,
				 struct linux_choice *c)
{
	/* spectre_v1: FENCE_SWAPGS_USER where SMAP does not stop the
	 * speculative user load, unless PTI's CR3 write already
	 * serializes (spectre_v1_select_mitigation). */
	if (!intel)
		say(c, 0, 0, "off (not Intel: swapgs not speculated)");
	else if (meltdown)
		say(c, 0, 0, "off (PTI's CR3 write serializes)");
	else if (b->leaf7_ebx & LEAF7_EBX_SMAP)
		say(c, 0, 0, "off (SMAP stops the speculative user load)");
	else
		say(c, 1, 1, "on (no SMAP, no PTI)");
}

static void choose_rsb(int intel, int amd, const struct mitigation_bits *b,
		       struct linux_choice *c)
{
	int v2 = (intel && (b->leaf7_edx & LEAF7_EDX_SPEC_CTRL)) ||
		 (amd && (b->ext8_ebx & (EXT8_EBX_IBRS | EXT8_EBX_IBPB)));

	say(c, v2, 0, v2 ? "context switch and VM exit only, not interrupts" :
			   "off (Spectre v2 unmitigated: no IBRS/IBPB)");
}

void linux_choose(const char *vendor, uint32_t family, uint32_t model,
		  const struct mitigation_bits *b, struct linux_choices *out)
{
	int intel = str_eq(vendor, "GenuineIntel");
	int amd = str_eq(vendor, "AuthenticAMD") ||
		  str_eq(vendor, "HygonGenuine");
	uint64_t cap = b->arch_capabilities_read ? b->arch_capabilities : 0;
	struct linux_choice *c = out->choice;

	choose_pti(intel, b, cap, &c[LINUX_CHOICE_PTI]);
	choose_ibrs(intel, amd, family, model, b, cap, &c[LINUX_CHOICE_IBRS]);
	choose_verw(intel, b, cap, &c[LINUX_CHOICE_VERW]);
	choose_bhb(intel, b, cap, &c[LINUX_CHOICE_BHB]);
	choose_ibpb(b, intel, &c[LINUX_CHOICE_IBPB]);
	choose_lfence_swapgs(intel, c[LINUX_CHOICE_PTI].needed, b,
			     &c[LINUX_CHOICE_LFENCE_SWAPGS]);
	choose_rsb(intel, amd, b, &c[LINUX_CHOICE_RSB]);

	out->steps = 0;
	if (c[LINUX_CHOICE_PTI].per_interrupt)
		out->steps |= 1u << (b->leaf1_ecx & LEAF1_ECX_PCID ?
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
