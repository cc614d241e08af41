#include "arch/lib/fmt.h"

#include <stdint.h>

struct out {
	char *buf;
	size_t size;
	size_t pos;
};

static void emit(struct out *o, char c)
{
	if (o->size && o->pos < o->size - 1)
		o->buf[o->pos] = c;
	o->pos++;
}

static void emit_padded(struct out *o, const char *s, size_t len, int width,
			int left, char pad)
{
	int fill = width > (int)len ? width - (int)len : 0;

	if (!left && pad == '0' && len && (*s == '-' || *s == '+')) {
		/* Zero padding goes between the sign and the digits. */
		emit(o, *s++);
		len--;
	}
	if (!left)
		while (fill-- > 0)
			emit(o, pad);
	while (len--)
		emit(o, *s++);
	if (left)
		while (fill-- > 0)
			emit(o, ' ');
}

static size_t utoa(uint64_t v, unsigned base, int upper, char *tmp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char rev[24];
	size_t n = 0, i;

	do {
		rev[n++] = digits[v % base];
		v /= base;
	} while (v);
	for (i = 0; i < n; i++)
		tmp[i] = rev[n - 1 - i];
	return n;
}

int fmt_vsnprintf(char *buf, size_t size, const char *f, va_list ap)
{
	struct out o = { buf, size, 0 };

	for (; *f; f++) {
		int left = 0, plus = 0, width = 0, precision = -1, lng = 0;
		int is_size = 0;
		char pad = ' ';
		char tmp[32];
		size_t n;

		if (*f != '%') {
			emit(&o, *f);
			continue;
		}
		f++;
		for (;; f++) {
			if (*f == '-')
				left = 1;
			else if (*f == '+')
				plus = 1;
			else if (*f == '0')
				pad = '0';
			else
				break;
		}
		if (*f == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				left = 1;
				width = -width;
			}
			f++;
		} else {
			while (*f >= '0' && *f <= '9')
				width = width * 10 + (*f++ - '0');
		}
		if (*f == '.') {
			f++;
			precision = 0;
			if (*f == '*') {
				precision = va_arg(ap, int);
				f++;
			} else {
				while (*f >= '0' && *f <= '9')
					precision = precision * 10 + (*f++ - '0');
			}
		}
		for (;; f++) {
			if (*f == 'l')
				lng++;
			else if (*f == 'z')
				is_size = 1;
			else if (*f != 'h')
				break;
		}
		if (left)
			pad = ' ';

		switch (*f) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			/* The precision first: "%.*s" may point into text that
			 * has no NUL after the bytes it names. */
			for (n = 0; (precision < 0 || (int)n < precision) && s[n]; n++)
				;
			emit_padded(&o, s, n, width, left, ' ');
			break;
		}
		case 'c':
			tmp[0] = (char)va_arg(ap, int);
			emit_padded(&o, tmp, 1, width, left, ' ');
			break;
		case 'd':
		case 'i': {
			int64_t v;
			uint64_t mag;
			if (lng >= 2)
				v = va_arg(ap, long long);
			else if (lng == 1 || is_size)
				v = va_arg(ap, long);
			else
				v = va_arg(ap, int);
			mag = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
			n = 0;
			if (v < 0)
				tmp[n++] = '-';
			else if (plus)
				tmp[n++] = '+';
			n += utoa(mag, 10, 0, tmp + n);
			emit_padded(&o, tmp, n, width, left, pad);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'p': {
			uint64_t v;
			unsigned base = *f == 'u' ? 10 : 16;
			if (*f == 'p') {
				v = (uint64_t)(uintptr_t)va_arg(ap, void *);
				tmp[0] = '0';
				tmp[1] = 'x';
				n = 2 + utoa(v, 16, 0, tmp + 2);
				emit_padded(&o, tmp, n, width, left, ' ');
				break;
			}
			if (lng >= 2)
				v = va_arg(ap, unsigned long long);
			else if (lng == 1 || is_size)
				v = va_arg(ap, unsigned long);
			else
				v = va_arg(ap, unsigned int);
			n = utoa(v, base, *f == 'X', tmp);
			emit_padded(&o, tmp, n, width, left, pad);
			break;
		}
		case '%':
			emit(&o, '%');
			break;
		case '\0':
			f--;
			break;
		default:
			/* Unknown conversion: show it rather than guess. */
			emit(&o, '%');
			emit(&o, *f);
			break;
		}
	}
	if (size)
		buf[o.pos < size ? o.pos : size - 1] = '\0';
	return (int)o.pos;
}

int fmt_snprintf(char *buf, size_t size, const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	n = fmt_vsnprintf(buf, size, format, ap);
	va_end(ap);
	return n;
}

void tb_continue(struct text_buf *tb, char *data, size_t cap)
{
	tb_init(tb, data, 0);
	tb->cap = cap;
	while (tb->len + 1 < cap && data[tb->len])
		tb->len++;
	if (cap)
		data[tb->len] = '\0';
}

void tb_init(struct text_buf *tb, char *data, size_t cap)
{
	tb->data = data;
	tb->cap = cap;
	tb->len = 0;
	tb->overflow = 0;
	if (cap)
		data[0] = '\0';
}

void tb_printf(struct text_buf *tb, const char *format, ...)
{
	size_t room = tb->cap > tb->len ? tb->cap - tb->len : 0;
	va_list ap;
	int n;

	va_start(ap, format);
	n = fmt_vsnprintf(tb->data + tb->len, room, format, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		tb->overflow = 1;
		tb->len = tb->cap ? tb->cap - 1 : 0;
	} else {
		tb->len += (size_t)n;
	}
}

void tb_puts(struct text_buf *tb, const char *s)
{
	tb_printf(tb, "%s", s);
}

void tb_putc(struct text_buf *tb, char c)
{
	tb_printf(tb, "%c", c);
}

int bytes_eq(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	size_t i;

	for (i = 0; i < n; i++)
		if (x[i] != y[i])
			return 0;
	return 1;
}

int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}
