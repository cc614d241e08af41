/* Processors beyond APIC ID 254: the MADT parser on a table that mixes
 * local APIC entries (type 0) with local x2APIC entries (type 9) whose
 * IDs xAPIC cannot name, and the reasons the runner skips their rows
 * with, or keeps x2APIC mode for (bench/model/apic_reach.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/apic_reach.h"
#include "bench/model/results.h"
#include "tests/unit/fixture.h"

/* A MADT of the entries given, its header and checksum made here. */
struct table {
	uint8_t b[4096];
	size_t n;
};

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void begin(struct table *t)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->b, "APIC", 4);
	t->b[8] = 5;				/* revision */
	memcpy(t->b + 10, "IRQLAB", 6);
	put32(t->b + 36, 0xfee00000u);		/* local APIC address */
	put32(t->b + 40, 1);			/* PCAT_COMPAT */
	t->n = 44;
}

/* Type 0: ACPI processor UID, 8-bit APIC ID, flags (ACPI 6.5
 * §5.2.12.2). */
static void lapic(struct table *t, uint8_t uid, uint8_t id, uint32_t flags)
{
	uint8_t *e = t->b + t->n;

	e[0] = 0;
	e[1] = 8;
	e[2] = uid;
	e[3] = id;
	put32(e + 4, flags);
	t->n += 8;
}

/* Type 9: 32-bit x2APIC ID, flags, UID (ACPI 6.5 §5.2.12.12). */
static void x2apic(struct table *t, uint32_t id, uint32_t flags, uint32_t uid)
{
	uint8_t *e = t->b + t->n;

	e[0] = 9;
	e[1] = 16;
	put32(e + 4, id);
	put32(e + 8, flags);
	put32(e + 12, uid);
	t->n += 16;
}

/* Type 1: an IO-APIC, to show the walk goes on past both kinds. */
static void ioapic(struct table *t, uint8_t id, uint32_t address)
{
	uint8_t *e = t->b + t->n;

	e[0] = 1;
	e[1] = 12;
	e[2] = id;
	put32(e + 4, address);
	t->n += 12;
}

static void end(struct table *t)
{
	uint8_t sum = 0;
	size_t i;

	put32(t->b + 4, (uint32_t)t->n);
	t->b[9] = 0;
	for (i = 0; i < t->n; i++)
		sum = (uint8_t)(sum + t->b[i]);
	t->b[9] = (uint8_t)-sum;
}

#define ENABLED 1u
#define ONLINE_CAPABLE 2u

/* Two processors in type 0 entries, one of them listed again in a type
 * 9 entry, as firmware may do; three enabled ones xAPIC cannot name
 * (255, its broadcast, then 256 and 4096); one online-capable and one
 * absent in type 9, and one absent in type 0. */
static void mixed_table(struct table *t)
{
	begin(t);
	lapic(t, 0, 0, ENABLED);
	lapic(t, 1, 1, ENABLED);
	ioapic(t, 0, 0xfec00000u);
	x2apic(t, 1, ENABLED, 1);
	x2apic(t, 255, ENABLED, 2);
	lapic(t, 3, 2, 0);
	x2apic(t, 256, ENABLED, 4);
	x2apic(t, 300, ONLINE_CAPABLE, 5);
	x2apic(t, 400, 0, 6);
	x2apic(t, 4096, ENABLED, 7);
	end(t);
}

static void mixed_entries_are_parsed(void **state)
{
	struct table t;
	struct madt_info m;

	(void)state;
	mixed_table(&t);
	assert_int_equal(madt_parse(t.b, t.n, &m), ACPI_OK);
	/* Enabled processors, each once, in the table's order. */
	assert_int_equal(m.cpu_count, 5);
	assert_int_equal(m.cpu_apic_id[0], 0);
	assert_int_equal(m.cpu_apic_id[1], 1);
	assert_int_equal(m.cpu_apic_id[2], 255);
	assert_int_equal(m.cpu_apic_id[3], 256);
	assert_int_equal(m.cpu_apic_id[4], 4096);
	/* Entries enabled or online-capable, of both kinds. */
	assert_int_equal(m.lapic_count, 7);
	assert_int_equal(m.x2apic_count, 5);
	assert_int_equal(m.absent_count, 2);
	assert_int_equal(m.absent_apic_id[0], 2);
	assert_int_equal(m.absent_apic_id[1], 400);
	assert_int_equal(m.ioapic_count, 1);
	/* The enabled ones xAPIC cannot name: 255, 256 and 4096; not the
	 * online-capable 300 nor the absent 400, which run nothing. */
	assert_int_equal(m.beyond_xapic_count, 3);
	assert_int_equal(m.first_beyond_xapic, 255);
}

