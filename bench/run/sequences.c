#include "bench/run/sequences.h"

#include "apic/ioapic.h"
#include "arch/cpu.h"
#include "arch/lib/fmt.h"
#include "arch/matrix.h"
#include "arch/timing.h"
#include "bench/model/results.h"
#include "bench/run/counters.h"

/* Any vector will do for the IO-APIC sequences: the pin stays masked
 * while they are timed. */
#define SEQUENCE_VECTOR 0x40

#define SEQUENCE_FLUSH 1
#define SEQUENCE_NO_FLUSH 0

/* The access strategies seed 004 compared, each with and without the
 * posted-write flush: the IOAPIC rows of PRIMITIVE_LIST, in its order. */
#define SEQUENCE_ROW_LONG(name, code, setup)
#define SEQUENCE_ROW_COMPAT(name, code, setup)
#define SEQUENCE_ROW_IOAPIC(name, code, setup)                              \
	{ name, IOAPIC_##code, SEQUENCE_##setup },
#define SEQUENCE_ROW(id, name, kind, code, setup, ...)                      \
	SEQUENCE_ROW_##kind(name, code, setup)
static const struct {
	const char *name;
	uint8_t access, flush;
} sequence_rows[] = { PRIMITIVE_LIST(SEQUENCE_ROW) };
#undef SEQUENCE_ROW

/* The counted pass of one sequence (docs/timing.md "Core cycles"): the
 * same blocks in core cycles, into p->cycles_block. A function of its
 * own, so that the TSC's loop stays as it was. */
static __attribute__((noinline)) void
count_sequence(struct ioapic *io, unsigned pin, uint64_t *blocks,
	       uint32_t n_blocks, struct primitive_result *p)
{
	uint32_t b, k;

	if (!counters_counting())
		return;
	counters_select(COUNTER_CYCLES);
	for (b = 0; b < n_blocks; b++) {
		uint64_t c0 = pmc_open(pmc_counter);

		for (k = 0; k < PRIMITIVE_BLOCK_REPS; k++) {
			ioapic_mask(io, pin);
			ioapic_unmask(io, pin);
			ioapic_level_eoi(io, pin, SEQUENCE_VECTOR);
		}
		blocks[b] = counters_span(pmc_close(pmc_counter) - c0);
		ioapic_mask(io, pin);
	}
	stats_compute(blocks, n_blocks, &p->cycles_block);
}

/* The TSC's loop below is the one the icount reference
 * (tests/boot/reference/) recorded, down to the one-instruction padding
 * before its first call, which falls inside the timed block: a change
 * ahead of the loop may move every sequence's figure by one. */
void sequences_time(struct run_result *r, uint64_t *blocks,
		    uint32_t n_blocks, struct sequence_line line)
{
	struct ioapic *io = line.io;
	unsigned pin = line.pin;
	const char *why = line.why;
	size_t i;

	for (i = 0; i < sizeof(sequence_rows) / sizeof(sequence_rows[0]) &&
		    r->n_primitives < RESULTS_MAX_PRIMITIVES; i++) {
		struct primitive_result *p = &r->prim[r->n_primitives++];
		uint32_t b, k;

		*p = (struct primitive_result){ 0 };
		fmt_snprintf(p->name, sizeof(p->name), "%s", sequence_rows[i].name);
		if (why) {
			p->status = EXP_SKIPPED;
			fmt_snprintf(p->reason, sizeof(p->reason), "%s", why);
			continue;
		}
		ioapic_set_access(io, (enum ioapic_access)sequence_rows[i].access,
				  sequence_rows[i].flush);
		ioapic_route(io, pin, SEQUENCE_VECTOR, 0, IOAPIC_LEVEL,
			     IOAPIC_ACTIVE_HIGH);
		ioapic_mask(io, pin);
		for (b = 0; b < n_blocks; b++) {
			uint64_t t0 = tsc_open();

			for (k = 0; k < PRIMITIVE_BLOCK_REPS; k++) {
				ioapic_mask(io, pin);
				ioapic_unmask(io, pin);
				ioapic_level_eoi(io, pin, SEQUENCE_VECTOR);
			}
			blocks[b] = tsc_close() - t0;
			/* unmasked and idle is fine; leave it masked */
			ioapic_mask(io, pin);
		}
		stats_compute(blocks, n_blocks, &p->block);
		p->status = EXP_OK;
		count_sequence(io, pin, blocks, n_blocks, p);
	}
	if (!why)
		ioapic_set_access(io, IOAPIC_UNCACHED, 1);
}

