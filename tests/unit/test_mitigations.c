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

#include "arch/matrix.h"
#include "bench/model/mitigations.h"

#define PCID (1u << 17)
#define RTM (1u << 11)
#define SMAP (1u << 20)
#define MD_CLEAR (1u << 10)
#define SPEC_CTRL (1u << 26)
#define STIBP (1u << 27)
#define ARCH_CAP (1u << 29)
#define SSBD (1u << 31)
#define BHI_CTRL (1u << 4)
#define AMD_IBPB (1u << 12)
#define AMD_IBRS (1u << 14)

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
#define PBRSB_NO (1ull << 24)
#define GDS_NO (1ull << 26)
#define RFDS_NO (1ull << 27)
#define RFDS_CLEAR (1ull << 28)

#define STEP(s) (1u << LINUX_STEP_##s)

struct part {
	const char *name, *vendor;
	uint32_t family, model;
	struct mitigation_bits bits;
	uint32_t steps;		/* what the "linux" variant runs */
	/* A word each decision's reason must hold, NULL: not checked. */
	const char *pti, *ibrs, *verw, *bhb;
};

static const struct part parts[] = {
	{ "Skylake client, i7-6700K (06_5E), no ARCH_CAPABILITIES",
	  "GenuineIntel", 6, 0x5e,
	  { PCID, SMAP, MD_CLEAR | SPEC_CTRL | STIBP | SSBD, 0, 0, 0, 0 },
	  STEP(PTI_PCID) | STEP(IBRS) | STEP(VERW),
	  "on (RDCL_NO is 0), with PCID", "retbleed",
	  "MD_CLEAR present: it clears buffers", "system calls" },
	/* The Broadwell: PTI, but retpolines, not IBRS. */
	{ "Broadwell-EP, E5-2667 v4 (06_4F)", "GenuineIntel", 6, 0x4f,
	  { PCID, SMAP | RTM, MD_CLEAR | SPEC_CTRL | STIBP | SSBD, 0, 0, 0,
	    0 },
	  STEP(PTI_PCID) | STEP(VERW), "with PCID", "retpolines",
	  "MDS_NO is 0", NULL },
	{ "Cascade Lake, Xeon Gold 6230 (06_55 stepping 7)", "GenuineIntel",
	  6, 0x55,
	  { PCID, SMAP | RTM, MD_CLEAR | SPEC_CTRL | STIBP | ARCH_CAP | SSBD,
	    0, 0, RDCL_NO | IBRS_ALL | SKIP_L1DFL | MDS_NO | TSX_CTRL, 1 },
	  0, "off (RDCL_NO)", "IBRS_ALL", "VM entry only (MMIO Stale Data",
	  "BHI_NO is 0" },
	{ "Sapphire Rapids, Xeon 8480+ (06_8F)", "GenuineIntel", 6, 0x8f,
	  { PCID, SMAP, MD_CLEAR | SPEC_CTRL | STIBP | ARCH_CAP | SSBD,
	    BHI_CTRL, 0,
	    RDCL_NO | IBRS_ALL | SKIP_L1DFL | MDS_NO | PSCHANGE_MC_NO |
		    TSX_CTRL | TAA_NO | SBDR_SSDP_NO | FBSDP_NO | PSDP_NO |
		    PBRSB_NO | GDS_NO | RFDS_NO, 1 },
	  0, "off (RDCL_NO)", "IBRS_ALL", "off (MDS_NO", "BHI_CTRL" },
	/* Alder Lake-N's Gracemont cores: RFDS, cleared by VERW. */
	{ "Alder Lake-N, N100 (06_BE)", "GenuineIntel", 6, 0xbe,
	  { PCID, SMAP, MD_CLEAR | SPEC_CTRL | STIBP | ARCH_CAP | SSBD, 0, 0,
	    RDCL_NO | IBRS_ALL | SKIP_L1DFL | SSB_NO | MDS_NO | TAA_NO |
		    SBDR_SSDP_NO | FBSDP_NO | PSDP_NO | RFDS_CLEAR, 1 },
	  STEP(VERW), "off (RDCL_NO)", "IBRS_ALL", "RFDS_CLEAR", NULL },
	/* Bochs' wildcat_lake model reads ARCH_CAPABILITIES as 0x1F. */
	{ "Bochs wildcat_lake (emulated)", "GenuineIntel", 6, 0xd5,
	  { PCID, SMAP, MD_CLEAR | SPEC_CTRL | ARCH_CAP, 0, 0,
	    RDCL_NO | IBRS_ALL | RSBA | SKIP_L1DFL | SSB_NO, 1 },
	  STEP(VERW), "off (RDCL_NO)", "IBRS_ALL", "MDS_NO is 0", NULL },
	{ "Zen 3, EPYC 7763 (19_01)", "AuthenticAMD", 0x19, 0x01,
	  { PCID, SMAP, 0, 0, AMD_IBPB | AMD_IBRS, 0, 0 },
	  0, "not Intel", "AMD", "not Intel", "not Intel" },
	/* QEMU's TCG CPUs: none of the bits. */
	{ "QEMU TCG max (emulated)", "AuthenticAMD", 0x6, 0x6,
	  { 0, SMAP, 0, 0, 0, 0, 0 }, 0, "not Intel", NULL, NULL, NULL },
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
		WHY(pti, PTI)
		WHY(ibrs, IBRS)
		WHY(verw, VERW)
		WHY(bhb, BHB)
#undef WHY
	}
}

/* A step is on exactly where its decision says per interrupt. */
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
	/* Without SMAP and without PTI, swapgs needs its fence. */
	b.arch_capabilities_read = 1;
	b.leaf7_ebx = 0;
	linux_choose("GenuineIntel", 6, 0x3c, &b, &c);
	assert_true(c.steps & STEP(LFENCE_SWAPGS));
	assert_false(c.steps & (STEP(PTI) | STEP(PTI_PCID)));
}

static void every_mitigation_variant_answers_to_a_decision(void **state)
{
	(void)state;
	assert_int_equal(linux_choice_of_variant(VARIANT_PTI_CR3_PCID),
			 LINUX_CHOICE_PTI);
	assert_int_equal(linux_choice_of_variant(VARIANT_BHB_CLEAR_12X7),
			 LINUX_CHOICE_BHB);
	assert_int_equal(linux_choice_of_variant(VARIANT_RSB_FILL),
			 LINUX_CHOICE_RSB);
	assert_int_equal(linux_choice_of_variant(VARIANT_LINUX), -1);
	assert_int_equal(linux_choice_of_variant(VARIANT_GS_SWAPGS), -1);
	assert_string_equal(linux_choice_name(LINUX_CHOICE_VERW), "VERW");
	assert_string_equal(linux_choice_name(99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_part_gets_the_steps_and_reasons_linux_would),
		cmocka_unit_test(steps_follow_the_per_interrupt_decisions),
		cmocka_unit_test(pti_form_follows_pcid_and_an_unread_msr_is_zero),
		cmocka_unit_test(every_mitigation_variant_answers_to_a_decision),
	};

	return cmocka_run_group_tests_name("mitigations", tests, NULL, NULL);
}
