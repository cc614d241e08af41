/* The platform probes' judgements (bench/model/probes.c) on register
 * values as real and broken machines give them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/probes.h"

static void a_counting_pit_passes_and_a_gated_one_is_named(void **state)
{
	char why[160];

	(void)state;
	/* QEMU's PIT, 50 us apart: about 60 of its 838 ns ticks. */
	assert_null(probe_pit(0xffcb, 0xff5d, why, sizeof(why)));
	assert_non_null(probe_pit(0xffff, 0xffff, why, sizeof(why)));
	assert_non_null(strstr(why, "gated"));
	assert_non_null(strstr(why, "0xffff"));
}

static void the_hpet_must_answer_in_range_and_count(void **state)
{
	/* A PCH's: 69.841279 ns period (14.318 MHz). */
	const uint64_t intel = (69841279ull << 32) | 0x8086a701ull;
	char why[160];

	(void)state;
	/* QEMU's: 10 ns period, 3 comparators, 64-bit, legacy-capable. */
	assert_null(probe_hpet((10000000ull << 32) | 0x8086a201ull, 100, 300,
			       why, sizeof(why)));
	assert_null(probe_hpet(intel, 0xfffffff0u, 0x10, why, sizeof(why)));
	assert_non_null(probe_hpet(~0ull, 0xffffffffu, 0xffffffffu, why,
				   sizeof(why)));
	assert_non_null(strstr(why, "all-ones"));
	assert_non_null(probe_hpet(0x8086a201ull, 1, 2, why, sizeof(why)));
	assert_non_null(strstr(why, "period is 0 fs"));
	assert_non_null(probe_hpet((100000001ull << 32) | 0x8086a201ull, 1, 2,
				   why, sizeof(why)));
	assert_non_null(strstr(why, "100000001 fs"));
	assert_null(probe_hpet((100000000ull << 32) | 1, 1, 2, why, sizeof(why)));
	assert_non_null(probe_hpet(intel, 0x1234, 0x1234, why, sizeof(why)));
	assert_non_null(strstr(why, "does not advance"));
}

static void x2apic_is_locked_only_when_both_msrs_say_so(void **state)
{
	(void)state;
	assert_false(probe_x2apic_locked(0, 0));
	assert_false(probe_x2apic_locked(0, XAPIC_DISABLE_LEGACY));
	assert_false(probe_x2apic_locked(ARCH_CAP_XAPIC_DISABLE, 0));
	/* Sapphire Rapids with TDX: ARCH_CAPABILITIES 0x...20_0000 set. */
	assert_true(probe_x2apic_locked(0x2000ebull | ARCH_CAP_XAPIC_DISABLE,
					0x3));
}

static void remapping_is_seen_in_the_global_status(void **state)
{
	(void)state;
	assert_false(probe_remapping_enabled(0));
	assert_false(probe_remapping_enabled(0xc0000000u));	/* TES, RTPS */
	assert_true(probe_remapping_enabled(0xc3000000u));	/* IRES, IRTPS */
}

static void each_gsi_goes_to_the_ioapic_that_takes_it(void **state)
{
	/* Two IO-APICs, as on a two-socket server: 24 inputs from GSI 0,
	 * 32 from GSI 24; and a gap after them. */
	const uint32_t base[] = { 0, 24, 120 };
	const uint8_t pins[] = { 24, 32, 8 };

	(void)state;
	assert_int_equal(probe_gsi_owner(base, pins, 3, 0), 0);
	assert_int_equal(probe_gsi_owner(base, pins, 3, 23), 0);
	assert_int_equal(probe_gsi_owner(base, pins, 3, 24), 1);
	assert_int_equal(probe_gsi_owner(base, pins, 3, 55), 1);
	assert_int_equal(probe_gsi_owner(base, pins, 3, 56), -1);
	assert_int_equal(probe_gsi_owner(base, pins, 3, 127), 2);
	assert_int_equal(probe_gsi_owner(base, pins, 3, 128), -1);
	assert_int_equal(probe_gsi_owner(base, pins, 0, 0), -1);
}

static void tsc_deadline_errata_follow_the_microcode(void **state)
{
	char why[160];

	(void)state;
	/* Skylake client: 0xb2 is the first good revision. */
	assert_non_null(probe_tsc_deadline("GenuineIntel", 6, 0x5e, 0xb0, why,
					   sizeof(why)));
	assert_non_null(strstr(why, "0xb2"));
	assert_null(probe_tsc_deadline("GenuineIntel", 6, 0x5e, 0xb2, why,
				       sizeof(why)));
	assert_null(probe_tsc_deadline("GenuineIntel", 6, 0x8e, 0xf4, why,
				       sizeof(why)));
	/* A later part, and AMD, are not on the list. */
	assert_null(probe_tsc_deadline("GenuineIntel", 6, 0xaa, 0x1, why,
				       sizeof(why)));
	assert_null(probe_tsc_deadline("AuthenticAMD", 6, 0x5e, 0, why,
				       sizeof(why)));
}

static void cpuid_16h_gives_way_to_a_timer_that_disagrees(void **state)
{
	int64_t off;

	(void)state;
	/* 15H is exact: taken whatever the timer says. */
	assert_true(probe_tsc_cpuid_taken(2400000000ull, 0, 2500000000ull, &off));
	/* 16H within 0.5 %: taken. */
	assert_true(probe_tsc_cpuid_taken(2400000000ull, 1, 2401000000ull, &off));
	assert_true(off < 0 && off > -1000);
	/* 16H's nominal 2.4 GHz on a TSC that runs at 2.1 GHz: not. */
	assert_false(probe_tsc_cpuid_taken(2400000000ull, 1, 2100000000ull,
					   &off));
	assert_int_equal(off, 142857);
	/* No calibration to check it against: CPUID's, whatever it is. */
	assert_true(probe_tsc_cpuid_taken(2400000000ull, 1, 0, &off));
	assert_false(probe_tsc_cpuid_taken(0, 0, 2100000000ull, &off));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_counting_pit_passes_and_a_gated_one_is_named),
		cmocka_unit_test(the_hpet_must_answer_in_range_and_count),
		cmocka_unit_test(x2apic_is_locked_only_when_both_msrs_say_so),
		cmocka_unit_test(remapping_is_seen_in_the_global_status),
		cmocka_unit_test(each_gsi_goes_to_the_ioapic_that_takes_it),
		cmocka_unit_test(tsc_deadline_errata_follow_the_microcode),
		cmocka_unit_test(cpuid_16h_gives_way_to_a_timer_that_disagrees),
	};

	return cmocka_run_group_tests_name("probes", tests, NULL, NULL);
}
