/* EFI_RT_PROPERTIES_TABLE: what phase A makes of the firmware's word on
 * its runtime services (firmware/rt_properties.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "firmware/rt_properties.h"

/* edk2's default RuntimeServicesSupported (MdeModulePkg.dec), every
 * service: 0x3fff. */
static const uint8_t all_services[8] = { 1, 0, 8, 0, 0xff, 0x3f, 0, 0 };

static void every_service_offered_lets_the_run_go_ahead(void **state)
{
	uint32_t supported = 0;

	(void)state;
	assert_int_equal(rt_properties_read(all_services, 8, &supported), 0);
	assert_int_equal(supported, 0x3fff);
	assert_int_equal(supported, RT_SUPPORTED_ALL);
	assert_null(rt_properties_refusal(supported, 0));
	/* handoff = serial where SetVariable is offered: the user's
	 * choice, taken as it is. */
	assert_null(rt_properties_refusal(supported, 1));
}

/* Handing over in UEFI variables, each service phase B needs is named
 * when missing, with the choice that measures anyway. */
static void each_missing_service_is_named(void **state)
{
	static const struct {
		uint32_t missing;
		const char *service;
	} needed[] = {
		{ RT_SUPPORTED_SET_VARIABLE, "says SetVariable is not offered" },
		{ RT_SUPPORTED_QUERY_VARIABLE_INFO,
		  "says QueryVariableInfo is not offered" },
		{ RT_SUPPORTED_RESET_SYSTEM, "says ResetSystem is not offered" },
	};
	const char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(needed) / sizeof(needed[0]); i++) {
		why = rt_properties_refusal(0x3fff & ~needed[i].missing, 0);
		assert_non_null(why);
		if (!strstr(why, needed[i].service) ||
		    !strstr(why, "handoff = serial in irqlab.cfg measures "
				 "anyway"))
			fail_msg("the refusal does not name %s and the choice "
				 "that measures anyway: %s", needed[i].service,
				 why);
	}
	/* Only GetTime and the capsule services gone, as some ARM and
	 * hardened x86 firmware publish: irqlab needs neither. */
	assert_null(rt_properties_refusal(0x3fff & ~0x1803u & ~0x3u, 0));
}

/* handoff = serial: the results go to COM1, so no runtime service is
 * needed; the default still refuses the same firmware, SetVariable
 * named first. */
static void handoff_serial_measures_without_setvariable(void **state)
{
	const uint32_t no_set_variable =
		RT_SUPPORTED_ALL & ~RT_SUPPORTED_SET_VARIABLE;
	const char *why;

	(void)state;
	why = rt_properties_refusal(no_set_variable, 0);
	assert_non_null(why);
	assert_non_null(strstr(why, "SetVariable"));
	assert_null(rt_properties_refusal(no_set_variable, 1));
	/* Nor the store's room, nor ResetSystem: a serial run without it
	 * halts at its end instead of powering off. */
	why = rt_properties_refusal(no_set_variable &
				    ~RT_SUPPORTED_QUERY_VARIABLE_INFO &
				    ~RT_SUPPORTED_RESET_SYSTEM, 0);
	assert_non_null(strstr(why, "SetVariable"));
	assert_null(rt_properties_refusal(0, 1));
}

static void a_short_or_unknown_table_is_not_read(void **state)
{
	uint8_t t[8];
	uint32_t supported = 0x55;

	(void)state;
	memcpy(t, all_services, 8);
	assert_int_equal(rt_properties_read(t, 7, &supported), -1);
	assert_int_equal(rt_properties_read(NULL, 8, &supported), -1);
	t[0] = 2;	/* a version irqlab does not know */
	assert_int_equal(rt_properties_read(t, 8, &supported), -1);
	t[0] = 1;
	t[2] = 6;	/* a length shorter than the fields */
	assert_int_equal(rt_properties_read(t, 8, &supported), -1);
	assert_int_equal(supported, 0x55);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_service_offered_lets_the_run_go_ahead),
		cmocka_unit_test(each_missing_service_is_named),
		cmocka_unit_test(handoff_serial_measures_without_setvariable),
		cmocka_unit_test(a_short_or_unknown_table_is_not_read),
	};

	return cmocka_run_group_tests_name("rt_properties", tests, NULL, NULL);
}
