/* Compact little-endian encoding of a run_result for the UEFI-variable
 * handoff. One table of fields (serialize.c) says what is written and
 * how; the encoding does not depend on struct layout, and the decoder
 * checks every length, count and enum. */
#ifndef IRQLAB_BENCH_MODEL_SERIALIZE_H
#define IRQLAB_BENCH_MODEL_SERIALIZE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/model/results.h"

/* 5: every configuration key travels, its warnings, the ACPI OEM ID. */
#define RESULTS_BLOB_VERSION 6

/* Returns the encoded length, or 0 when `cap` is too small. */
size_t results_encode(const struct run_result *r, uint8_t *out, size_t cap);

enum decode_status {
	DECODE_OK = 0,
	DECODE_TRUNCATED,
	DECODE_BAD_VERSION,
	DECODE_BAD_VALUE,	/* a count or enum out of range */
	DECODE_TRAILING,	/* bytes left over after the last field */
};

enum decode_status results_decode(const uint8_t *in, size_t len,
				  struct run_result *r);
const char *decode_status_name(enum decode_status s);

#endif
