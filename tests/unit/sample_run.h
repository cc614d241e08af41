/* A filled-in run_result for the serialization and report tests. */
#ifndef IRQLAB_TESTS_SAMPLE_RUN_H
#define IRQLAB_TESTS_SAMPLE_RUN_H

#include <stdio.h>
#include <string.h>

#include "bench/model/results.h"

static inline struct sample_stats sample_stats(uint64_t base)
{
	return (struct sample_stats){
		.count = 10000, .min = base, .p1 = base, .median = base + 2,
		.p90 = base + 5, .p99 = base + 9, .p999 = base + 40,
		.max = base + 500, .mean_milli = (base + 3) * 1000 + 250,
		.stddev_milli = 1500,
	};
}

static inline void sample_run(struct run_result *r, unsigned n_experiments)
{
	static const char *const prim_names[3] = { "push-imm-i386", "push-cs",
						   "cs-vector" };
	unsigned i, k;

	memset(r, 0, sizeof(*r));
	r->run_id = 20261130054701ull;
	strcpy(r->machine.cpu_vendor, "GenuineIntel");
	strcpy(r->machine.brand, "Example \"Quoted\" CPU @ 2.00GHz");
	strcpy(r->machine.hypervisor, "");
	r->machine.family = 6;
	r->machine.model = 85;
	r->machine.stepping = 4;
	strcpy(r->machine.fw_vendor, "EDK II");
	r->machine.fw_revision = 0x10000;
	r->machine.uefi_revision = (2u << 16) | 70;
	r->machine.madt_found = 1;
	r->machine.lapic_address = 0xfee00000;
	r->machine.lapic_count = 4;
	r->machine.ioapic_count = 1;
	r->config.samples = 10000;
	r->config.warmup = 1000;
	r->config.primitive_blocks = 200;
	r->tsc_hz = 2000000000;
	r->tsc_method = TSC_METHOD_CPUID_15H;
	r->clock_kind = CLOCK_TSC_TICKS;
	r->floor = sample_stats(20);
	r->floor.count = 1000;
	r->n_experiments = n_experiments;
	/* Row i: long mode's scheme i % 10 under source i / 10, from
	 * int-direct, int-push-jmp, int-push-jmp-ibt, int-compact, ... on,
	 * each against its source's direct row; past the last source, the
	 * same again in the x2APIC pass. */
	for (i = 0; i < n_experiments; i++) {
		struct experiment_result *e = &r->exp[i];
		uint8_t source = (uint8_t)(i / 10 % SOURCE_COUNT);
		uint8_t repeat = (uint8_t)(i / 10 >= SOURCE_COUNT);

		e->id = (struct row_id){ .source = source,
					 .scheme = (uint8_t)(i % 10),
					 .x2apic_repeat = repeat };
		e->baseline = (struct row_id){ .source = source,
					       .scheme = SCHEME_DIRECT,
					       .x2apic_repeat = repeat };
		row_name(&e->id, e->name, sizeof(e->name));
		e->vector = (uint8_t)(64 + i);
		e->status = i % 4 == 3 ? EXP_SKIPPED : EXP_OK;
		if (e->status != EXP_OK)
			strcpy(e->reason, "CPUID.1:ECX[24] is 0");
		e->delivered = 11000;
		e->vectors_verified = 224;
		e->register_checks = 512;
		for (k = 0; k < METRIC_COUNT; k++)
			e->metric[k] = sample_stats(100 * (k + 1) + i);
	}
	r->n_primitives = 3;
	for (i = 0; i < 3; i++) {
		struct primitive_result *p = &r->prim[i];

		strcpy(p->name, prim_names[i]);
		p->status = i == 1 ? EXP_SKIPPED : EXP_OK;
		if (i == 1)
			strcpy(p->reason, "compatibility mode needs the stack "
			       "below 4 GiB; it is at 0x100000000");
		p->block = sample_stats(1024 * (i + 1) + 20);
		p->block.count = 200;
	}
	r->n_schemes = 2;
	r->scheme[0].scheme = SCHEME_DIRECT;
	r->scheme[0].stub_bytes = 16;
	r->scheme[0].code_bytes = 4096;
	r->scheme[1].scheme = SCHEME_CS_SELECTOR;
	r->scheme[1].code_bytes = 300;
	r->scheme[1].data_bytes = 1792;
}

