/* Phase B's probes, run from one driver in the order the rows depend
 * on them (docs/controllers.md "Probes"), each recorded in the run's
 * results: CET and the page tables as phase B found and made them, the
 * interrupt lines, the fences, the SMI counter, the other processors,
 * the APIC modes, the mitigations and the performance counters. */
#ifndef IRQLAB_BENCH_RUN_PROBES_H
#define IRQLAB_BENCH_RUN_PROBES_H

#include <stdint.h>

#include "bench/model/results.h"
#include "bench/run/other_cpus.h"
#include "bench/run/source_lines.h"
#include "firmware/acpi.h"

/* What phase B found and did before the probes, which only it can:
 * it owns the firmware's memory map and the pages phase A set aside. */
struct phase_b_found {
	/* CET as the firmware left it, cleared before the GDT's far
	 * return (docs/long-mode.md "CET left on"). */
	uint8_t cet_was_on;
	uint64_t s_cet;
	/* simulate = cet-shadow-stack: the token made up, or why it could
	 * not be (both NULL where it was not asked for). */
	const uint64_t *shadow_stack_token;
	const char *shadow_stack_not_made;
	/* irqlab's own page tables (docs/long-mode.md "Page attributes"),
	 * or the firmware's where the pool was too small. */
	uint8_t own_page_tables;
	uint64_t wb_bytes, uc_bytes;	/* mapped so */
	uint32_t split;		/* 2 MiB ranges mapped in 4 KiB pages */
	uint64_t pool_used, pool_pages;
};

/* Runs every probe into r, the other processors started and parked in
 * `other_cpus`; returns the interrupt lines the rows use. */
struct source_lines probes_run(const struct phase_b_found *found,
			       const struct probe_tables *tables,
			       const struct other_cpus_area *other_cpus,
			       struct run_result *r);

#endif
