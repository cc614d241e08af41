/* The run configuration, read from \EFI\irqlab\irqlab.cfg on the ESP when
 * present. Plain "key = value" lines; '#' starts a comment. */
#ifndef IRQLAB_BENCH_CONFIG_H
#define IRQLAB_BENCH_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "fmt.h"

enum finish_action {
	FINISH_SHUTDOWN = 0,	/* QEMU exits; a real machine powers off */
	FINISH_WAIT_KEY = 1,	/* leave the summary on screen until a key */
};

struct irqlab_config {
	uint32_t samples;	/* timed samples per experiment */
	uint32_t warmup;	/* untimed iterations first */
	uint32_t floor_samples;	/* back-to-back reads for the floor */
	uint32_t primitive_blocks; /* timed blocks of 1024 per primitive */
	uint32_t cold_samples;	/* per cold / cold-control experiment */
	uint32_t thrash_samples; /* per thrash experiment */
	uint32_t gap_samples;	/* gaps per scheme, gap method */
	uint8_t runs;		/* repeat the matrix across resets */
	uint8_t unstable_pct;	/* run-to-run spread that marks a figure */
	uint8_t int_vector;	/* vector of the INT n experiment */
	uint8_t finish;		/* enum finish_action */
	/* Adds an experiment that raises #UD mid-run, to show an exception
	 * fails only its own experiment. Off by default. */
	uint8_t selftest_fault;
	/* Makes the first batch of int-direct look disturbed by an SMI, to
	 * show it is discarded and counted. Off by default. */
	uint8_t selftest_smi;
};

#define CONFIG_DEFAULT_SAMPLES 10000u
#define CONFIG_DEFAULT_WARMUP 1000u
#define CONFIG_DEFAULT_FLOOR_SAMPLES 1000u
#define CONFIG_DEFAULT_PRIMITIVE_BLOCKS 200u
#define CONFIG_DEFAULT_COLD_SAMPLES 1000u
#define CONFIG_DEFAULT_THRASH_SAMPLES 50u
#define CONFIG_DEFAULT_GAP_SAMPLES 1000u
#define CONFIG_MAX_RUNS 10
#define CONFIG_DEFAULT_UNSTABLE_PCT 5
#define CONFIG_MAX_SAMPLES 1000000u
#define CONFIG_DEFAULT_INT_VECTOR 0x40

void config_defaults(struct irqlab_config *c);

/* Applies the text on top of what `c` holds. Problems (unknown keys, bad
 * numbers, out-of-range values) are described one per line in `errors`;
 * the offending line is ignored and the rest still applies. Returns the
 * number of problems. */
int config_parse(struct irqlab_config *c, const char *text, size_t len,
		 struct text_buf *errors);

#endif
