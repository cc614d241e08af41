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


/* Vectors a self-IPI or external source is checked on: both ends, both
 * sides of the imm8 sign boundary, and a few between. */
extern const uint8_t source_check_vectors[7];

#endif
