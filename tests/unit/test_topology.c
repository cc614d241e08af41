/* The topology decode (bench/model/topology.c) on the leaves of CPUs of
 * known shapes, and the relation it gives each pair of APIC IDs; and
 * the whole decode the firmware runs, from CPUID's words as recorded on
 * real parts to each processor's package, core and thread. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/lib/cpuid_bits.h"
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

/* CPUID's words as the firmware reads them (arch/cpu_topology.c), then
 * the firmware's own extract and decode. */
#define WORDS(a, b, c, d) ((struct cpuid_words){ a, b, c, d })

static void decode_words(const struct cpuid_topology_words *w,
			 struct topology_leaves *l, struct topology *t)
{
	topology_extract(w, l);
	topology_decode(l, t);
}

static void expect_place(const struct topology *t, uint32_t apic_id,
			 uint32_t package, uint32_t core, uint32_t thread)
{
	struct topology_place p = topology_place_of(t, apic_id);

	if (p.package != package || p.core != core || p.thread != thread)
		fail_msg("APIC ID 0x%x: package %u core %u thread %u, want "
			 "%u %u %u", apic_id, p.package, p.core, p.thread,
			 package, core, thread);
}

/* Intel Core i9-13900K (Raptor Lake-S, CPUID 000B0671h: 8 P-cores with
 * two threads, 16 E-cores with one, one 36 MB L3), as AIDA64 recorded
 * it in InstLatx64's GenuineIntel00B0671_RaptorLake_01_CPUID.txt: the
 * words every processor shares, then logical CPU #0's (a P-core) or
 * #16's (the first E-core) own. Each topology list ends with the level
 * of type 0 the SDM gives for the next subleaf (vol. 2A, CPUID leaf
 * 1FH: EAX = EBX = 0, ECX[7:0] the subleaf, EDX the x2APIC ID), which
 * the dump does not list. */
static struct cpuid_topology_words raptor_lake(int e_core)
{
	struct cpuid_topology_words w = { 0 };
	uint32_t id = e_core ? 0x40 : 0x00, smt = e_core ? 1 : 2;

	w.max_leaf = 0x20;
	w.max_ext_leaf = 0x80000008;
	w.leaf_01 = WORDS(0x000b0671, id << 24 | 0x00800800, 0x7ffafbff,
			  0xbfebfbff);
	w.leaf_04[0] = WORDS(0xfc004121, e_core ? 0x01c0003f : 0x02c0003f,
			     0x0000003f, 0);
	w.leaf_04[1] = WORDS(0xfc004122, 0x01c0003f,
			     e_core ? 0x0000007f : 0x0000003f, 0);
	w.leaf_04[2] = WORDS(0xfc01c143, 0x03c0003f,
			     e_core ? 0x00000fff : 0x000007ff, 0);
	w.leaf_04[3] = WORDS(0xfc1fc163, 0x02c0003f, 0x0000bfff, 0x00000004);
	w.leaf_1f[0] = WORDS(0x00000001, smt, 0x00000100, id);
	w.leaf_1f[1] = WORDS(0x00000007, 0x00000020, 0x00000201, id);
	w.leaf_1f[2] = WORDS(0, 0, 0x00000002, id);
	w.leaf_0b[0] = w.leaf_1f[0];
	w.leaf_0b[1] = w.leaf_1f[1];
	w.leaf_0b[2] = w.leaf_1f[2];
	w.leaf_80000001 = WORDS(0, 0, 0x00000121, 0x2c100000);
	w.leaf_80000008 = WORDS(0x0000302e, 0, 0, 0);
	return w;
}

/* Leaf 1FH: one SMT bit, seven bits to the package, the L3's 128
 * sharers the package's. A P-core counts two threads, an E-core one;
 * the E-cores' core numbers start at 0x20, after the P-cores' eight
 * (numbered 0, 4, 8 ... 0x1c: the P-cores' IDs step by 8). */
