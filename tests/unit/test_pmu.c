/* The performance counters' decoding (bench/model/pmu.c), on the CPUID
 * leaves real CPUs and the emulators here give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/lib/cpuid_bits.h"
#include "bench/model/pmu.h"
#include "bench/model/results.h"

static void intel_leaf_0ah_is_decoded(void **state)
{
	struct pmu_intel p;
	char why[128];

	(void)state;
	/* Skylake: version 4, 4 counters of 48 bits, 3 fixed of 48. */
	pmu_decode_intel(0x07300404, 0x00000603, &p);
	assert_int_equal(p.version, 4);
	assert_int_equal(p.gp_counters, 4);
	assert_int_equal(p.gp_width, 48);
	assert_int_equal(p.fixed_counters, 3);
	assert_int_equal(p.fixed_width, 48);
	assert_null(pmu_intel_fixed_unusable(&p, why, sizeof(why)));
	/* A version 6 leaf with the AnyThread-deprecation bit (EDX[15]),
	 * as Bochs' wildcat_lake advertises it. */
	pmu_decode_intel(0x08300806, 0x00008603, &p);
	assert_int_equal(p.version, 6);
	assert_int_equal(p.fixed_counters, 3);
	assert_int_equal(p.fixed_width, 48);
}

static void no_pmu_and_old_pmus_are_named(void **state)
{
	struct pmu_intel p;
	char why[128];

	(void)state;
	/* QEMU's TCG CPUs: CPUID 0AH all zero. */
	pmu_decode_intel(0, 0, &p);
	assert_non_null(pmu_intel_fixed_unusable(&p, why, sizeof(why)));
	assert_string_equal(why, "CPUID 0AH reports no architectural PMU");
	/* Version 1 describes no fixed counters, whatever EDX holds. */
	pmu_decode_intel(0x07280201, 0x00000603, &p);
	assert_int_equal(p.fixed_counters, 0);
	assert_non_null(pmu_intel_fixed_unusable(&p, why, sizeof(why)));
	assert_non_null(strstr(why, "version 1"));
}

static void amd_leaves_are_decoded(void **state)
{
	struct pmu_amd p;

	(void)state;
	/* Zen 4: core extension, IRPerfCount, PerfMonV2. */
	pmu_decode_amd(1u << 23, 1u << 1, 1u, &p);
	assert_true(p.core_extension && p.irperf && p.perfmon_v2);
	pmu_decode_amd(0, 0, 0, &p);
	assert_false(p.core_extension || p.irperf || p.perfmon_v2);
}

static void counter_deltas_survive_a_wrap(void **state)
{
	(void)state;
	assert_true(pmu_delta(0xfffffffffff0ull, 0x10, 48) == 0x20);
	assert_true(pmu_delta(100, 250, 48) == 150);
	assert_true(pmu_delta(~0ull - 4, 5, 64) == 10);
}

static void the_frequency_rule_marks_a_moving_clock(void **state)
{
	(void)state;
	assert_int_equal(pmu_ratio_milli(2500, 1000), 2500);
	assert_int_equal(pmu_ratio_milli(5, 0), 0);
	/* Bochs returns the TSC for both: exactly 1. */
	assert_int_equal(pmu_ratio_milli(123456789, 123456789), 1000);
	assert_false(pmu_frequency_moved(1000, 1020));	/* 2 %: steady */
	assert_true(pmu_frequency_moved(1000, 1021));
	assert_true(pmu_frequency_moved(800, 2000));	/* a turbo step */
	assert_false(pmu_frequency_moved(0, 0));	/* not measured */
}

/* Firmware that turned turbo off cleared CPUID 06H:EAX[1] with it
 * (SDM vol. 4, Table 2-2): the MSR must still say "off". */
static void turbo_off_is_read_from_the_msr(void **state)
{
	(void)state;
	assert_int_equal(pmu_intel_turbo_state(0, 1,
					       PMU_MISC_ENABLE_TURBO_DISABLE),
			 BOOST_OFF);
	assert_int_equal(pmu_intel_turbo_state(CPUID_06_EAX_TURBO, 1, 0),
			 BOOST_ON);
	assert_int_equal(pmu_intel_turbo_state(0, 1, PMU_MISC_ENABLE_EIST),
			 BOOST_ABSENT);
	/* Unread (phase A does not read it before Pentium M Dothan):
	 * CPUID alone. */
	assert_int_equal(pmu_intel_turbo_state(CPUID_06_EAX_TURBO, 0,
					       PMU_MISC_ENABLE_TURBO_DISABLE),
			 BOOST_ON);
}

