/* The handoff blob's layout (bench/model/serialize.h): one description
 * of a run_result on the wire, walked by both the encoder and the
 * decoder (bench/model/serialize.c). A run is its header fields, then
 * its lists (experiments, primitives, gap rows, scheme footprints,
 * histograms, counted rows, cross-CPU rows and their kept distributions,
 * other processors' floors, processors' clocks), each its count in
 * LEB128 (row histograms outnumber a byte) and that many items of their
 * own fields. A field added, moved or changed here changes the blob:
 * RESULTS_BLOB_VERSION goes up with it. */
#ifndef IRQLAB_BENCH_MODEL_BLOB_LAYOUT_H
#define IRQLAB_BENCH_MODEL_BLOB_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "bench/model/results.h"

enum wire {
	WIRE_FIXED,	/* `bytes` little-endian bytes */
	WIRE_VAR,	/* unsigned LEB128 */
	WIRE_STRING,	/* an index into the string table */
	WIRE_ROW,	/* an experiment's id and baseline (struct row_id):
			 * source, scheme, variant, cache state, then
			 * x2apic_repeat, selftest and whether a processor
			 * other than the boot CPU ran it in one byte, that
			 * processor where one did, then the
			 * baseline's scheme, variant and cache state; the
			 * baseline shares the rest. Its name is made again
			 * by row_name() */
	WIRE_STATS,	/* struct sample_stats: every stats_fields entry, LEB128;
			 * each figure after the first as its step up from the
			 * one before (min <= p1 <= ... <= max), which is small */
	WIRE_CONFIG,	/* struct irqlab_config: every config_keys entry, LEB128 */
	WIRE_BYTES,	/* raw bytes; their count is the field just before */
};

/* One field of the layout: how it travels, and where its C field is. */
struct field {
	uint8_t wire;		/* enum wire */
	uint8_t bytes;		/* WIRE_FIXED: bytes on the wire */
	uint16_t size;		/* bytes of the C field */
	uint32_t offset;
	uint64_t limit;		/* valid values are below it; 0: any */
};

/* One of run_result's lists: where its count and its items are, and the
 * fields of an item. */
struct blob_list {
	uint32_t count_offset;	/* of the uint32_t count in run_result */
	uint32_t items_offset;	/* of the array */
	uint32_t item_size;
	uint32_t max;
	const struct field *fields;
	size_t n_fields;
};

/* run_result's own fields, in their order on the wire. */
extern const struct field blob_run_fields[];
extern const size_t blob_run_field_count;
/* Its lists, in their order on the wire after those fields. */
extern const struct blob_list blob_lists[];
extern const size_t blob_list_count;

#endif
