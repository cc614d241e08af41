/* Compact little-endian encoding of a run_result for the UEFI-variable
 * handoff. Every field is written explicitly, so the encoding does not
 * depend on struct layout, and the decoder checks every length. */
#ifndef IRQLAB_BENCH_SERIALIZE_H
#define IRQLAB_BENCH_SERIALIZE_H

#include <stddef.h>
#include <stdint.h>

#include "results.h"

#define RESULTS_BLOB_VERSION 2

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