static void the_pin_path_needs_eist_enabled(void **state)
{
	struct pmu_intel_clock c = { .eist = 1, .misc_enable_read = 1,
				     .misc_enable = PMU_MISC_ENABLE_EIST };
	const char *why;

	(void)state;
	assert_int_equal(pmu_intel_pin_path(&c, &why), PIN_PATH_PERF_CTL);
	assert_null(why);
	/* Offered by CPUID, but the firmware left it disabled. */
	c.misc_enable = PMU_MISC_ENABLE_TURBO_DISABLE;
	assert_int_equal(pmu_intel_pin_path(&c, &why), PIN_PATH_NONE);
	assert_non_null(strstr(why, "IA32_MISC_ENABLE[16] clear"));
	c.misc_enable_read = 0;
	assert_int_equal(pmu_intel_pin_path(&c, &why), PIN_PATH_NONE);
	assert_non_null(strstr(why, "faults"));
	c = (struct pmu_intel_clock){ .misc_enable_read = 1,
				      .misc_enable = PMU_MISC_ENABLE_EIST };
	assert_int_equal(pmu_intel_pin_path(&c, &why), PIN_PATH_NONE);
	assert_non_null(strstr(why, "CPUID.1:ECX[7]"));
	/* HWP on: IA32_PERF_CTL is ignored, whatever EIST says. */
	c.hwp_on = 1;
	c.misc_enable = 0;
	assert_int_equal(pmu_intel_pin_path(&c, &why), PIN_PATH_HWP);
	assert_null(why);
}

static void turbo_is_turned_off_only_where_offered(void **state)
{
	(void)state;
	assert_int_equal(pmu_intel_turbo_step(CPUID_06_EAX_TURBO, 0),
			 TURBO_TURN_OFF);
	assert_int_equal(pmu_intel_turbo_step(0,
					      PMU_MISC_ENABLE_TURBO_DISABLE),
			 TURBO_ALREADY_OFF);
	assert_int_equal(pmu_intel_turbo_step(0, PMU_MISC_ENABLE_EIST),
			 TURBO_NOT_OFFERED);
}

/* IA32_PERF_CTL's ratio alone is written: bits 7:0 (a VID on some
 * parts) and bit 32 (turbo disengage) stay as the firmware left them. */
static void perf_ctl_keeps_the_bits_it_does_not_set(void **state)
{
	(void)state;
	assert_int_equal(pmu_perf_ctl_request(0x100001a2bull, 0x10, NULL),
			 0x10000102bull);
	assert_int_equal(pmu_perf_ctl_request(0, 0x24, NULL), 0x2400);
}

/* Linux's intel_pstate takes the VID path for Silvermont (Bay Trail,
 * 37H) and Airmont (Cherry Trail and Braswell, 4CH); Avoton (4DH) and
 * Goldmont (5CH) take the core path, with no VID. */
static void atom_models_take_a_vid(void **state)
{
	(void)state;
	assert_true(pmu_atom_takes_vid(6, 0x37));
	assert_true(pmu_atom_takes_vid(6, 0x4c));
	assert_false(pmu_atom_takes_vid(6, 0x4d));
	assert_false(pmu_atom_takes_vid(6, 0x5c));
	assert_false(pmu_atom_takes_vid(6, 0x9e));
	assert_false(pmu_atom_takes_vid(15, 0x37));
}

static void the_atom_vid_follows_its_table(void **state)
{
	/* Ratios 5 to 20; VIDs 20H to 3EH, 2 a ratio; turbo VID 45H. */
	struct pmu_atom_vids a = { .ratios = 0x140500, .vids = 0x3e2000,
				   .turbo_vids = 0x45 };

	(void)state;
	/* Ratio 12 over an old request for ratio 10 at its VID 1FH, with
	 * bit 32 set: the VID 20H + 7 * 2, bit 32 kept. */
	assert_int_equal(pmu_perf_ctl_request(0x100000a1full, 12, &a),
			 0x100000c2eull);
	/* The table's ends, below its lowest, and past its highest: the
	 * turbo VID. */
	assert_int_equal(pmu_perf_ctl_request(0, 5, &a), 0x0520);
	assert_int_equal(pmu_perf_ctl_request(0, 20, &a), 0x143e);
	assert_int_equal(pmu_perf_ctl_request(0, 3, &a), 0x0320);
	assert_int_equal(pmu_perf_ctl_request(0, 21, &a), 0x1545);
	/* 31 VID steps over 15 ratios: one ratio up is 2.07 steps,
	 * rounded up to 3, never down to a voltage too low. */
	a.vids = 0x3f2000;
	assert_int_equal(pmu_perf_ctl_request(0, 6, &a), 0x0623);
	/* A table that reads 0 gives VID 0, which pin_perf_ctl refuses
	 * to write. */
	a = (struct pmu_atom_vids){ 0 };
	assert_int_equal(pmu_perf_ctl_request(0x1234, 16, &a) & 0xff, 0);
}

