/* Seed 004's IO-APIC sequences "on their own": mask, unmask and EOI on
 * an idle pin, timed per block like the primitives, once per access
 * strategy (the IOAPIC rows of PRIMITIVE_LIST, arch/matrix.h). */
#ifndef IRQLAB_BENCH_RUN_SEQUENCES_H
#define IRQLAB_BENCH_RUN_SEQUENCES_H

#include <stdint.h>

#include "bench/run/source_lines.h"

struct run_result;

/* Times every sequence into r->prim, after the primitives, on `line`
 * (source_lines_sequence_line(), bench/run/source_lines.h). Rows say why when
 * there is no IO-APIC or no free pin. */
void sequences_time(struct run_result *r, uint64_t *blocks,
		    uint32_t n_blocks, struct sequence_line line);

#endif