/* QEMU's layout for -smp with more than 255 IDs: type 0 below 255, type
 * 9 from 255 on (ACPI 6.5 §5.2.12.12); every ID from 0 to 299. */
static void a_long_table_counts_each_once(void **state)
{
	static struct table t;
	struct madt_info m;
	uint32_t id;

	(void)state;
	begin(&t);
	for (id = 0; id < 255; id++)
		lapic(&t, (uint8_t)id, (uint8_t)id, ENABLED);
	for (id = 255; id < 300; id++)
		x2apic(&t, id, ENABLED, id);
	end(&t);
	assert_int_equal(madt_parse(t.b, t.n, &m), ACPI_OK);
	assert_int_equal(m.cpu_count, 300);
	assert_int_equal(m.x2apic_count, 45);
	assert_int_equal(m.beyond_xapic_count, 45);
	assert_int_equal(m.first_beyond_xapic, 255);
	assert_int_equal(m.cpu_apic_id[254], 254);
	assert_int_equal(m.cpu_apic_id[255], 255);
}

/* QEMU's own MADT for q35 with -smp 1,sockets=2,cores=256,maxcpus=512
 * and one processor more on socket 1 (-device ...,socket-id=1): APIC
 * IDs 0-254 in type 0 entries, 255-511 in type 9 (with a type 10 NMI
 * entry), two of them enabled, 0 and 256. As irqlab saved it. */
static void qemu_lists_id_256_in_a_type_9_entry(void **state)
{
	static uint8_t t[8192];
	size_t n = load_fixture("qemu-q35-id256-APIC.bin", t, sizeof(t));
	struct madt_info m;
	char buf[RESULTS_REASON_LEN];

	(void)state;
	assert_int_equal(madt_parse(t, n, &m), ACPI_OK);
	assert_int_equal(m.cpu_count, 2);
	assert_int_equal(m.cpu_apic_id[0], 0);
	assert_int_equal(m.cpu_apic_id[1], 256);
	assert_int_equal(m.lapic_count, 2);
	assert_int_equal(m.x2apic_count, 1);
	assert_int_equal(m.absent_count, 510);
	assert_int_equal(m.absent_apic_id[0], 1);
	assert_int_equal(m.beyond_xapic_count, 1);
	assert_int_equal(m.first_beyond_xapic, 256);
	assert_int_equal(m.lapic_nmi_count, 1);	/* its type 10 entry */
	assert_non_null(apic_reach_keeps_x2apic(&m, 1, buf, sizeof(buf)));
	assert_non_null(apic_reach_ipi_why(m.cpu_apic_id[1], 0, buf,
					   sizeof(buf)));
	assert_null(apic_reach_ipi_why(m.cpu_apic_id[1], 1, buf, sizeof(buf)));
}

static void xapic_reaches_ids_to_254(void **state)
{
	char buf[RESULTS_REASON_LEN];
	const char *why;

	(void)state;
	assert_true(apic_id_fits_xapic(0));
	assert_true(apic_id_fits_xapic(254));
	assert_false(apic_id_fits_xapic(255));
	assert_false(apic_id_fits_xapic(256));
	/* In xAPIC mode the ID goes into ICR bits 63:56: 256 would send to
	 * APIC 0. Such a row is skipped, saying so. */
	assert_null(apic_reach_ipi_why(254, 0, buf, sizeof(buf)));
	why = apic_reach_ipi_why(256, 0, buf, sizeof(buf));
	assert_non_null(why);
	assert_non_null(strstr(why, "APIC id 256 "));
	assert_non_null(strstr(why, "x2APIC mode only"));
	/* 255 is xAPIC's physical broadcast: never one processor. */
	assert_non_null(apic_reach_ipi_why(255, 0, buf, sizeof(buf)));
	/* In x2APIC mode the destination is 32 bits: every ID runs. */
	assert_null(apic_reach_ipi_why(255, 1, buf, sizeof(buf)));
	assert_null(apic_reach_ipi_why(4096, 1, buf, sizeof(buf)));
	assert_null(apic_reach_ipi_why(0xfffffffeu, 1, buf, sizeof(buf)));
}

