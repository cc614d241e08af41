/* The matrix's axes (arch/matrix.h): every scheme, source and variant a
 * list has is a name the config accepts, has its words in the catalog,
 * and travels through the handoff as itself. A name added to a list and
 * missing from any of them fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arch/lib/cpuid_bits.h"
#include "bench/model/axes.h"
#include "bench/model/config_parse.h"
#include "bench/model/records.h"
#include "bench/model/serialize.h"
#include "tests/unit/sample_run.h"

static char errors[1024], warnings[1024];
static struct config_problems problems;
static uint8_t blob[HANDOFF_MAX_BLOB];

/* "key = name" alone selects exactly that name of the list. */
static void config_selects_only(const char *key, const char *name,
				const char *const *names)
{
	struct irqlab_config c;
	char line[128];
	uint32_t value;
	size_t i;

	snprintf(line, sizeof(line), "%s = %s\n", key, name);
	config_defaults(&c);
	config_problems_init(&problems, errors, sizeof(errors), warnings,
			     sizeof(warnings));
	config_parse(&c, line, strlen(line), &problems);
	if (problems.n_errors)
		fail_msg("%s: %s", line, errors);
	value = str_eq(key, "schemes") ? c.schemes :
		str_eq(key, "sources") ? c.sources : c.variants;
	for (i = 0; names[i]; i++)
		assert_int_equal(config_selects(value, names, names[i]),
				 str_eq(names[i], name));
}

/* Names are unique within a list, and never empty. */
static void assert_unique(const char *const *names, size_t from, size_t n)
{
	size_t i, k;

	for (i = from; i < n; i++) {
		assert_non_null(names[i]);
		assert_true(names[i][0] != '\0');
		for (k = from; k < i; k++)
			if (str_eq(names[i], names[k]))
				fail_msg("%s twice", names[i]);
	}
	assert_null(names[n]);
}

static void every_name_is_unique(void **state)
{
	(void)state;
	assert_unique(scheme_names, 0, SCHEME_COUNT);
	assert_unique(source_names, 0, SOURCE_COUNT);
	assert_unique(variant_names, 1, VARIANT_END);
	assert_unique(apic_mode_names, 0, APIC_MODE_COUNT);
	assert_unique(cpu_mode_names, 0, CPU_MODE_COUNT);
	assert_unique(selftest_names, 1, SELFTEST_END);
}

static void every_name_is_one_the_config_takes(void **state)
{
	unsigned id;

	(void)state;
	for (id = 0; id < SCHEME_COUNT; id++)
		config_selects_only("schemes", scheme_name(id),
				    config_scheme_names);
	for (id = 0; id < SOURCE_COUNT; id++)
		config_selects_only("sources", source_name(id),
				    config_source_names);
	/* VARIANT_NONE is the variants' baseline: "none" is the empty list. */
	for (id = VARIANT_NONE + 1; id < VARIANT_END; id++)
		config_selects_only("variants", variant_name(id),
				    config_variant_names);
}

static void every_scheme_and_variant_has_its_words(void **state)
{
	unsigned id;

	(void)state;
	for (id = 0; id < SCHEME_COUNT; id++) {
		assert_true(strlen(scheme_words(id)) > 10);
		assert_true(scheme_seed(id)[0] != '\0');
		assert_true(scheme_cpu_mode(id) < CPU_MODE_COUNT);
	}
	for (id = VARIANT_NONE; id < VARIANT_END; id++) {
		assert_true(strlen(variant_words(id)) > 10);
		assert_true(variant_seed(id)[0] != '\0');
	}
	/* Each CPU mode's floor is its first scheme. */
	assert_int_equal(scheme_floor(CPU_MODE_LONG), SCHEME_DIRECT);
	assert_int_equal(scheme_floor(CPU_MODE_PROTECTED_32), SCHEME_I386_DIRECT);
	assert_string_equal(scheme_name(SCHEME_COUNT), "?");
}

/* A run with a row for every scheme, every source and every variant
 * comes back from the handoff with the same ids and names. */
static void every_row_travels_as_itself(void **state)
{
	static struct run_result in, out;
	unsigned i, n = 0;
	size_t len;

	(void)state;
	sample_run(&in, 0);
	for (i = 0; i < SCHEME_COUNT + SOURCE_COUNT + VARIANT_END - 1; i++) {
		struct experiment_result *e = &in.exp[n++];

		e->id = (struct row_id){ .source = SOURCE_INT,
					 .scheme = SCHEME_DIRECT };
		if (i < SCHEME_COUNT)
			e->id.scheme = (uint8_t)i;
		else if (i < SCHEME_COUNT + SOURCE_COUNT)
			e->id.source = (uint8_t)(i - SCHEME_COUNT);
		else
			e->id.variant = (uint8_t)(i - SCHEME_COUNT -
						  SOURCE_COUNT + 1);
		e->baseline = e->id;
		row_name(&e->id, e->name, sizeof(e->name));
	}
	in.n_experiments = n;
	len = results_encode(&in, blob, sizeof(blob));
	assert_true(len > 0);
	assert_int_equal(results_decode(blob, len, &out), DECODE_OK);
	assert_memory_equal(&in, &out, sizeof(in));
	assert_string_equal(out.exp[SCHEME_I386_CALL16].name, "int-i386-call16");
	assert_string_equal(out.exp[SCHEME_COUNT + SOURCE_PIC8259].name,
			    "pic8259-direct");
	assert_string_equal(out.exp[n - 1].name, "int-direct+pda-gs");
}

