/* Compact little-endian encoding of a run_result for the UEFI-variable
 * handoff. One table of fields (bench/model/blob_layout.c) says what is
 * written and how, and serialize.c walks it both ways; the encoding does not depend on struct layout, and the decoder
 * checks every length, count and enum. */
#ifndef IRQLAB_BENCH_MODEL_SERIALIZE_H
#define IRQLAB_BENCH_MODEL_SERIALIZE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/model/results.h"

/* 5: every configuration key travels, its warnings, the ACPI OEM ID.
 * 7: each row's histograms of entry, exit and round trip; parts.
 * 8: an experiment's name left out where the plan's rule gives it, and
 *    each figure of a distribution as its step from the one before.
 * 9: a row as its ids (source, scheme, variant; struct row_id), never
 *    its name; a gap row's and a footprint's scheme as its id.
 * 12: the machine's mitigation bits (bench/model/mitigations.h) and
 *     topology (bench/model/topology.h); a row's cache state as an id
 *     of its own (struct row_id).
 * 13: the cross-CPU rows (struct cross_result).
 * 14: a row's processor (struct row_id's cpu) and its core type; the
 *     instrument floor of each other processor rows ran on; the
 *     distribution of one acknowledged pair per relation.
 * 15: the core clock of each other processor rows or IPIs ran on: its
 *     pin, LFENCE, APERF/MPERF ratio, starts and restore (cpu_clock);
 *     a cross-CPU row's wake-ups of its target without an interrupt
 *     (experiment_result's target_wakeups).
 * 16: the plan's rows (run_result's plan_rows), for the one count of
 *     rows (bench/model/row_counts.h).
 * 17: the samples between CPUs measured late (experiment_result's and
 *     cross_result's `late`); the other processors' starts and the
 *     section's machine time (run_result's cpu_start_rounds,
 *     cpu_starts_most, cross_ticks).
 * 18: the configuration's handoff key (variables or serial), and
 *     boot_return's not-asked.
 * 19: the encoding compressed (bench/model/range_coder.h): after the
 *     version, a byte saying how (BLOB_STORED, BLOB_RANGE_CODED) and the
 *     encoding's length in LEB128; then the encoding, which no longer
 *     begins with the version; the configuration's handoff_kib.
 * 20: a processor's clock (cpu_clock) names it by MADT index + 1 in
 *     LEB128, not one byte: a MADT may list more than 255.
 * 21: the matrix between CPUs (run_result's matrix_cpu, cell and their
 *     counts, matrix_left_out, matrix_samples, cells_dropped): every
 *     pair's medians, up to 64 processors; cross_result's rows keep only
 *     the broadcasts and each relation's first pair in full.
 * 22: the matrix in parts: matrix_resume, matrix_next_sender.
 * 23: up to 512 processors in the matrix, each marked as one of the full
 *     matrix's (64, or 128 under cpus = all) or not (matrix_cpu's full);
 *     cells past the full matrix pair one of the others with a few. */
#define RESULTS_BLOB_VERSION 23

/* How the encoding follows the blob's header. */
enum blob_method {
	BLOB_STORED = 0,	/* as it is: compressing did not make it smaller */
	BLOB_RANGE_CODED = 1,
	BLOB_METHOD_END
};

/* The largest encoding, before compression, a blob may hold: room for
 * the worst case a run can fill, every table full (tests/unit/
 * test_serialize.c asserts it), with a joined run's parts. */
#define RESULTS_RAW_MAX (1024 * 1024)

/* Returns the encoded length, or 0 when `cap` is too small. */
size_t results_encode(const struct run_result *r, uint8_t *out, size_t cap);

/* The same blob with its encoding stored as it is (BLOB_STORED): for
 * tests that read or change the encoding's bytes. */
size_t results_encode_stored(const struct run_result *r, uint8_t *out,
			     size_t cap);

/* Whether the run encodes within `cap` bytes: results_encode's answer,
 * found without compressing where the encoding fits as it is (phase B
 * asks after every row). */
int results_fit(const struct run_result *r, size_t cap);

/* Leaves out row histograms, the last rows' first, until the blob fits
 * `cap` bytes (`scratch` holds a trial encoding); then, where it still
 * does not, the matrix's cells, a sender's at a time from the last,
 * counted in cells_dropped. Returns how many histograms were left out,
 * and sets *len to the blob's length (0: it does not fit even without
 * them). */
uint32_t results_fit_histograms(struct run_result *r, uint8_t *scratch,
				size_t cap, size_t *len);

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
