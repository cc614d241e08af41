/* Interrupt sources as rows of one table: each can arm, fire and
 * acknowledge, and says why it cannot run on this machine. */
#ifndef IRQLAB_BENCH_RUN_SOURCES_H
#define IRQLAB_BENCH_RUN_SOURCES_H

#include <stdint.h>

#include "arch/matrix.h"
#include "bench/run/source.h"
#include "bench/run/source_lines.h"

extern const struct irq_source irq_sources[];
extern const size_t irq_source_count;

/* Times the bare mask -> unmask -> EOI sequence on an idle IO-APIC pin in
 * every access strategy, into r->prim (seed 004, "on its own"). Rows say
 * why when there is no IO-APIC or no free pin. */
void sources_time_ioapic_sequences(struct source_lines *l, struct run_result *r,
				   uint64_t *blocks, uint32_t n_blocks);

/* Vectors a self-IPI or external source is checked on: both ends, both
 * sides of the imm8 sign boundary, and a few between. */
extern const uint8_t source_check_vectors[7];

#endif
