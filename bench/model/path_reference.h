/* The icount reference as the stick carries it (docs/timing.md "The path
 * length, checked"): each row's round trip, net of the floor, in
 * instructions under QEMU -icount shift=0, and the build that recorded
 * them. image/reference-to-stick.py writes it from
 * tests/boot/reference/icount-figures.json; phase C and irqlab-rescue
 * read it. Plain C only. */
#ifndef IRQLAB_BENCH_MODEL_PATH_REFERENCE_H
#define IRQLAB_BENCH_MODEL_PATH_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/model/results.h"

#define PATH_REFERENCE_MAX_ROWS 256
#define PATH_REFERENCE_MAX_BYTES 32768

struct path_reference {
	char build[17];		/* 16 hex digits, or "" where none was named */
	uint32_t n;
	struct {
		char name[RESULTS_ROW_NAME_LEN];
		uint32_t round_trip;
	} row[PATH_REFERENCE_MAX_ROWS];
};

/* Reads the lines "build HEX16" and "row NAME N" (blank lines and
 * "#" comments skipped). Returns 0, or -1 with `why` saying what line
 * was refused: an unknown word, a name too long, a number that is not
 * one, more than PATH_REFERENCE_MAX_ROWS rows, or no build line. */
int path_reference_parse(const char *text, size_t len,
			 struct path_reference *out, char *why, size_t cap);

/* Row `name`'s round trip, or -1 where the reference has no such row. */
int64_t path_reference_find(const struct path_reference *ref,
			    const char *name);

#endif
