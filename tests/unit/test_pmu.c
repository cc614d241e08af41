/* The performance counters' decoding (bench/model/pmu.c), on the CPUID
 * leaves real CPUs and the emulators here give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/pmu.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(intel_leaf_0ah_is_decoded),
		cmocka_unit_test(no_pmu_and_old_pmus_are_named),
		cmocka_unit_test(amd_leaves_are_decoded),
		cmocka_unit_test(counter_deltas_survive_a_wrap),
		cmocka_unit_test(the_frequency_rule_marks_a_moving_clock),
	};

	return cmocka_run_group_tests_name("pmu", tests, NULL, NULL);
}
