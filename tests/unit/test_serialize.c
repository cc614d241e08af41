/* The compact results encoding carried by the handoff records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench/model/cross_cpu.h"
#include "bench/model/histogram.h"
#include "bench/model/records.h"
#include "tests/unit/sample_run.h"
#include "bench/model/serialize.h"

static uint8_t buf[HANDOFF_MAX_BLOB];

/* Encodes `in` stored as it is (BLOB_STORED), for the tests that read or
 * change the encoding's bytes; *at is where the encoding begins, past the
 * version, the method and the encoding's length. */
static size_t stored(const struct run_result *in, size_t *at)
{
	size_t n = results_encode_stored(in, buf, sizeof(buf));

	assert_true(n > 0);
	assert_int_equal(buf[2], BLOB_STORED);
	for (*at = 3; buf[*at] & 0x80; (*at)++)
		;
	(*at)++;
	return n;
}

static void round_trip_is_exact(void **state)
{
	static struct run_result in, out;
	size_t n;

	(void)state;
	sample_run(&in, 8);
	n = results_encode(&in, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
	assert_memory_equal(&in, &out, sizeof(in));
}

/* The section of 64 processors, its 4,032 cells' ipi-ack medians spread
 * as TCG's noise spreads them (xorshift32 from *seed), its one-way
 * figures skipped for TCG's TSC. */
static void noisy_full_matrix(struct run_result *r, uint32_t cpus,
			      uint32_t *seed)
{
	uint32_t i;

	sample_cross(r, cpus);
	for (i = 0; i < r->n_cells; i++) {
		*seed ^= *seed << 13;
		*seed ^= *seed >> 17;
		*seed ^= *seed << 5;
		r->cell[i].ack = 20000 + *seed % 180000;
		r->cell[i].one_way_status = EXP_SKIPPED;
		r->cell[i].one_way_why = CELL_WHY_NOT_INVARIANT;
		r->cell[i].one_way = 0;
		r->cell[i].offset_plus_minus = 0;
	}
}

/* The cross-CPU section travels exactly, negative TSC offsets and the
 * broadcasts' "all" included, with a distribution of the largest size
 * for each relation, and in no more than the room phase B sets aside
 * for it (cross_handoff_reserve): at 8 processors, and at the matrix's
 * 64, whose 4,032 cells carry plain TCG's spread of medians. */
static void cross_rows_round_trip_within_their_reserve(void **state)
{
	static struct run_result in, out;
	static const uint32_t sizes[] = { 8, RESULTS_FULL_MATRIX_CPUS };
	uint32_t seed = 88172645u;
	size_t without, with;
	unsigned i, z;

	(void)state;
	for (z = 0; z < 2; z++) {
		uint32_t cpus = sizes[z];

		sample_run(&in, 8);
		without = results_encode(&in, buf, sizeof(buf));
		sample_cross(&in, cpus);
		assert_int_equal(in.n_cells, cpus * (cpus - 1));
		/* the broadcasts, and both relations' first pairs */
		assert_int_equal(in.n_cross, 2 + 2 * 2);
		for (i = 0; i < in.n_cells; i++) {
			/* TCG's medians: tens of thousands of ticks,
			 * spread over a factor of ten, and some late
			 * samples */
			seed ^= seed << 13;
			seed ^= seed >> 17;
			seed ^= seed << 5;
			in.cell[i].ack = 20000 + seed % 180000;
			in.cell[i].late = (uint16_t)(seed >> 28);
			in.cell[i].one_way = 0;
			in.cell[i].one_way_status = EXP_SKIPPED;
			in.cell[i].one_way_why = CELL_WHY_NOT_INVARIANT;
			/* no bound where no one-way figure was made */
			in.cell[i].offset_plus_minus = 0;
		}
		in.n_cross_hists = 0;
		for (i = 0; i < RESULTS_MAX_CROSS_HISTS; i++) {
			struct row_histogram *h =
				&in.cross_hist[in.n_cross_hists++];

			h->row = (uint8_t)(2 + 2 * (i % 2));
			h->len = ROW_HIST_BYTES;
			memset(h->bytes, 0xa5 + (int)i, sizeof(h->bytes));
		}
		with = results_encode(&in, buf, sizeof(buf));
		assert_true(without > 0 && with > without);
		assert_int_equal(results_decode(buf, with, &out), DECODE_OK);
		assert_memory_equal(&in, &out, sizeof(in));
		assert_true(with - without <=
			    cross_handoff_reserve(cpus,
						  RESULTS_FULL_MATRIX_CPUS));
	}
	/* past the full matrix's 64, two cells a partner for each
	 * processor more, up to the matrix's 512; cpus = all's full
	 * matrix of 128 is the most cells there can be */
	assert_int_equal(cross_handoff_reserve(65, RESULTS_FULL_MATRIX_CPUS) -
				 cross_handoff_reserve(RESULTS_FULL_MATRIX_CPUS,
						       RESULTS_FULL_MATRIX_CPUS),
			 2 * CPU_RELATION_COUNT * CROSS_CELL_BYTES);
	assert_int_equal(cross_handoff_reserve(600, RESULTS_FULL_MATRIX_CPUS),
			 cross_handoff_reserve(RESULTS_MAX_MATRIX_CPUS,
					       RESULTS_FULL_MATRIX_CPUS));
	assert_int_equal(cross_cell_bound(RESULTS_MAX_MATRIX_CPUS,
					  RESULTS_ALL_MATRIX_CPUS),
			 RESULTS_MAX_CELLS);
	assert_int_equal(cross_cell_bound(RESULTS_ALL_MATRIX_CPUS,
					  RESULTS_ALL_MATRIX_CPUS),
			 128 * 127);
	assert_int_equal(cross_handoff_reserve(1, RESULTS_FULL_MATRIX_CPUS),
			 64);
}

/* The matrix at its largest: 512 processors under cpus = all, 128 of
 * them in the full matrix and each of the 384 others with its most
 * partners, both ways, every cell with TCG's spread. It travels
 * exactly, as a joined run's file does, within its reserve, which is
 * more than half a handoff: a matrix this large goes in parts. */
static void the_largest_matrix_travels_within_its_reserve(void **state)
{
	static struct run_result in, out;
	static uint8_t file[HANDOFF_MAX_BLOB * RESULTS_MAX_PARTS];
	uint32_t seed = 362436069u, p, k;
	size_t without, with;

	(void)state;
	sample_run(&in, 8);
	without = results_encode(&in, buf, sizeof(buf));
	noisy_full_matrix(&in, RESULTS_ALL_MATRIX_CPUS, &seed);
	in.n_matrix_cpus = RESULTS_MAX_MATRIX_CPUS;
	for (p = RESULTS_ALL_MATRIX_CPUS; p < RESULTS_MAX_MATRIX_CPUS; p++) {
		in.matrix_cpu[p] = (struct matrix_cpu){ 2 * p, 0, 0 };
		for (k = 0; k < 2 * CPU_RELATION_COUNT; k++) {
			uint32_t q = k / 2 == 0 ? 0 : (p + k / 2) %
							   RESULTS_MAX_MATRIX_CPUS;
			struct matrix_cell *c = &in.cell[in.n_cells++];

			seed ^= seed << 13;
			seed ^= seed >> 17;
			seed ^= seed << 5;
			*c = (struct matrix_cell){
				.sender = (uint16_t)(k % 2 ? q : p),
				.target = (uint16_t)(k % 2 ? p : q),
				.relation = (uint8_t)(k / 2 % CPU_RELATION_COUNT),
				.ack_status = EXP_OK,
				.one_way_status = EXP_SKIPPED,
				.one_way_why = CELL_WHY_NOT_INVARIANT,
				.ack = 20000 + seed % 180000,
			};
		}
	}
	assert_int_equal(in.n_cells, RESULTS_MAX_CELLS);
	with = results_encode(&in, file, sizeof(file));
	assert_true(with > without);
	assert_int_equal(results_decode(file, with, &out), DECODE_OK);
	assert_memory_equal(&in, &out, sizeof(in));
	assert_true(with - without <=
		    cross_handoff_reserve(RESULTS_MAX_MATRIX_CPUS,
					  RESULTS_ALL_MATRIX_CPUS));
	assert_true(cross_handoff_reserve(RESULTS_MAX_MATRIX_CPUS,
					  RESULTS_FULL_MATRIX_CPUS) >
		    HANDOFF_MAX_BLOB / 2);
}

/* How many parts the full matrix of `cpus` processors (cpus = all)
 * takes at `budget` bytes a handoff, sent as phase B sends it: part 1
 * gives the section half its handoff after the rows (here 100 rows),
 * each part after it the whole, a sender's cells at a time, a part
 * keeping at least its first sender (bench/run/cross_cpu.c
 * measure_turn). The parts join into the whole matrix, each ordered
 * pair once. */
static unsigned full_matrix_parts_at(uint32_t cpus, size_t budget)
{
	static struct run_result whole, part, joined;
	uint32_t seed = 521288629u, sender = 0, per = cpus - 1;
	unsigned parts = 0;

	sample_run(&whole, 100);
	noisy_full_matrix(&whole, cpus, &seed);
	while (sender < cpus && parts < 2 * RESULTS_MAX_PARTS) {
		uint32_t first = sender;

		part = whole;
		part.part = (uint8_t)(parts + 1);
		part.matrix_resume = (uint16_t)(parts ? first + 1 : 0);
		if (parts) {
			part.n_experiments = 0;
			part.n_cross = 0;
		}
		part.n_cells = 0;
		do {
			memcpy(&part.cell[part.n_cells],
			       &whole.cell[sender * per],
			       per * sizeof(whole.cell[0]));
			part.n_cells += per;
			sender++;
		} while (sender < cpus &&
			 results_fit(&part, parts ? budget : budget / 2));
		if (!results_fit(&part, parts ? budget : budget / 2) &&
		    sender - first > 1) {
			part.n_cells -= per;
			sender--;
		}
		part.matrix_next_sender = (uint16_t)(sender < cpus ? sender + 1
								   : 0);
		if (parts++)
			assert_int_equal(results_join_part(&joined, &part), 0);
		else
			joined = part;
	}
	assert_int_equal(joined.n_cells, cpus * (cpus - 1));
	assert_int_equal(joined.cells_dropped, 0);
	assert_memory_equal(joined.cell, whole.cell,
			    cpus * (cpus - 1) * sizeof(whole.cell[0]));
	return parts;
}

/* cpus = all on a machine of 128 processors: the full matrix's 16,256
 * pairs go in 3 parts on OVMF's 4 MB store (64 records a handoff), in
 * 7 on its 2 MB store (22), within RESULTS_MAX_PARTS; at 64 (cpus =
 * auto's most) in 2 and 3. */
static void the_full_matrix_of_128_goes_in_parts(void **state)
{
	(void)state;
	assert_int_equal(full_matrix_parts_at(RESULTS_ALL_MATRIX_CPUS,
					      HANDOFF_MAX_BLOB), 3);
	assert_int_equal(full_matrix_parts_at(RESULTS_ALL_MATRIX_CPUS,
					      22 * RECORD_MAX_PAYLOAD), 7);
	assert_int_equal(full_matrix_parts_at(RESULTS_FULL_MATRIX_CPUS,
					      HANDOFF_MAX_BLOB), 2);
	assert_int_equal(full_matrix_parts_at(RESULTS_FULL_MATRIX_CPUS,
					      22 * RECORD_MAX_PAYLOAD), 3);
}

/* A cell that names a processor the matrix does not have, or one
 * processor twice, is refused: the encoder does not write it, and the
 * decoder refuses a blob that says it. */
static void a_cell_outside_its_matrix_is_refused(void **state)
{
	static struct run_result in, out;
	/* cell 1, 0 -> 2: sender, target, relation, both statuses and
	 * reasons, then its late count and ack median, made unique */
	const uint8_t cell[] = { 0, 2, CPU_RELATION_SAME_PACKAGE, EXP_OK,
				 EXP_OK, 0, 0, 77, 99 };
	size_t n, at;

	(void)state;
	sample_run(&in, 4);
	sample_cross(&in, 3);
	in.cell[1].late = 77;
	in.cell[1].ack = 99;
	n = results_encode_stored(&in, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
	for (at = 0; at + sizeof(cell) <= n &&
		     memcmp(buf + at, cell, sizeof(cell)); at++)
		;
	assert_true(at + sizeof(cell) <= n);
	buf[at + 1] = 0;	/* 0 -> 0 */
	assert_int_equal(results_decode(buf, n, &out), DECODE_BAD_VALUE);
	buf[at + 1] = 3;	/* the matrix has 0..2 */
	assert_int_equal(results_decode(buf, n, &out), DECODE_BAD_VALUE);
	buf[at + 1] = 2;
	assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
	in.cell[1].target = in.cell[1].sender;
	assert_int_equal(results_encode(&in, buf, sizeof(buf)), 0);
	in.cell[1].target = 3;
	assert_int_equal(results_encode(&in, buf, sizeof(buf)), 0);
}

/* Past the histograms, a handoff too small for the whole matrix leaves
 * out its last senders' cells, a whole sender at a time, and counts
 * them. */
static void the_matrix_gives_way_by_whole_senders(void **state)
{
	static struct run_result in, out;
	static uint8_t scratch[HANDOFF_MAX_BLOB];
	size_t len, plain, full;
	uint32_t seed = 1234567u, i;

	(void)state;
	sample_run(&in, 20);
	plain = results_encode(&in, buf, sizeof(buf));
	sample_cross(&in, 32);
	for (i = 0; i < in.n_cells; i++) {
		seed = seed * 1103515245u + 12345u;
		in.cell[i].ack = 1000 + (seed >> 8) % 100000;
	}
	full = results_encode(&in, buf, sizeof(buf));
	assert_true(full > plain + 1000);
	(void)results_fit_histograms(&in, scratch, (plain + full) / 2, &len);
	assert_true(len > 0 && len <= (plain + full) / 2);
	assert_true(in.cells_dropped > 0);
	assert_int_equal(in.n_cells + in.cells_dropped, 32 * 31);
	assert_int_equal(in.cells_dropped % 31, 0);
	assert_int_equal(results_decode(scratch, len, &out), DECODE_OK);
	assert_int_equal(out.cells_dropped, in.cells_dropped);
	assert_int_equal(out.n_cells, in.n_cells);
}

/* A run whose rows outgrow one handoff goes in parts, a reset apart
 * (docs/uefi-variables.md "Parts"): the worst case without histograms,
 * every table full, fits in two of the blind path's largest handoff,
 * each part's rows exactly what it carries. */
static void a_full_matrix_fits_the_handoff_in_two_parts(void **state)
{
	static struct run_result in, part, out;
	size_t n;
	unsigned i, half = (RESULTS_MAX_EXPERIMENTS + 1) / 2, first, rows;

	(void)state;
	sample_run(&in, RESULTS_MAX_EXPERIMENTS);
	/* Every table full, every string at its longest, every fourth row
	 * skipped with a reason at its longest, figures up to 2^32. */
	memset(in.machine.brand, 'b', sizeof(in.machine.brand) - 1);
	memset(in.machine.fw_vendor, 'f', sizeof(in.machine.fw_vendor) - 1);
	for (i = 0; i < RESULTS_MAX_EXPERIMENTS; i++) {
		struct experiment_result *e = &in.exp[i];
		unsigned k;

		if (e->status != EXP_OK)
			memset(e->reason, 'r', sizeof(e->reason) - 1);
		for (k = 0; k < METRIC_COUNT; k++)
			e->metric[k].max = UINT32_MAX;
	}
	in.n_primitives = RESULTS_MAX_PRIMITIVES;
	for (i = 0; i < RESULTS_MAX_PRIMITIVES; i++) {
		memset(in.prim[i].name, 'p', sizeof(in.prim[i].name) - 1);
		in.prim[i].status = i % 4 == 3 ? EXP_SKIPPED : EXP_OK;
		if (in.prim[i].status != EXP_OK)
			memset(in.prim[i].reason, 'r', sizeof(in.prim[i].reason) - 1);
		in.prim[i].block = sample_stats(8192);
	}
	for (first = 0; first < RESULTS_MAX_EXPERIMENTS; first += half) {
		part = in;
		memset(part.exp, 0, sizeof(part.exp));
		rows = first + half <= RESULTS_MAX_EXPERIMENTS
			       ? half : RESULTS_MAX_EXPERIMENTS - first;
		memcpy(part.exp, &in.exp[first], rows * sizeof(in.exp[0]));
		part.n_experiments = rows;
		part.part = (uint8_t)(first / half + 1);
		part.first_row = (uint16_t)first;
		n = results_encode(&part, buf,
				   HANDOFF_BLIND_RECORDS * RECORD_MAX_PAYLOAD);
		assert_true(n > 0);
		assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
		assert_memory_equal(&part, &out, sizeof(part));
	}
}

/* Row `row`'s histogram of `metric`: `buckets` one-tick buckets from
 * `base`, each with a count of 100 + row. */
static void add_row_histogram(struct run_result *r, unsigned row,
			      unsigned metric, uint64_t base, unsigned buckets)
{
	static struct histogram h;
	struct row_histogram *rh = &r->hist[r->n_hists++];
	unsigned i;

	hist_clear(&h);
	for (i = 0; i < buckets * (100 + row); i++)
		hist_add(&h, base + i % buckets);
	rh->row = (uint8_t)row;
	rh->metric = (uint8_t)metric;
	rh->len = (uint16_t)hist_encode(&h, rh->bytes, ROW_HIST_BYTES);
	assert_true(rh->len > 0);
}

/* Row histograms travel exactly, and each is found by row and metric. */
static void row_histograms_round_trip(void **state)
{
	static struct run_result in, out;
	static struct histogram h;
	const struct row_histogram *rh;
	size_t n;

	(void)state;
	sample_run(&in, 4);
	add_row_histogram(&in, 0, METRIC_ENTRY, 30, 5);
	add_row_histogram(&in, 2, METRIC_ROUND_TRIP, 200, 40);
	n = results_encode(&in, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
	assert_memory_equal(&in, &out, sizeof(in));
	rh = results_row_histogram(&out, 2, METRIC_ROUND_TRIP);
	assert_non_null(rh);
	assert_int_equal(hist_decode(rh->bytes, rh->len, &h), 0);
	assert_int_equal(h.total, 40 * 102);
	assert_null(results_row_histogram(&out, 2, METRIC_ENTRY));
	assert_null(results_row_histogram(&out, 1, METRIC_ROUND_TRIP));
}

/* A histogram as plain TCG's noise spreads one, as a real PC's figures
 * spread: `buckets` non-empty buckets scattered over two powers of two
 * from `base`, small counts. */
static void add_spread_histogram(struct run_result *r, unsigned row,
				 unsigned kind, uint32_t *seed)
{
	static struct histogram h;
	struct row_histogram *rh = &r->hist[r->n_hists++];
	unsigned i;

	hist_clear(&h);
	for (i = 0; i < 1000; i++) {
		*seed ^= *seed << 13;
		*seed ^= *seed >> 17;
		*seed ^= *seed << 5;
		hist_add(&h, 800 + (*seed % 64) * (*seed % 61) + (*seed >> 28));
	}
	rh->row = (uint8_t)row;
	rh->metric = (uint8_t)kind;
	rh->len = (uint16_t)hist_encode(&h, rh->bytes, ROW_HIST_BYTES);
	assert_true(rh->len > 0);
}

/* Phase B's parts of `in`, at `budget` bytes a handoff: rows added one
 * at a time, with their histograms, while the part fits (results_fit),
 * as bench_run_all asks after each row; each part must decode exactly.
 * Returns how many parts. */
static unsigned parts_at(const struct run_result *in, size_t budget)
{
	static struct run_result part, out;
	static uint8_t again[HANDOFF_MAX_BLOB];
	unsigned first = 0, parts = 0, i, k;

	while (first < in->n_experiments) {
		unsigned rows = 0;
		size_t n;

		for (;;) {
			part = *in;
			part.part = (uint8_t)(parts + 1);
			if (parts) {	/* the section is part 1's */
				part.n_cross = part.n_cross_hists = 0;
				part.n_cells = part.n_matrix_cpus = 0;
			}
			part.first_row = (uint16_t)first;
			part.n_experiments = 0;
			part.n_hists = 0;
			for (i = first; i < first + rows + 1 &&
					i < in->n_experiments; i++) {
				part.exp[part.n_experiments++] = in->exp[i];
				for (k = 0; k < in->n_hists; k++)
					if (in->hist[k].row == i) {
						part.hist[part.n_hists] = in->hist[k];
						part.hist[part.n_hists++].row =
							(uint8_t)(i - first);
					}
			}
			if (first + rows == in->n_experiments ||
			    !results_fit(&part, budget))
				break;
			rows++;
		}
		assert_true(rows > 0);	/* one row always fits */
		/* the part as it went: its first `rows` rows */
		part.n_experiments = rows;
		while (part.n_hists && part.hist[part.n_hists - 1].row >= rows)
			part.n_hists--;
		n = results_encode(&part, buf, budget);
		assert_true(n > 0 && n <= budget);
		assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
		/* exactly: what came back encodes to the same bytes */
		memcpy(again, buf, n);
		assert_int_equal(results_encode(&out, buf, budget), n);
		assert_memory_equal(buf, again, n);
		first += rows;
		parts++;
	}
	return parts;
}


/* The handoff's worst case at the sizes phase A now gives it
 * (docs/uefi-variables.md "The handoff's size"): every row of the plan's
 * largest, each with its histograms in TSC ticks and in core cycles, all
 * spread as plain TCG's noise spreads them, every string at its longest.
 * On OVMF's 4 MB store (64 records) it takes 3 parts; on its 2 MB store
 * (22 records) 6, within RESULTS_MAX_PARTS (past it, the last part
 * allowed would keep every row, the last rows' histograms giving way).
 * The shipped matrix's size, 140 rows with three histograms each, is one
 * part. */
/* Every row of the plan's largest, each with its histograms in TSC
 * ticks and in core cycles spread as plain TCG's noise spreads them,
 * every string at its longest. */
static void every_row_with_its_histograms(struct run_result *in,
					  uint32_t *seed)
{
	unsigned i, k;

	sample_run(in, RESULTS_MAX_EXPERIMENTS);
	memset(in->machine.brand, 'b', sizeof(in->machine.brand) - 1);
	memset(in->machine.fw_vendor, 'f', sizeof(in->machine.fw_vendor) - 1);
	for (i = 0; i < RESULTS_MAX_EXPERIMENTS; i++) {
		in->exp[i].status = EXP_OK;
		for (k = 0; k < ROW_HIST_KINDS; k++)
			add_spread_histogram(in, i, k, seed);
	}
	assert_int_equal(in->n_hists, RESULTS_MAX_ROW_HISTS);
}

/* A joined run at its largest encodes within RESULTS_RAW_MAX: every row
 * with its histograms, and every cell the matrix can have, each figure
 * at its widest, as phase C and irqlab-rescue encode the whole run. */
static void the_largest_joined_run_encodes(void **state)
{
	static struct run_result in, out;
	static uint8_t file[HANDOFF_MAX_BLOB * RESULTS_MAX_PARTS];
	uint32_t seed = 88675123u, i;
	size_t n;

	(void)state;
	every_row_with_its_histograms(&in, &seed);
	sample_cross(&in, 2);
	in.n_matrix_cpus = RESULTS_MAX_MATRIX_CPUS;
	for (i = 0; i < RESULTS_MAX_MATRIX_CPUS; i++)
		in.matrix_cpu[i] = (struct matrix_cpu){ UINT32_MAX - i, 0xff,
							1 };
	for (i = 0; i < RESULTS_MAX_CELLS; i++)
		in.cell[i] = (struct matrix_cell){
			.sender = (uint16_t)(RESULTS_MAX_MATRIX_CPUS - 1 -
					     i % 2),
			.target = (uint16_t)(RESULTS_MAX_MATRIX_CPUS - 2 +
					     i % 2),
			.relation = CPU_RELATION_OTHER_PACKAGE,
			.ack_status = EXP_OK, .one_way_status = EXP_OK,
			.late = UINT16_MAX, .ack = UINT32_MAX,
			.one_way = UINT32_MAX,
			.offset_plus_minus = UINT32_MAX,
		};
	in.n_cells = RESULTS_MAX_CELLS;
	n = results_encode(&in, file, sizeof(file));
	assert_true(n > 0);
	assert_int_equal(results_decode(file, n, &out), DECODE_OK);
	assert_memory_equal(&in, &out, sizeof(in));
}

static void the_worst_case_at_the_store_sized_handoff(void **state)
{
	static struct run_result in;
	uint32_t seed = 2463534242u;
	unsigned i, k;

	(void)state;
	every_row_with_its_histograms(&in, &seed);
	assert_int_equal(parts_at(&in, HANDOFF_MAX_RECORDS * RECORD_MAX_PAYLOAD),
			 3);
	assert_int_equal(parts_at(&in, 22 * RECORD_MAX_PAYLOAD), 6);
	/* and with the section of 64 processors in part 1, its 4,032
	 * cells spread as TCG's noise spreads them */
	noisy_full_matrix(&in, RESULTS_FULL_MATRIX_CPUS, &seed);
	assert_int_equal(parts_at(&in, HANDOFF_MAX_RECORDS * RECORD_MAX_PAYLOAD),
			 3);
	in.n_cells = in.n_cross = in.n_matrix_cpus = in.n_cross_hists = 0;
	/* the shipped matrix's size: 140 rows, three histograms each */
	sample_run(&in, 140);
	for (i = 0; i < 140; i++)
		for (k = 0; k < ROW_HIST_METRICS; k++)
			add_spread_histogram(&in, i, k, &seed);
	assert_int_equal(parts_at(&in, HANDOFF_MAX_RECORDS * RECORD_MAX_PAYLOAD),
			 1);
}

/* A 64-processor section on OVMF's 2 MB store (22 records): part 1
 * gives it half the handoff (efi/phase_b.c fits_one_handoff), where its
 * last senders' cells give way whole, counted; the first senders' rows
 * of the matrix stay, with TCG's noise 22 of 64. */
static void half_a_small_handoff_holds_the_first_senders(void **state)
{
	static struct run_result in, out;
	static uint8_t scratch[HANDOFF_MAX_BLOB];
	uint32_t seed = 2463534242u, senders;
	size_t len;

	(void)state;
	sample_run(&in, 0);
	noisy_full_matrix(&in, RESULTS_FULL_MATRIX_CPUS, &seed);
	(void)results_fit_histograms(&in, scratch, 22 * RECORD_MAX_PAYLOAD / 2,
				     &len);
	assert_true(len > 0);
	assert_int_equal(in.n_cells % 63, 0);
	senders = in.n_cells / 63;
	assert_int_equal(senders, 22);
	assert_int_equal(in.cells_dropped, (64 - senders) * 63);
	assert_int_equal(results_decode(scratch, len, &out), DECODE_OK);
	assert_int_equal(out.cell[out.n_cells - 1].sender, senders - 1);
}

/* Under a budget the last rows' histograms give way first, the rest of
 * the run travels whole, and the count of those left out is exact. */
static void histograms_give_way_to_the_budget(void **state)
{
	static struct run_result in, out;
	static uint8_t scratch[HANDOFF_MAX_BLOB];
	size_t len, plain, full, budget;
	uint32_t dropped, before;
	unsigned i, m;

	(void)state;
	sample_run(&in, 100);
	plain = results_encode(&in, buf, sizeof(buf));
	for (i = 0; i < 100; i++)
		for (m = 0; m < ROW_HIST_METRICS; m++)
			add_row_histogram(&in, i, m, 300 + i, 48);
	before = in.n_hists;
	full = results_encode(&in, buf, sizeof(buf));
	assert_true(full > plain);
	budget = (plain + full) / 2;
	assert_int_equal(results_encode(&in, buf, budget), 0);
	assert_false(results_fit(&in, budget));
	dropped = results_fit_histograms(&in, scratch, budget, &len);
	assert_true(dropped > 0 && dropped < before);
	assert_int_equal(in.n_hists, before - dropped);
	assert_true(len > plain && len <= budget);
	assert_true(results_fit(&in, budget));
	/* one histogram more would not have fitted */
	in.n_hists++;
	assert_false(results_fit(&in, budget));
	in.n_hists--;
	assert_int_equal(results_decode(scratch, len, &out), DECODE_OK);
	assert_non_null(results_row_histogram(&out, 0, METRIC_ENTRY));
	assert_null(results_row_histogram(&out, 99, METRIC_ROUND_TRIP));
	/* Nothing to leave out: the blob as it was. */
	sample_run(&in, 4);
	assert_int_equal(results_fit_histograms(&in, scratch, sizeof(scratch),
						&len), 0);
	assert_true(len > 0);
}

/* A run in parts: phase C appends each later part's rows, gaps and
 * histograms to part 1, whose machine, config and primitives stand. */
static void parts_join_into_one_run(void **state)
{
	static struct run_result first, second, joined, out;
	size_t n;

	(void)state;
	sample_run(&first, 3);
	first.part = 1;
	first.next_row = 3;
	add_row_histogram(&first, 2, METRIC_EXIT, 40, 3);
	sample_run(&second, 2);
	second.part = 2;
	second.first_row = 3;
	second.n_primitives = 0;
	second.exp[0].id.cache = VARIANT_THRASH;
	row_name(&second.exp[0].id, second.exp[0].name,
		 sizeof(second.exp[0].name));
	add_row_histogram(&second, 1, METRIC_ROUND_TRIP, 90, 4);
	/* Each part measured CPU 2's floor; part 2 CPU 3's too: the join
	 * keeps the first part's for CPU 2, and adds CPU 3's. */
	first.n_other_cpus = 1;
	first.other_cpu[0] = (struct other_cpu){ .cpu = 3,
						     .floor = first.floor };
	second.n_other_cpus = 2;
	second.other_cpu[0] = (struct other_cpu){ .cpu = 3,
						      .floor = second.floor };
	second.other_cpu[0].floor.min += 50;
	second.other_cpu[1] = (struct other_cpu){ .cpu = 4,
						      .floor = second.floor };
	/* CPU 2 was pinned in both parts, put back in the first only; CPU
	 * 3 was started in part 2 alone: the join keeps the last part's
	 * pin and ratio, sums the starts, and is put back only where
	 * every part was. */
	first.n_cpu_clocks = 1;
	first.cpu_clock[0] = (struct cpu_clock){
		.cpu = 3, .pin = CPU_PIN_PINNED, .fence = CPU_FENCE_DE_CFG,
		.restored = 1, .ratio_milli = 1000, .starts = 2 };
	second.n_cpu_clocks = 2;
	second.cpu_clock[0] = (struct cpu_clock){
		.cpu = 3, .pin = CPU_PIN_FAULTED, .fence = CPU_FENCE_NOT_RUN,
		.restored = 0, .ratio_milli = 0, .starts = 1 };
	second.cpu_clock[1] = (struct cpu_clock){
		.cpu = 4, .pin = CPU_PIN_EIST_DISABLED,
		.fence = CPU_FENCE_ARCHITECTURAL, .restored = 1,
		.ratio_milli = 2345, .starts = 1 };
	joined = first;
	assert_int_equal(results_join_part(&joined, &second), 0);
	assert_int_equal(joined.n_cpu_clocks, 2);
	assert_int_equal(joined.cpu_clock[0].pin, CPU_PIN_FAULTED);
	assert_int_equal(joined.cpu_clock[0].starts, 3);
	assert_int_equal(joined.cpu_clock[0].restored, 0);
	assert_int_equal(joined.cpu_clock[1].ratio_milli, 2345);
	assert_int_equal(joined.n_experiments, 5);
	assert_string_equal(joined.exp[3].name, "int-direct+thrash");
	assert_int_equal(joined.n_primitives, first.n_primitives);
	assert_int_equal(joined.part, 2);
	assert_int_equal(joined.next_row, 0);
	assert_non_null(results_row_histogram(&joined, 2, METRIC_EXIT));
	assert_non_null(results_row_histogram(&joined, 4, METRIC_ROUND_TRIP));
	assert_null(results_row_histogram(&joined, 1, METRIC_ROUND_TRIP));
	assert_int_equal(joined.n_other_cpus, 2);
	assert_int_equal(joined.other_cpu[0].floor.min, first.floor.min);
	assert_int_equal(joined.other_cpu[1].cpu, 4);
	/* The joined run travels (a file can hold what one handoff cannot). */
	n = results_encode(&joined, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
	assert_memory_equal(&joined, &out, sizeof(out));
	/* Tables that would overflow are refused, and nothing changes. */
	joined.n_experiments = RESULTS_MAX_EXPERIMENTS - 1;
	assert_int_equal(results_join_part(&joined, &second), -1);
	assert_int_equal(joined.n_experiments, RESULTS_MAX_EXPERIMENTS - 1);
}

/* The matrix in parts: part 1 kept its first 5 senders' cells and names
 * sender 5 for part 2, which resumes there with the same processors;
 * the join appends part 2's cells, adds its time and ends the matrix. A
 * part that took other processors (one did not start in its boot),
 * another full matrix of them, or that resumed elsewhere gives its
 * cells up, counted. A part that did not resume the matrix leaves its
 * cells alone. */
static void the_matrix_joins_across_parts(void **state)
{
	static struct run_result first, second, joined, out;
	uint32_t cpus = 8, per_sender = 7;
	size_t n;

	(void)state;
	sample_run(&first, 2);
	sample_cross(&first, cpus);
	first.part = 1;
	first.n_cells = 5 * per_sender;
	memset(first.cell + first.n_cells, 0,
	       3 * per_sender * sizeof(first.cell[0]));
	first.matrix_next_sender = 5 + 1;
	n = results_encode(&first, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
	assert_memory_equal(&first, &out, sizeof(out));
	sample_run(&second, 0);
	sample_cross(&second, cpus);
	memmove(second.cell, second.cell + 5 * per_sender,
		3 * per_sender * sizeof(second.cell[0]));
	second.n_cells = 3 * per_sender;
	second.n_cross = 0;
	second.part = 2;
	second.matrix_resume = 5 + 1;
	second.matrix_next_sender = 0;
	joined = first;
	assert_int_equal(results_join_part(&joined, &second), 0);
	assert_int_equal(joined.n_cells, cpus * (cpus - 1));
	assert_int_equal(joined.cells_dropped, 0);
	assert_int_equal(joined.matrix_next_sender, 0);
	assert_int_equal(joined.cell[5 * per_sender].sender, 5);
	assert_int_equal(joined.cell[cpus * (cpus - 1) - 1].sender, 7);
	assert_int_equal(joined.n_cross, first.n_cross);
	/* the section's time is both parts' */
	first.cross_ticks = 1000;
	second.cross_ticks = 234;
	joined = first;
	assert_int_equal(results_join_part(&joined, &second), 0);
	assert_int_equal(joined.cross_ticks, 1234);
	/* a part that resumed elsewhere than the run stopped */
	second.matrix_resume = 5;
	joined = first;
	assert_int_equal(results_join_part(&joined, &second), 0);
	assert_int_equal(joined.n_cells, 5 * per_sender);
	assert_int_equal(joined.cells_dropped, 3 * per_sender);
	second.matrix_resume = 5 + 1;
	/* the same processors, but another of them in the full matrix */
	second.matrix_cpu[4].full = 0;
	joined = first;
	assert_int_equal(results_join_part(&joined, &second), 0);
	assert_int_equal(joined.n_cells, 5 * per_sender);
	assert_int_equal(joined.cells_dropped, 3 * per_sender);
	second.matrix_cpu[4].full = 1;
	/* other processors in part 2 */
	second.matrix_cpu[3].apic_id = 99;
	joined = first;
	assert_int_equal(results_join_part(&joined, &second), 0);
	assert_int_equal(joined.n_cells, 5 * per_sender);
	assert_int_equal(joined.cells_dropped, 3 * per_sender);
	/* a part that measured rows only */
	second.matrix_resume = 0;
	joined = first;
	assert_int_equal(results_join_part(&joined, &second), 0);
	assert_int_equal(joined.n_cells, 5 * per_sender);
	assert_int_equal(joined.matrix_next_sender, 5 + 1);
}

/* The counted pass's rows travel as a list of their own, and a later
 * part's rows are renumbered into the joined run. */
static void counted_rows_round_trip_and_join(void **state)
{
	static struct run_result first, second, out;
	size_t n;

	(void)state;
	sample_run(&first, 4);
	sample_counted(&first, PROBE_OK);
	assert_int_equal(first.n_counted, 3);	/* row 3 was skipped */
	n = results_encode(&first, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
	assert_memory_equal(&first, &out, sizeof(out));
	assert_int_equal(results_counted_state(&out), COUNTED_MEASURED);
	assert_null(results_counted(&out, 3));
	assert_int_equal(results_counted(&out, 2)->instructions.min, 6 + 50 + 2);

	sample_run(&second, 2);
	sample_counted(&second, PROBE_OK);
	first.part = 1;
	second.part = 2;
	assert_int_equal(results_join_part(&first, &second), 0);
	assert_int_equal(first.n_counted, 5);
	assert_int_equal(results_counted(&first, 5)->instructions.min,
			 6 + 50 + 1);
	/* A run without the counted pass carries no counted rows. */
	sample_run(&second, 2);
	assert_int_equal(results_counted_state(&second), COUNTED_NOT_RUN);
	assert_null(results_counted(&second, 0));
}

/* A MADT may list more than 255 processors, and any that started may
 * have its clock recorded: the one at MADT index 299 travels as itself,
 * not as index 43 (300 in one byte). */
static void a_clock_past_index_254_round_trips(void **state)
{
	static struct run_result in, out;
	size_t n;

	(void)state;
	sample_run(&in, 2);
	in.n_cpu_clocks = 2;
	in.cpu_clock[0] = (struct cpu_clock){
		.cpu = 44, .pin = CPU_PIN_PINNED, .restored = 1, .starts = 1 };
	in.cpu_clock[1] = (struct cpu_clock){
		.cpu = 300, .pin = CPU_PIN_AS_BOOT, .restored = 1,
		.starts = 2 };
	n = results_encode(&in, buf, sizeof(buf));
	assert_true(n > 0);
	assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
	assert_int_equal(out.n_cpu_clocks, 2);
	assert_int_equal(out.cpu_clock[0].cpu, 44);
	assert_int_equal(out.cpu_clock[1].cpu, 300);
	assert_memory_equal(&in, &out, sizeof(in));
}

static void too_small_a_buffer_encodes_nothing(void **state)
{
	static struct run_result in;
	size_t n, cap;

	(void)state;
	sample_run(&in, 3);
	n = results_encode(&in, buf, sizeof(buf));
	for (cap = 0; cap < n; cap += 7)
		assert_int_equal(results_encode(&in, buf, cap), 0);
}

static void every_truncation_is_caught(void **state)
{
	static struct run_result in, out;
	size_t n, cut;

	(void)state;
	sample_run(&in, 4);
	n = results_encode(&in, buf, sizeof(buf));
	for (cut = 0; cut < n; cut++)
		assert_int_equal(results_decode(buf, cut, &out), DECODE_TRUNCATED);
}

static void trailing_bytes_are_caught(void **state)
{
	static struct run_result in, out;
	size_t n;

	(void)state;
	sample_run(&in, 2);
	n = results_encode(&in, buf, sizeof(buf));
	buf[n] = 0;
	assert_int_equal(results_decode(buf, n + 1, &out), DECODE_TRAILING);
}

static void unknown_version_is_refused(void **state)
{
	static struct run_result in, out;
	size_t n;

	(void)state;
	sample_run(&in, 2);
	n = results_encode(&in, buf, sizeof(buf));
	buf[0] = RESULTS_BLOB_VERSION + 1;
	assert_int_equal(results_decode(buf, n, &out), DECODE_BAD_VERSION);
}

static void out_of_range_values_are_refused(void **state)
{
	static struct run_result in, out;
	size_t n;

	(void)state;
	sample_run(&in, 1);
	in.clock_kind = CLOCK_KIND_COUNT;
	n = results_encode(&in, buf, sizeof(buf));
	assert_int_equal(results_decode(buf, n, &out), DECODE_BAD_VALUE);

	sample_run(&in, 1);
	in.exp[0].status = EXP_STATUS_COUNT;
	n = results_encode(&in, buf, sizeof(buf));
	assert_int_equal(results_decode(buf, n, &out), DECODE_BAD_VALUE);

	sample_run(&in, 1);
	in.n_experiments = RESULTS_MAX_EXPERIMENTS + 1;
	assert_int_equal(results_encode(&in, buf, sizeof(buf)), 0);
}

static void an_index_outside_the_string_table_is_refused(void **state)
{
	static struct run_result in, out;
	size_t n, at;

	(void)state;
	sample_run(&in, 1);
	n = stored(&in, &at);
	assert_true(buf[at] < 0x80);	/* one-byte table size */
	buf[at]--;	/* drop the last string; its uses now point past */
	assert_int_not_equal(results_decode(buf, n, &out), DECODE_OK);
}

static void repeated_strings_are_stored_once(void **state)
{
	static struct run_result in;
	uint8_t one, two, three;
	size_t at;

	(void)state;
	sample_run(&in, 1);
	stored(&in, &at);
	one = buf[at];	/* the string table's size */
	sample_run(&in, 3);
	stored(&in, &at);
	two = buf[at];
	/* rows add no string of their own: they travel as ids */
	assert_int_equal(two, one);
	strcpy(in.exp[1].reason, "a reason of its own");
	strcpy(in.exp[2].reason, "a reason of its own");
	stored(&in, &at);
	three = buf[at];
	/* the same reason twice is one more string */
	assert_int_equal(three, one + 1);
}

/* A row travels as its ids and its baseline's scheme and variant, and
 * comes back with the name row_name() gives them: a variant, the x2APIC
 * pass and a self-test among them. */
static void rows_travel_as_their_ids(void **state)
{
	static struct run_result in, out;
	size_t nine_rows, at;
	uint8_t one_row_strings;
	unsigned i;

	(void)state;
	sample_run(&in, 1);
	stored(&in, &at);
	one_row_strings = buf[at];
	sample_run(&in, 9);
	for (i = 0; i < 9; i++) {
		struct experiment_result *e = &in.exp[i];

		e->id.variant = i % 2 ? VARIANT_SEG_MOV32 : VARIANT_ABSENT;
		e->baseline.variant = i % 2 ? VARIANT_NONE : VARIANT_ABSENT;
		row_name(&e->id, e->name, sizeof(e->name));
		e->status = EXP_OK;
		memset(e->reason, 0, sizeof(e->reason));
	}
	in.exp[7].id.x2apic_repeat = 1;
	in.exp[7].baseline.x2apic_repeat = 1;
	row_name(&in.exp[7].id, in.exp[7].name, sizeof(in.exp[7].name));
	in.exp[8].id.selftest = SELFTEST_IN_FRED;
	in.exp[8].baseline = in.exp[8].id;
	row_name(&in.exp[8].id, in.exp[8].name, sizeof(in.exp[8].name));
	nine_rows = stored(&in, &at);
	assert_int_equal(results_decode(buf, nine_rows, &out), DECODE_OK);
	assert_memory_equal(&in, &out, sizeof(in));
	assert_string_equal(out.exp[1].name, "int-push-jmp+seg-mov32");
	assert_string_equal(out.exp[7].name, "int-int3-byte+seg-mov32@x2apic");
	assert_string_equal(out.exp[8].name, "selftest-fault-in-fred");
	/* The rows' names are in no string table: the table one row
	 * needs holds nine. */
	assert_int_equal(buf[at], (uint8_t)one_row_strings);
}

/* A row whose ids no list has, or whose baseline is another source's,
 * does not travel; a blob that says so is refused. */
static void rows_the_lists_lack_are_refused(void **state)
{
	static struct run_result in, out;
	size_t n, at;

	(void)state;
	sample_run(&in, 2);
	in.exp[1].id.scheme = SCHEME_COUNT;
	assert_int_equal(results_encode(&in, buf, sizeof(buf)), 0);
	sample_run(&in, 2);
	in.exp[1].baseline.source = SOURCE_PIC8259;
	assert_int_equal(results_encode(&in, buf, sizeof(buf)), 0);
	/* A second row int-call16 against int-direct travels as the bytes
	 * 00 09 00 00 00 00; its scheme byte past the list is refused. */
	sample_run(&in, 2);
	in.exp[1].id.scheme = SCHEME_CALL16;
	row_name(&in.exp[1].id, in.exp[1].name, sizeof(in.exp[1].name));
	n = stored(&in, &at);
	assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
	{
		static const uint8_t row[6] = { SOURCE_INT, SCHEME_CALL16, 0, 0,
						SCHEME_DIRECT, 0 };
		size_t at, found = 0;

		for (at = 0; at + sizeof(row) <= n; at++)
			if (!memcmp(buf + at, row, sizeof(row)))
				found = at + 1;
		assert_true(found > 0);
		buf[found] = SCHEME_COUNT;
	}
	assert_int_equal(results_decode(buf, n, &out), DECODE_BAD_VALUE);
}

/* A distribution's figures travel as steps from the one before: close
 * figures cost a byte each however large; out-of-order ones (a corrupt
 * or hand-made row) still come back exactly. */
static void figures_travel_as_steps(void **state)
{
	static struct run_result in, out;
	size_t near, far;
	unsigned k;

	(void)state;
	sample_run(&in, 1);
	for (k = 0; k < METRIC_COUNT; k++)
		in.exp[0].metric[k] = sample_stats(1000000);
	near = results_encode_stored(&in, buf, sizeof(buf));
	for (k = 0; k < METRIC_COUNT; k++) {
		in.exp[0].metric[k].p1 = 5;
		in.exp[0].metric[k].median = 3000000;
		in.exp[0].metric[k].p90 = 7;
	}
	far = results_encode_stored(&in, buf, sizeof(buf));
	assert_true(near > 0 && far > near + METRIC_COUNT * 10);
	assert_int_equal(results_decode(buf, far, &out), DECODE_OK);
	assert_memory_equal(&in, &out, sizeof(in));
}

static void varints_round_trip_at_their_limits(void **state)
{
	static struct run_result in, out;
	size_t n;

	(void)state;
	sample_run(&in, 1);
	in.exp[0].metric[0].min = 0;
	in.exp[0].metric[0].median = 127;
	in.exp[0].metric[0].p99 = 128;
	in.exp[0].metric[0].max = UINT64_MAX;
	in.exp[0].metric[0].mean_milli = (1ull << 63);
	n = results_encode(&in, buf, sizeof(buf));
	assert_int_equal(results_decode(buf, n, &out), DECODE_OK);
	assert_memory_equal(&in, &out, sizeof(in));
}

static void an_overlong_number_is_refused(void **state)
{
	static struct run_result in, out;
	size_t n, i, at;

	(void)state;
	sample_run(&in, 1);
	/* ten bytes: 0xff x9, 0x01 (the mean: figures travel as steps) */
	in.exp[0].metric[0].mean_milli = UINT64_MAX;
	n = stored(&in, &at);
	for (i = 0; i + 10 <= n; i++)
		if (!memcmp(buf + i, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 10))
			break;
	assert_true(i + 10 <= n);
	buf[i + 9] = 0x03;	/* a 65th bit */
	assert_int_equal(results_decode(buf, n, &out), DECODE_BAD_VALUE);
}

static void an_oversized_string_length_is_refused(void **state)
{
	static struct run_result in, out;
	size_t n, at;

	(void)state;
	sample_run(&in, 1);
	n = stored(&in, &at);
	/* After the table size (1): the first string, the CPU vendor, as
	 * its length and bytes. */
	assert_int_equal(buf[at + 1], strlen(in.machine.cpu_vendor));
	assert_memory_equal(buf + at + 2, in.machine.cpu_vendor, buf[at + 1]);
	buf[at + 1] = 200;	/* longer than the blob */
	assert_int_not_equal(results_decode(buf, n, &out), DECODE_OK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip_is_exact),
		cmocka_unit_test(cross_rows_round_trip_within_their_reserve),
		cmocka_unit_test(the_largest_matrix_travels_within_its_reserve),
		cmocka_unit_test(the_full_matrix_of_128_goes_in_parts),
		cmocka_unit_test(the_largest_joined_run_encodes),
		cmocka_unit_test(a_cell_outside_its_matrix_is_refused),
		cmocka_unit_test(the_matrix_gives_way_by_whole_senders),
		cmocka_unit_test(a_full_matrix_fits_the_handoff_in_two_parts),
		cmocka_unit_test(row_histograms_round_trip),
		cmocka_unit_test(histograms_give_way_to_the_budget),
		cmocka_unit_test(the_worst_case_at_the_store_sized_handoff),
		cmocka_unit_test(half_a_small_handoff_holds_the_first_senders),
		cmocka_unit_test(parts_join_into_one_run),
		cmocka_unit_test(counted_rows_round_trip_and_join),
		cmocka_unit_test(the_matrix_joins_across_parts),
		cmocka_unit_test(a_clock_past_index_254_round_trips),
		cmocka_unit_test(too_small_a_buffer_encodes_nothing),
		cmocka_unit_test(every_truncation_is_caught),
		cmocka_unit_test(trailing_bytes_are_caught),
		cmocka_unit_test(unknown_version_is_refused),
		cmocka_unit_test(out_of_range_values_are_refused),
		cmocka_unit_test(an_index_outside_the_string_table_is_refused),
		cmocka_unit_test(repeated_strings_are_stored_once),
		cmocka_unit_test(rows_travel_as_their_ids),
		cmocka_unit_test(rows_the_lists_lack_are_refused),
		cmocka_unit_test(figures_travel_as_steps),
		cmocka_unit_test(varints_round_trip_at_their_limits),
		cmocka_unit_test(an_overlong_number_is_refused),
		cmocka_unit_test(an_oversized_string_length_is_refused),
	};

	return cmocka_run_group_tests_name("serialize", tests, NULL, NULL);
}