/* Two packages, two processors each measuring: the first in sets the
 * bit (found clear), the others find it set. The first out of package 1
 * leaves it for the other, who clears it last; package 0's were set by
 * the boot CPU, which puts back its own, so none of its clears it. */
static void the_last_of_a_package_out_clears_turbo(void **state)
{
	struct pmu_package_holds h = { 0 };

	(void)state;
	pmu_package_hold_take(&h, 0, 1);	/* the boot CPU set it */
	pmu_package_hold_take(&h, 1, 0);	/* CPU 2: first in, sets */
	pmu_package_hold_take(&h, 1, 1);	/* CPU 3: finds it set */
	assert_int_equal(pmu_package_hold_leave(&h, 1, 1), PMU_HOLD_KEEP);
	assert_int_equal(pmu_package_hold_leave(&h, 1, 0), PMU_HOLD_CLEAR_LAST);
	assert_int_equal(pmu_package_hold_leave(&h, 0, 0), PMU_HOLD_KEEP);
	/* In again after all were out: found clear, set, and cleared by
	 * the one that set it, alone. */
	pmu_package_hold_take(&h, 1, 0);
	assert_int_equal(pmu_package_hold_leave(&h, 1, 1), PMU_HOLD_CLEAR_LAST);
	/* Found set by the first in (the firmware's turbo off): never
	 * cleared. */
	pmu_package_hold_take(&h, 2, 1);
	pmu_package_hold_take(&h, 2, 1);
	assert_int_equal(pmu_package_hold_leave(&h, 2, 0), PMU_HOLD_KEEP);
	assert_int_equal(pmu_package_hold_leave(&h, 2, 0), PMU_HOLD_KEEP);
}

/* Found clear while another of its package holds it set: the bit is
 * narrower than the package here, and each clears its own, whichever
 * leaves first. A full table: each clears its own. */
static void a_bit_narrower_than_the_package_is_each_ones_own(void **state)
{
	struct pmu_package_holds h = { 0 };
	uint32_t i;

	(void)state;
	pmu_package_hold_take(&h, 4, 0);
	pmu_package_hold_take(&h, 4, 0);
	assert_int_equal(pmu_package_hold_leave(&h, 4, 1), PMU_HOLD_CLEAR_OWN);
	assert_int_equal(pmu_package_hold_leave(&h, 4, 1), PMU_HOLD_CLEAR_OWN);
	for (i = 0; i < PMU_PACKAGE_HOLDS_MAX; i++)
		pmu_package_hold_take(&h, 100 + i, 1);
	pmu_package_hold_take(&h, 999, 0);
	pmu_package_hold_take(&h, 999, 1);
	assert_int_equal(pmu_package_hold_leave(&h, 999, 0), PMU_HOLD_KEEP);
	assert_int_equal(pmu_package_hold_leave(&h, 999, 1), PMU_HOLD_CLEAR_OWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(intel_leaf_0ah_is_decoded),
		cmocka_unit_test(no_pmu_and_old_pmus_are_named),
		cmocka_unit_test(amd_leaves_are_decoded),
		cmocka_unit_test(counter_deltas_survive_a_wrap),
		cmocka_unit_test(the_frequency_rule_marks_a_moving_clock),
		cmocka_unit_test(turbo_off_is_read_from_the_msr),
		cmocka_unit_test(the_pin_path_needs_eist_enabled),
		cmocka_unit_test(turbo_is_turned_off_only_where_offered),
		cmocka_unit_test(perf_ctl_keeps_the_bits_it_does_not_set),
		cmocka_unit_test(atom_models_take_a_vid),
		cmocka_unit_test(the_atom_vid_follows_its_table),
		cmocka_unit_test(the_last_of_a_package_out_clears_turbo),
		cmocka_unit_test(a_bit_narrower_than_the_package_is_each_ones_own),
	};

	return cmocka_run_group_tests_name("pmu", tests, NULL, NULL);
}
