/* The topology decode (bench/model/topology.c) on the leaves of CPUs of
 * known shapes, and the relation it gives each pair of APIC IDs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/topology.h"

/* Leaf 0BH/1FH subleaves: EAX[4:0] the shift, ECX[15:8] the type (1
 * SMT, 2 core, 5 die), ECX[7:0] the subleaf. */
#define SMT_LEVEL(shift) (shift), 0x100
#define CORE_LEVEL(shift) (shift), 0x201

struct pair {
	uint32_t a, b;
	enum cpu_relation want;
};

static void expect(const struct topology_leaves *l, const struct pair *p,
		   size_t n)
{
	struct topology t;
	size_t i;

	topology_decode(l, &t);
	for (i = 0; i < n; i++) {
		enum cpu_relation got = topology_relation(&t, p[i].a, p[i].b);

		if (got != p[i].want)
			fail_msg("APIC IDs 0x%x and 0x%x: %s, want %s", p[i].a,
				 p[i].b, cpu_relation_name(got),
				 cpu_relation_name(p[i].want));
	}
}

static struct topology_leaves levels(uint32_t eax0, uint32_t ecx0,
				     uint32_t eax1, uint32_t ecx1)
{
	struct topology_leaves l = { 0 };

	l.n_levels = 2;
	l.level_eax[0] = eax0;
	l.level_ecx[0] = ecx0;
	l.level_eax[1] = eax1;
	l.level_ecx[1] = ecx1;
	return l;
}

/* Two packages of 16 cores, 2 threads each, 6 ID bits a package and the
 * last-level cache the package's (Skylake-SP's layout). */
static void two_sockets_llc_per_package(void **state)
{
	struct topology_leaves l = levels(SMT_LEVEL(1), CORE_LEVEL(6));
	static const struct pair pairs[] = {
		{ 0x00, 0x00, CPU_RELATION_SELF },
		{ 0x00, 0x01, CPU_RELATION_SMT_SIBLING },
		{ 0x02, 0x03, CPU_RELATION_SMT_SIBLING },
		{ 0x00, 0x02, CPU_RELATION_SAME_LLC },
		{ 0x01, 0x3a, CPU_RELATION_SAME_LLC },
		{ 0x00, 0x40, CPU_RELATION_OTHER_PACKAGE },
		{ 0x41, 0x40, CPU_RELATION_SMT_SIBLING },
	};

	(void)state;
	l.llc_sharing = 64;
	expect(&l, pairs, sizeof(pairs) / sizeof(pairs[0]));
}

/* Zen 2 EPYC: core complexes of 4 cores and 8 threads, each with its own
 * L3 (8000_001DH: 8 sharers), 7 ID bits a package. */
static void core_complexes_share_their_own_llc(void **state)
{
	struct topology_leaves l = levels(SMT_LEVEL(1), CORE_LEVEL(7));
	static const struct pair pairs[] = {
		{ 0x00, 0x01, CPU_RELATION_SMT_SIBLING },
		{ 0x00, 0x06, CPU_RELATION_SAME_LLC },
		{ 0x00, 0x08, CPU_RELATION_SAME_PACKAGE },
		{ 0x07, 0x7f, CPU_RELATION_SAME_PACKAGE },
		{ 0x00, 0x80, CPU_RELATION_OTHER_PACKAGE },
	};

	(void)state;
	l.llc_sharing = 8;
	expect(&l, pairs, sizeof(pairs) / sizeof(pairs[0]));
}

/* An AMD part without leaf 0BH (Zen 1): 8000_001EH's threads per core,
 * 8000_0008H's ID bits a package, 8000_001DH's L3 sharers. */
static void amd_without_leaf_0b(void **state)
{
	struct topology_leaves l = { 0 };
	static const struct pair pairs[] = {
		{ 0x10, 0x11, CPU_RELATION_SMT_SIBLING },
		{ 0x10, 0x17, CPU_RELATION_SAME_LLC },
		{ 0x10, 0x18, CPU_RELATION_SAME_PACKAGE },
		{ 0x10, 0x40, CPU_RELATION_OTHER_PACKAGE },
	};

	(void)state;
	l.amd_threads_per_core = 2;
	l.amd_apic_id_size = 6;
	l.llc_sharing = 8;
	expect(&l, pairs, sizeof(pairs) / sizeof(pairs[0]));
}

/* QEMU -smp 4,sockets=2,cores=2: no SMT level shift, one ID bit for the
 * core, the L3 per socket. */
static void qemu_two_sockets_of_two_cores(void **state)
{
	struct topology_leaves l = levels(SMT_LEVEL(0), CORE_LEVEL(1));
	static const struct pair pairs[] = {
		{ 0, 1, CPU_RELATION_SAME_LLC },
		{ 0, 2, CPU_RELATION_OTHER_PACKAGE },
		{ 3, 2, CPU_RELATION_SAME_LLC },
		{ 1, 3, CPU_RELATION_OTHER_PACKAGE },
	};

	(void)state;
	l.llc_sharing = 2;
	expect(&l, pairs, sizeof(pairs) / sizeof(pairs[0]));
}

/* A hybrid part through leaf 1FH with a die level: P-cores with two
 * threads, E-cores with one, one L3 for the package. */
static void hybrid_cores_under_a_die_level(void **state)
{
	struct topology_leaves l = levels(SMT_LEVEL(1), CORE_LEVEL(6));
	static const struct pair pairs[] = {
		{ 0x00, 0x01, CPU_RELATION_SMT_SIBLING },
		{ 0x20, 0x22, CPU_RELATION_SAME_LLC },
		{ 0x00, 0x20, CPU_RELATION_SAME_LLC },
	};

	(void)state;
	l.n_levels = 3;
	l.level_eax[2] = 6;
	l.level_ecx[2] = 0x502;
	l.llc_sharing = 64;
	expect(&l, pairs, sizeof(pairs) / sizeof(pairs[0]));
}

/* No leaf: every pair but a CPU with itself is unknown; an LLC leaf that
 * claims more than the package is held to the package. */
static void without_leaves_nothing_is_claimed(void **state)
{
	struct topology_leaves none = { 0 };
	struct topology_leaves wide = levels(SMT_LEVEL(1), CORE_LEVEL(4));
	struct topology t;

	(void)state;
	topology_decode(&none, &t);
	assert_false(t.known);
	assert_int_equal(topology_relation(&t, 0, 1), CPU_RELATION_UNKNOWN);
	assert_int_equal(topology_relation(&t, 5, 5), CPU_RELATION_SELF);
	wide.llc_sharing = 1024;
	topology_decode(&wide, &t);
	assert_int_equal(t.llc_shift, 4);
	assert_int_equal(topology_relation(&t, 0, 0x10),
			 CPU_RELATION_OTHER_PACKAGE);
	assert_string_equal(cpu_relation_name(CPU_RELATION_SAME_LLC),
			    "same-llc");
	assert_string_equal(cpu_relation_name(99), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_sockets_llc_per_package),
		cmocka_unit_test(core_complexes_share_their_own_llc),
		cmocka_unit_test(amd_without_leaf_0b),
		cmocka_unit_test(qemu_two_sockets_of_two_cores),
		cmocka_unit_test(hybrid_cores_under_a_die_level),
		cmocka_unit_test(without_leaves_nothing_is_claimed),
	};

	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