/* A cache state is a field of its own: an entry variant in the cold
 * state is one row, named for both; a cache field must hold a cache
 * state. */
static void a_variant_in_a_cache_state_is_named_for_both(void **state)
{
	struct row_id id = { .source = SOURCE_INT, .scheme = SCHEME_DIRECT,
			     .variant = VARIANT_IBRS, .cache = VARIANT_COLD };
	struct row_id warm = id;
	char name[64], variant[64];

	(void)state;
	row_name(&id, name, sizeof(name));
	assert_string_equal(name, "int-direct+ibrs+cold");
	row_variant_text(&id, variant, sizeof(variant));
	assert_string_equal(variant, "ibrs+cold");
	assert_true(row_id_valid(&id));
	warm.cache = VARIANT_ABSENT;
	assert_false(row_id_eq(&id, &warm));
	id.variant = VARIANT_ABSENT;
	row_name(&id, name, sizeof(name));
	assert_string_equal(name, "int-direct+cold");
	row_variant_text(&id, variant, sizeof(variant));
	assert_string_equal(variant, "cold");
	id.cache = VARIANT_IBRS;
	assert_false(row_id_valid(&id));
}

/* A row run again on another processor is a row of its own: named
 * "@cpu<MADT index>", unequal to the boot CPU's, and it travels with
 * its processor and core type. A self-test runs on the boot CPU alone,
 * and no processor lies past ROW_CPU_MAX. */
static void a_row_on_another_processor_is_its_own(void **state)
{
	static struct run_result in, out;
	struct row_id boot = { .source = SOURCE_IPI_SELF_X2APIC_ICR,
			       .scheme = SCHEME_FRED };
	struct row_id there = boot;
	char name[RESULTS_NAME_LEN];
	size_t len;

	(void)state;
	there.cpu = 3;
	row_name(&there, name, sizeof(name));
	assert_string_equal(name, "ipi-self-x2apic-icr-fred@cpu2");
	assert_false(row_id_eq(&boot, &there));
	assert_true(row_id_valid(&there));
	sample_run(&in, 2);
	in.exp[1].id = in.exp[1].baseline = there;
	in.exp[1].baseline.scheme = SCHEME_DIRECT;
	row_name(&there, in.exp[1].name, sizeof(in.exp[1].name));
	/* Its processor's own floor, measured there. */
	in.n_other_cpus = 1;
	in.other_cpu[0] = (struct other_cpu){ .cpu = 3,
						.core_type = CORE_TYPE_ATOM,
						.floor = in.floor };
	in.machine.core_type = CORE_TYPE_CORE;
	in.other_cpu[0].floor.min = in.floor.min + 7;
	len = results_encode(&in, blob, sizeof(blob));
	assert_true(len > 0);
	assert_int_equal(results_decode(blob, len, &out), DECODE_OK);
	assert_memory_equal(&in, &out, sizeof(in));
	assert_int_equal(out.exp[1].id.cpu, 3);
	assert_int_equal(out.exp[1].baseline.cpu, 3);
	assert_int_equal(row_core_type(&out, &out.exp[1]), 0x20);
	assert_int_equal(row_core_type(&out, &out.exp[0]), 0x40);
	assert_int_equal(row_floor(&out, &out.exp[1]), in.floor.min + 7);
	assert_int_equal(row_floor(&out, &out.exp[0]), in.floor.min);
	/* The longest name a row can have fits its field. */
	there = (struct row_id){ .source = SOURCE_IOAPIC_LEVEL_VALUE_CACHED_NF,
				 .scheme = SCHEME_DIRECT, .cache = VARIANT_THRASH,
				 .cpu = ROW_CPU_MAX };
	row_name(&there, name, sizeof(name));
	assert_string_equal(name, "ioapic-level-value-cached-nf-direct+thrash@cpu253");
	there.cpu = ROW_CPU_MAX + 1;
	assert_false(row_id_valid(&there));
	there = boot;
	there.cpu = 1;
	there.selftest = SELFTEST_IN_LOOP;
	assert_false(row_id_valid(&there));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_name_is_unique),
		cmocka_unit_test(every_name_is_one_the_config_takes),
		cmocka_unit_test(every_scheme_and_variant_has_its_words),
		cmocka_unit_test(every_row_travels_as_itself),
		cmocka_unit_test(a_variant_in_a_cache_state_is_named_for_both),
		cmocka_unit_test(a_row_on_another_processor_is_its_own),
	};

	return cmocka_run_group_tests_name("axes", tests, NULL, NULL);
}