/* The counted pass over every ok row of a sample run: core cycles three
 * times the TSC figures' base plus the row, instructions 50 + the row,
 * over floors of 30 cycles and 6 instructions; `probe` is the counters
 * probe's state. */
static inline void sample_counted(struct run_result *r, unsigned probe)
{
	uint32_t i;
	unsigned k;

	r->probe[PROBE_COUNTERS].state = (uint8_t)probe;
	strcpy(r->probe[PROBE_COUNTERS].detail, "PMU version 5, 3 fixed "
	       "counters of 48 bits: cycles on fixed 1, instructions on fixed "
	       "0 (200010 over a loop of 100000)");
	r->cycles_floor = sample_stats(30);
	r->cycles_instrument = sample_stats(60);
	r->instructions_floor = sample_stats(6);
	r->n_counted = 0;
	for (i = 0; i < r->n_experiments; i++) {
		struct counted_row *c;

		if (r->exp[i].status != EXP_OK)
			continue;
		c = &r->counted[r->n_counted++];
		c->row = (uint8_t)i;
		for (k = 0; k < METRIC_COUNT; k++)
			c->cycles[k] = sample_stats(
				30 + 3 * (r->exp[i].metric[k].median - 20));
		c->instructions = sample_stats(6 + 50 + i);
	}
}

/* The cross-CPU section of `cpus` processors (APIC IDs 0, 2, 4, ...),
 * as phase B leaves it: the two broadcast rows; the matrix, every
 * ordered pair a cell, SMT siblings where the IDs differ in bit 1 alone
 * and the same package otherwise, the last pair's one-way skipped for
 * its wide TSC offset bound; and the first pair of each relation kept
 * in full, its one-way row with a negative offset bound. */
static inline void sample_cross(struct run_result *r, uint32_t cpus)
{
	uint8_t kept[CPU_RELATION_COUNT] = { 0 };
	uint32_t a, b;
	unsigned k;

	r->n_cross = 0;
	r->n_cells = 0;
	for (k = CROSS_BROADCAST_ACK; k <= CROSS_UNICAST_ACK_EACH; k++)
		r->cross[r->n_cross++] = (struct cross_result){
			.kind = (uint8_t)k, .status = EXP_OK,
			.relation = CPU_RELATION_OTHER_PACKAGE,
			.apic_mode = 2, .sender = 0,
			.target = CROSS_ALL_TARGETS, .targets = cpus - 1,
			.time = sample_stats(4000 + 100 * k),
		};
	r->n_matrix_cpus = cpus;
	r->matrix_samples = 2500;
	for (a = 0; a < cpus; a++)
		r->matrix_cpu[a] = (struct matrix_cpu){ a * 2, 0, 1 };
	for (a = 0; a < cpus; a++)
		for (b = 0; b < cpus; b++) {
			uint8_t rel = (a ^ b) == 1 ? CPU_RELATION_SMT_SIBLING
						   : CPU_RELATION_SAME_PACKAGE;
			int wide = a == cpus - 1 && b == cpus - 2;
			struct matrix_cell *c;
			struct cross_result *row;

			if (a == b)
				continue;
			c = &r->cell[r->n_cells++];
			*c = (struct matrix_cell){
				.sender = (uint16_t)a, .target = (uint16_t)b,
				.relation = rel, .ack_status = EXP_OK,
				.one_way_status = wide ? EXP_SKIPPED : EXP_OK,
				.one_way_why = wide ? CELL_WHY_OFFSET_WIDE : 0,
				.ack = 902 + a + b,
				.one_way = wide ? 0 : 502 + a,
				.offset_plus_minus = 50 + (a + b) / 2,
			};
			if (kept[rel])
				continue;
			kept[rel] = 1;
			row = &r->cross[r->n_cross++];
			*row = (struct cross_result){
				.kind = CROSS_ACK, .status = EXP_OK,
				.relation = rel, .apic_mode = 2,
				.sender = a * 2, .target = b * 2,
				.targets = 1, .time = sample_stats(900 + a + b),
			};
			r->cross[r->n_cross] = *row;
			row = &r->cross[r->n_cross++];
			row->kind = CROSS_ONE_WAY;
			row->skew_low = -1200 - (int64_t)a;
			row->skew_high = -1100 + (int64_t)b;
			row->time = sample_stats(500 + a);
		}
}

#endif
