/* Minimal printf-style formatting, free of libc and firmware headers so the
 * same code formats text in the guest (before and after ExitBootServices)
 * and in the host unit tests. */
#ifndef IRQLAB_ARCH_LIB_FMT_H
#define IRQLAB_ARCH_LIB_FMT_H

#include <stdarg.h>
#include <stddef.h>

/* Supports %s %c %d %i %u %x %X %p %%, the length modifiers h, l, ll and z,
 * the flags '-', '+' (signed conversions) and '0', a field width and a precision ('*' for both).
 * Always NUL-terminates when size > 0. Returns the length the full output
 * would have had, like C99 vsnprintf. */
int fmt_vsnprintf(char *buf, size_t size, const char *format, va_list ap);
int fmt_snprintf(char *buf, size_t size, const char *format, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether the first `n` bytes at `a` and `b` are equal. */
int bytes_eq(const void *a, const void *b, size_t n);

/* Whether two NUL-terminated strings are equal. */
int str_eq(const char *a, const char *b);

/* An append-only text buffer: formatting past the end sets `overflow`
 * instead of writing out of bounds. */
struct text_buf {
	char *data;
	size_t cap;
	size_t len;
	int overflow;
};

void tb_init(struct text_buf *tb, char *data, size_t cap);
/* As tb_init, but keeps the string `data` already holds, to append. */
void tb_continue(struct text_buf *tb, char *data, size_t cap);
void tb_printf(struct text_buf *tb, const char *format, ...)
	__attribute__((format(printf, 2, 3)));
void tb_puts(struct text_buf *tb, const char *s);
void tb_putc(struct text_buf *tb, char c);

#endif