static void the_ioapic_reaches_ids_to_254_in_either_mode(void **state)
{
	char buf[RESULTS_REASON_LEN];
	const char *why;

	(void)state;
	assert_null(apic_reach_ioapic_why(0, buf, sizeof(buf)));
	assert_null(apic_reach_ioapic_why(254, buf, sizeof(buf)));
	assert_non_null(apic_reach_ioapic_why(255, buf, sizeof(buf)));
	why = apic_reach_ioapic_why(256, buf, sizeof(buf));
	assert_non_null(why);
	assert_non_null(strstr(why, "APIC id 256 "));
	assert_non_null(strstr(why, "interrupt remapping"));
}

/* The firmware left x2APIC on and enabled processors beyond 254: the
 * xAPIC pass is not run, and its rows carry this reason. Where it left
 * xAPIC on, or every ID fits, the xAPIC pass runs as ever. */
static void x2apic_is_kept_only_for_processors_beyond_254(void **state)
{
	struct table t;
	struct madt_info m;
	char buf[RESULTS_REASON_LEN];
	const char *why;

	(void)state;
	mixed_table(&t);
	assert_int_equal(madt_parse(t.b, t.n, &m), ACPI_OK);
	assert_null(apic_reach_keeps_x2apic(&m, 0, buf, sizeof(buf)));
	assert_null(apic_reach_keeps_x2apic(0, 1, buf, sizeof(buf)));
	why = apic_reach_keeps_x2apic(&m, 1, buf, sizeof(buf));
	assert_non_null(why);
	assert_string_equal(why, "the firmware left x2APIC on, and 3 "
			    "processors have APIC ids past xAPIC's 254 (the "
			    "first 255): x2APIC kept");

	/* One: 256 alone, as QEMU's -smp 1,sockets=2,cores=256 with a
	 * processor on socket 1 lists. */
	begin(&t);
	lapic(&t, 0, 0, ENABLED);
	x2apic(&t, 256, ENABLED, 1);
	end(&t);
	assert_int_equal(madt_parse(t.b, t.n, &m), ACPI_OK);
	assert_string_equal(apic_reach_keeps_x2apic(&m, 1, buf, sizeof(buf)),
			    "the firmware left x2APIC on, and 1 processor has "
			    "an APIC id past xAPIC's 254 (256): x2APIC kept");

	/* Every ID fits, some in type 9 entries: x2APIC is left. */
	begin(&t);
	lapic(&t, 0, 0, ENABLED);
	x2apic(&t, 254, ENABLED, 1);
	x2apic(&t, 900, 0, 2);
	end(&t);
	assert_int_equal(madt_parse(t.b, t.n, &m), ACPI_OK);
	assert_int_equal(m.beyond_xapic_count, 0);
	assert_null(apic_reach_keeps_x2apic(&m, 1, buf, sizeof(buf)));
}

/* The reasons travel in a row's reason field: each fits it whole. */
static void the_reasons_fit_a_row(void **state)
{
	struct madt_info m = { .beyond_xapic_count = 0xffffffffu,
			       .first_beyond_xapic = 0xffffffffu };
	char buf[RESULTS_REASON_LEN + 64];

	(void)state;
	assert_true(strlen(apic_reach_keeps_x2apic(&m, 1, buf, sizeof(buf))) <
		    RESULTS_REASON_LEN);
	m.beyond_xapic_count = 1;
	assert_true(strlen(apic_reach_keeps_x2apic(&m, 1, buf, sizeof(buf))) <
		    RESULTS_REASON_LEN);
	assert_true(strlen(apic_reach_ipi_why(0xffffffffu, 0, buf,
					      sizeof(buf))) <
		    RESULTS_REASON_LEN);
	assert_true(strlen(apic_reach_ioapic_why(0xffffffffu, buf,
						 sizeof(buf))) <
		    RESULTS_REASON_LEN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mixed_entries_are_parsed),
		cmocka_unit_test(a_long_table_counts_each_once),
		cmocka_unit_test(qemu_lists_id_256_in_a_type_9_entry),
		cmocka_unit_test(xapic_reaches_ids_to_254),
		cmocka_unit_test(the_ioapic_reaches_ids_to_254_in_either_mode),
		cmocka_unit_test(x2apic_is_kept_only_for_processors_beyond_254),
		cmocka_unit_test(the_reasons_fit_a_row),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
