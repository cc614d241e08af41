#include "bench/report/json.h"

void json_init(struct json_writer *w, struct text_buf *tb)
{
	*w = (struct json_writer){ .tb = tb };
}

static void newline_indent(struct json_writer *w)
{
	int i;

	tb_putc(w->tb, '\n');
	for (i = 0; i < w->depth; i++)
		tb_puts(w->tb, "  ");
}

/* Separator and indentation before any value or key. */
static void before_value(struct json_writer *w)
{
	if (w->after_key) {
		w->after_key = 0;
		return;
	}
	if (w->depth > 0) {
		if (w->is_object[w->depth - 1])
			w->error = 1; /* a value in an object needs a key */
		if (w->is_inline[w->depth - 1]) {
			if (w->count[w->depth - 1]++)
				tb_puts(w->tb, ", ");
			return;
		}
		if (w->count[w->depth - 1]++)
			tb_putc(w->tb, ',');
		newline_indent(w);
	}
}

static void begin(struct json_writer *w, int object, int on_one_line)
{
	before_value(w);
	if (w->depth >= JSON_MAX_DEPTH) {
		w->error = 1;
		return;
	}
	tb_putc(w->tb, object ? '{' : '[');
	w->count[w->depth] = 0;
	w->is_object[w->depth] = (uint8_t)object;
	/* Inside an inline array everything stays on its line. */
	w->is_inline[w->depth] = (uint8_t)(on_one_line ||
		(w->depth > 0 && w->is_inline[w->depth - 1]));
	w->depth++;
}

static void end(struct json_writer *w, int object)
{
	if (w->depth == 0 || w->is_object[w->depth - 1] != object ||
	    w->after_key) {
		w->error = 1;
		return;
	}
	w->depth--;
	if (w->count[w->depth] && !w->is_inline[w->depth])
		newline_indent(w);
	tb_putc(w->tb, object ? '}' : ']');
	if (w->depth == 0)
		tb_putc(w->tb, '\n');
}

void json_begin_object(struct json_writer *w) { begin(w, 1, 0); }
void json_end_object(struct json_writer *w) { end(w, 1); }
void json_begin_array(struct json_writer *w) { begin(w, 0, 0); }
void json_begin_inline_array(struct json_writer *w) { begin(w, 0, 1); }
void json_end_array(struct json_writer *w) { end(w, 0); }

void json_escape(struct text_buf *tb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '"':
			tb_puts(tb, "\\\"");
			break;
		case '\\':
			tb_puts(tb, "\\\\");
			break;
		case '\n':
			tb_puts(tb, "\\n");
			break;
		case '\r':
			tb_puts(tb, "\\r");
			break;
		case '\t':
			tb_puts(tb, "\\t");
			break;
		case '\b':
			tb_puts(tb, "\\b");
			break;
		case '\f':
			tb_puts(tb, "\\f");
			break;
		case '<':
			/* Still JSON, and safe inside an HTML <script>
			 * element, where report.html carries it. */
			tb_puts(tb, "\\u003c");
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				tb_printf(tb, "\\u%04x", c);
			else
				tb_putc(tb, (char)c);
		}
	}
}

void json_key(struct json_writer *w, const char *key)
{
	if (w->depth == 0 || !w->is_object[w->depth - 1] || w->after_key) {
		w->error = 1;
		return;
	}
	if (w->count[w->depth - 1]++)
		tb_putc(w->tb, ',');
	newline_indent(w);
	tb_putc(w->tb, '"');
	json_escape(w->tb, key);
	tb_puts(w->tb, "\": ");
	w->after_key = 1;
}

void json_string(struct json_writer *w, const char *s)
{
	before_value(w);
	tb_putc(w->tb, '"');
	json_escape(w->tb, s);
	tb_putc(w->tb, '"');
}

void json_uint(struct json_writer *w, uint64_t v)
{
	before_value(w);
	tb_printf(w->tb, "%llu", (unsigned long long)v);
}

void json_int(struct json_writer *w, int64_t v)
{
	before_value(w);
	tb_printf(w->tb, "%lld", (long long)v);
}

void json_milli(struct json_writer *w, int64_t milli)
{
	uint64_t mag = milli < 0 ? (uint64_t)0 - (uint64_t)milli : (uint64_t)milli;

	before_value(w);
	tb_printf(w->tb, "%s%llu.%03llu", milli < 0 ? "-" : "",
		  (unsigned long long)(mag / 1000),
		  (unsigned long long)(mag % 1000));
}

void json_bool(struct json_writer *w, int v)
{
	before_value(w);
	tb_puts(w->tb, v ? "true" : "false");
}

void json_null(struct json_writer *w)
{
	before_value(w);
	tb_puts(w->tb, "null");
}

void json_kv_string(struct json_writer *w, const char *key, const char *s)
{
	json_key(w, key);
	json_string(w, s);
}

void json_kv_uint(struct json_writer *w, const char *key, uint64_t v)
{
	json_key(w, key);
	json_uint(w, v);
}

void json_kv_uint_or_null(struct json_writer *w, const char *key, uint64_t v)
{
	json_key(w, key);
	if (v)
		json_uint(w, v);
	else
		json_null(w);
}

void json_kv_int(struct json_writer *w, const char *key, int64_t v)
{
	json_key(w, key);
	json_int(w, v);
}
