/* The performance counters and APERF/MPERF (docs/timing.md "The
 * performance counters"): what this CPU has, whether it counts, and the
 * core clock's ratio to the TSC's over each batch of a row. */
#ifndef IRQLAB_BENCH_RUN_COUNTERS_H
#define IRQLAB_BENCH_RUN_COUNTERS_H

#include <stdint.h>

struct run_result;

/* Before the plan: decodes CPUID, enables the fixed counters (Intel) for
 * ring 0, checks each source counts across a known loop, and records
 * what it found in r's probes. A counter that does not advance is said
 * to not count here, never read as zero cycles. */
void counters_probe(struct run_result *r);

/* Whether the counted pass runs (docs/timing.md "Core cycles"): the
 * counters count here, or the config's simulate takes them as counting
 * (then every counted figure is the emulator's, and labelled so). */
int counters_counting(void);
/* 1 while rows run on a processor in the boot CPU's place
 * (bench/run/other_cpu_matrix.h): the counters were programmed on the boot CPU
 * alone, so the counted pass does not run there; 0 after. */
void counters_elsewhere(int elsewhere);

/* The two counters the counted pass reads, one at a time. */
enum counted_counter {
	COUNTER_CYCLES,		/* core cycles unhalted */
	COUNTER_INSTRUCTIONS,	/* instructions retired */
};

/* Points the counted instrument (pmc_counter, arch/timing.h) at one. */
void counters_select(enum counted_counter which);

/* A counted delta, as the instrument's 64-bit subtraction gave it, taken
 * modulo the counters' width: right across one wrap. */
uint64_t counters_span(uint64_t difference);

/* A sample's delta from `from` to `to`: the TSC's as it is, and while
 * the trigger side reads the counter (sample_counted), modulo its
 * width. */
uint64_t counters_sample_span(uint64_t from, uint64_t to);
/* The clock a sample reads now, the TSC or the counted pass's counter
 * (sample_counted): for a sample ended outside the timed asm. */
uint64_t counters_sample_now(void);

/* Whether APERF and MPERF count here (counters_probe found them so). */
int counters_ratio_available(void);

/* APERF and MPERF now; the ratio of two readings' deltas is the core
 * clock's against the TSC's (SDM vol. 3B §15.2, IA32_APERF/IA32_MPERF). */
struct clock_reading {
	uint64_t aperf, mperf;
};
void counters_read(struct clock_reading *out);

/* Puts back what counters_probe and counters_pin changed, before the
 * reset. */
void counters_unpin(void);

/* The core clock's ratio to the TSC's over a known loop, in
 * thousandths; 0 where the boot CPU found no APERF/MPERF. */
uint32_t counters_ratio_over_loop(void);

#endif