static void raptor_lake_from_leaf_1f(void **state)
{
	struct cpuid_topology_words p_core = raptor_lake(0),
				    e_core = raptor_lake(1);
	struct topology_leaves l;
	struct topology t;

	(void)state;
	decode_words(&p_core, &l, &t);
	assert_int_equal(l.n_levels, 2);
	assert_int_equal(l.apic_id, 0x00);
	assert_int_equal(l.logical_in_core, 2);
	assert_int_equal(l.logical_in_package, 32);
	assert_int_equal(l.llc_sharing, 128);
	assert_true(t.known);
	assert_int_equal(t.smt_shift, 1);
	assert_int_equal(t.llc_shift, 7);
	assert_int_equal(t.package_shift, 7);
	expect_place(&t, l.apic_id, 0, 0, 0);
	/* Logical CPU #3's x2APIC ID, 09H: core 1's second thread. */
	expect_place(&t, 0x09, 0, 4, 1);
	assert_int_equal(topology_relation(&t, 0x00, 0x01),
			 CPU_RELATION_SMT_SIBLING);
	assert_int_equal(topology_relation(&t, 0x00, 0x40),
			 CPU_RELATION_SAME_LLC);

	decode_words(&e_core, &l, &t);
	assert_int_equal(l.apic_id, 0x40);
	assert_int_equal(l.logical_in_core, 1);
	assert_int_equal(l.logical_in_package, 32);
	assert_int_equal(t.smt_shift, 1);
	assert_int_equal(t.package_shift, 7);
	expect_place(&t, l.apic_id, 0, 0x20, 0);
	/* Logical CPU #31, the last E-core: x2APIC ID 5EH. */
	expect_place(&t, 0x5e, 0, 0x2f, 0);
}

/* A part without leaf 1FH or with an empty one decodes 0BH: the same
 * words with 1FH's EBX zero, as a CPU without the leaf answers. */
static void leaf_0b_where_1f_is_empty(void **state)
{
	struct cpuid_topology_words w = raptor_lake(0);
	struct topology_leaves l;
	struct topology t;

	(void)state;
	memset(w.leaf_1f, 0, sizeof(w.leaf_1f));
	w.leaf_0b[1].eax = 6;	/* 0BH's own shift, to tell them apart */
	decode_words(&w, &l, &t);
	assert_int_equal(t.package_shift, 6);
	/* A leaf above the CPU's maximum is never read, even if words
	 * were recorded there. */
	w = raptor_lake(0);
	w.max_leaf = 0x1e;
	w.leaf_0b[1].eax = 6;
	decode_words(&w, &l, &t);
	assert_int_equal(t.package_shift, 6);
}

/* AMD Ryzen 7 1800X (Zen, Summit Ridge, CPUID 00800F11h: 8 cores of two
 * threads in two core complexes of 4, each with its own 8 MB L3), as
 * AIDA64 recorded it in InstLatx64's
 * AuthenticAMD0800F11_K17_Zen_CPUID4.txt, logical CPU #9 (core 4,
 * thread 1). Its highest basic leaf is 0DH: no 0BH, so the decode takes
 * AMD's leaves (APM vol. 3, Appendix E): 8000_001EH's threads per core,
 * 8000_0008H's ApicIdSize and NC, 8000_001DH's L3 sharers. The dump
 * lists no leaf 4, which AMD reserves; it reads as zeros. */
static void zen_from_amd_leaves(void **state)
{
	struct cpuid_topology_words w = { 0 };
	struct topology_leaves l;
	struct topology t;

	(void)state;
	w.max_leaf = 0x0d;
	w.max_ext_leaf = 0x8000001f;
	w.leaf_01 = WORDS(0x00800f11, 0x09100800, 0x7ed8320b, 0x178bfbff);
	w.leaf_80000001 = WORDS(0x00800f11, 0x20000000, 0x35c233ff,
				0x2fd3fbff);
	w.leaf_80000008 = WORDS(0x00003030, 0x00000007, 0x0000400f, 0);
	w.leaf_8000001d[0] = WORDS(0x00004121, 0x01c0003f, 0x0000003f, 0);
	w.leaf_8000001d[1] = WORDS(0x00004122, 0x00c0003f, 0x000000ff, 0);
	w.leaf_8000001d[2] = WORDS(0x00004143, 0x01c0003f, 0x000003ff,
				   0x00000002);
	w.leaf_8000001d[3] = WORDS(0x0001c163, 0x03c0003f, 0x00001fff,
				   0x00000001);
	w.leaf_8000001e = WORDS(0x00000009, 0x00000104, 0, 0);
	decode_words(&w, &l, &t);
	assert_int_equal(l.n_levels, 0);
	assert_int_equal(l.apic_id, 0x09);
	assert_int_equal(l.logical_in_core, 2);
	assert_int_equal(l.logical_in_package, 16);
	assert_int_equal(l.llc_sharing, 8);
	assert_true(t.known);
	assert_int_equal(t.smt_shift, 1);
	assert_int_equal(t.llc_shift, 3);
	assert_int_equal(t.package_shift, 4);
	expect_place(&t, l.apic_id, 0, 4, 1);
	assert_int_equal(topology_relation(&t, 0x09, 0x08),
			 CPU_RELATION_SMT_SIBLING);
	assert_int_equal(topology_relation(&t, 0x09, 0x0e),
			 CPU_RELATION_SAME_LLC);
	assert_int_equal(topology_relation(&t, 0x09, 0x07),
			 CPU_RELATION_SAME_PACKAGE);
	/* Without TOPOEXT (8000_0001H:ECX[22]) 8000_001DH and 8000_001EH
	 * are not there: one thread a core, the initial APIC ID of leaf
	 * 01H, the L3 the package's. */
	w.leaf_80000001.ecx &= ~CPUID_80000001_ECX_TOPOEXT;
	decode_words(&w, &l, &t);
	assert_int_equal(l.apic_id, 0x09);
	assert_int_equal(l.logical_in_core, 0);
	assert_int_equal(t.smt_shift, 0);
	assert_int_equal(t.llc_shift, 4);
}

