/* The mitigation probe (docs/mitigations.md): reads what the rule of
 * bench/model/mitigations.h needs, before any row, and gives the
 * "linux" entry variant the steps Linux's defaults would take here. */
#ifndef IRQLAB_BENCH_RUN_MITIGATION_PROBE_H
#define IRQLAB_BENCH_RUN_MITIGATION_PROBE_H

struct run_result;

/* Fills r's machine.mitigation and its mitigations probe, and sets
 * mitigation_linux_steps (arch/mitigations.h). */
void mitigation_probe(struct run_result *r);

#endif
