/* The processors other than the one measured (docs/controllers.md "The
 * other CPUs"): parked before any row, so that no firmware loop runs
 * beside the measured CPU, on its SMT sibling or on the memory bus. */
#ifndef IRQLAB_BENCH_RUN_OTHER_CPUS_H
#define IRQLAB_BENCH_RUN_OTHER_CPUS_H

#include "firmware/acpi.h"

struct run_result;

/* Sends every other processor the MADT lists as enabled an INIT, which
 * leaves it in wait-for-SIPI (SDM vol. 3A §9.4), and records what was
 * done in r's probes and a status line. */
void other_cpus_park(const struct madt_info *m, enum acpi_status madt_status,
		     struct run_result *r);

#endif