/* AMD Ryzen 9 PRO 3900 (Zen 2, Matisse, CPUID 00870F10h: 12 cores in
 * four core complexes of 3, each with its own 16 MB L3), as AIDA64
 * recorded it in InstLatx64's AuthenticAMD0870F10_K17_Matisse_CPUID.txt,
 * logical CPU #6 (core 3, thread 0, the second complex's first): leaf
 * 0BH is there and wins over AMD's leaves; the L3's 6 sharers from
 * 8000_001DH take three ID bits. */
static void zen2_from_leaf_0b(void **state)
{
	struct cpuid_topology_words w = { 0 };
	struct topology_leaves l;
	struct topology t;

	(void)state;
	w.max_leaf = 0x10;
	w.max_ext_leaf = 0x80000020;
	w.leaf_01 = WORDS(0x00870f10, 0x08180800, 0x7ed8320b, 0x178bfbff);
	w.leaf_0b[0] = WORDS(0x00000001, 0x00000002, 0x00000100, 0x08);
	w.leaf_0b[1] = WORDS(0x00000007, 0x00000018, 0x00000201, 0x08);
	w.leaf_0b[2] = WORDS(0, 0, 0x00000002, 0x08);
	w.leaf_80000001 = WORDS(0x00870f10, 0x20000000, 0x75c237ff,
				0x2fd3fbff);
	w.leaf_80000008 = WORDS(0x00003030, 0x010eb757, 0x00007017,
				0x00010000);
	w.leaf_8000001d[0] = WORDS(0x00004121, 0x01c0003f, 0x0000003f, 0);
	w.leaf_8000001d[1] = WORDS(0x00004122, 0x01c0003f, 0x0000003f, 0);
	w.leaf_8000001d[2] = WORDS(0x00004143, 0x01c0003f, 0x000003ff,
				   0x00000002);
	w.leaf_8000001d[3] = WORDS(0x00014163, 0x03c0003f, 0x00003fff,
				   0x00000001);
	w.leaf_8000001e = WORDS(0x00000008, 0x00000104, 0, 0);
	decode_words(&w, &l, &t);
	assert_int_equal(l.n_levels, 2);
	assert_int_equal(l.apic_id, 0x08);
	assert_int_equal(l.logical_in_core, 2);
	assert_int_equal(l.logical_in_package, 24);
	assert_int_equal(l.llc_sharing, 6);
	assert_int_equal(t.smt_shift, 1);
	assert_int_equal(t.llc_shift, 3);
	assert_int_equal(t.package_shift, 7);
	expect_place(&t, l.apic_id, 0, 4, 0);
	assert_int_equal(topology_relation(&t, 0x08, 0x0a),
			 CPU_RELATION_SAME_LLC);
	assert_int_equal(topology_relation(&t, 0x08, 0x00),
			 CPU_RELATION_SAME_PACKAGE);
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
		cmocka_unit_test(raptor_lake_from_leaf_1f),
		cmocka_unit_test(leaf_0b_where_1f_is_empty),
		cmocka_unit_test(zen_from_amd_leaves),
		cmocka_unit_test(zen2_from_leaf_0b),
	};

	return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
