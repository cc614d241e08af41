/* The handoff's wire primitives (bench/model/blob_layout.c lays the run
 * out, bench/model/serialize.c writes it with them): little-endian
 * integers, unsigned LEB128, and strings written once in a table ahead
 * of the fields, each field naming its string by index. The writer makes
 * two passes: the first only collects the strings. */
#ifndef IRQLAB_BENCH_MODEL_WIRE_H
#define IRQLAB_BENCH_MODEL_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define DICT_MAX 512

struct dict {
	const char *s[DICT_MAX];
	uint8_t len[DICT_MAX];
	uint32_t n;
	int full;
};

struct writer {
	uint8_t *p;
	size_t cap, len;
	int overflow;
	struct dict *dict;
	int collecting;	/* first pass: fill the table, write nothing */
};

struct reader {
	const uint8_t *p;
	size_t len, pos;
	int truncated;
	int overlong;	/* a number too large for its field */
	/* the string table: where each string starts, and its length */
	uint32_t n_strings;
	uint32_t at[DICT_MAX];
	uint8_t len_of[DICT_MAX];
};

void wire_put_bytes(struct writer *w, const void *src, size_t n);
void wire_put_uint(struct writer *w, uint64_t v, unsigned bytes);
/* Counts and figures as unsigned LEB128: most are small, and the whole
 * run must fit a handoff sized to the store. */
void wire_put_var(struct writer *w, uint64_t v);
/* A string field: its index in the table, added there on first use. */
void wire_put_str(struct writer *w, const char *s, size_t field_size);

uint64_t wire_get_uint(struct reader *r, unsigned bytes);
/* Unsigned LEB128 of at most 64 bits; anything longer is corrupt. */
uint64_t wire_get_var(struct reader *r);
/* Reads the string table that precedes the fields. Returns 0 when it
 * has more strings than a writer makes. */
int wire_get_string_table(struct reader *r);
/* A string field by its table index. Returns 0 when the index is not in
 * the table or the string does not fit the field. */
int wire_get_str(struct reader *r, char *dst, size_t field_size);

#endif
