/* A streaming JSON writer into a text_buf: pretty-printed, 2-space indent,
 * strings escaped per RFC 8259. Nesting errors are the caller's bug and are
 * flagged in `error` rather than producing malformed output silently. */
#ifndef IRQLAB_BENCH_REPORT_JSON_H
#define IRQLAB_BENCH_REPORT_JSON_H

#include <stdint.h>

#include "arch/lib/fmt.h"

#define JSON_MAX_DEPTH 16

struct json_writer {
	struct text_buf *tb;
	int depth;
	int error;
	uint32_t count[JSON_MAX_DEPTH]; /* members written at each level */
	uint8_t is_object[JSON_MAX_DEPTH];
	uint8_t is_inline[JSON_MAX_DEPTH];
	uint8_t after_key;
};

void json_init(struct json_writer *w, struct text_buf *tb);
void json_begin_object(struct json_writer *w);
void json_end_object(struct json_writer *w);
void json_begin_array(struct json_writer *w);
void json_end_array(struct json_writer *w);
/* An array on one line, and everything in it: for long runs of small
 * values (histogram bins), where a line each would bloat the file. */
void json_begin_inline_array(struct json_writer *w);
void json_key(struct json_writer *w, const char *key);
void json_string(struct json_writer *w, const char *s);
void json_uint(struct json_writer *w, uint64_t v);
void json_int(struct json_writer *w, int64_t v);
/* A decimal with three fraction digits: milli = 12345 writes 12.345. */
void json_milli(struct json_writer *w, int64_t milli);
void json_bool(struct json_writer *w, int v);
void json_null(struct json_writer *w);

/* Shorthands for "key": value. */
void json_kv_string(struct json_writer *w, const char *key, const char *s);
void json_kv_uint(struct json_writer *w, const char *key, uint64_t v);
void json_kv_int(struct json_writer *w, const char *key, int64_t v);
/* "key": v, or "key": null where v is 0, a count's "none". */
void json_kv_uint_or_null(struct json_writer *w, const char *key, uint64_t v);

/* Writes `s` escaped (without quotes) into tb. */
void json_escape(struct text_buf *tb, const char *s);

#endif
