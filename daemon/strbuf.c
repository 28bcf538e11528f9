/* SPDX-License-Identifier: GPL-2.0-only */
/* The growable buffer behind walk paths and the rendered exposition. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static bool strbuf_reserve(struct strbuf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (b->failed)
		return false;
	if (extra > SIZE_MAX / 2 - b->len) {
		b->failed = true;
		return false;
	}
	need = b->len + extra + 1;
	if (need <= b->cap)
		return true;

	cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap *= 2;
	p = realloc(b->buf, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->buf = p;
	b->cap = cap;
	return true;
}

void strbuf_append(struct strbuf *b, const char *s, size_t n)
{
	if (!strbuf_reserve(b, n))
		return;
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

void strbuf_puts(struct strbuf *b, const char *s)
{
	strbuf_append(b, s, strlen(s));
}

void strbuf_putc(struct strbuf *b, char c)
{
	strbuf_append(b, &c, 1);
}

/* Decimal without printf: the exposition prints a number on every line. */
void strbuf_put_u64(struct strbuf *b, uint64_t v)
{
	char digits[20], *p = digits + sizeof(digits);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	strbuf_append(b, p, (size_t)(digits + sizeof(digits) - p));
}

void strbuf_printf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = true;
		return;
	}
	if (!strbuf_reserve(b, (size_t)n))
		return;

	va_start(ap, fmt);
	vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void strbuf_truncate(struct strbuf *b, size_t len)
{
	if (len < b->len) {
		b->len = len;
		b->buf[len] = '\0';
	}
}

int strbuf_status(const struct strbuf *b)
{
	return b->failed ? -ENOMEM : 0;
}

void strbuf_done(struct strbuf *b)
{
	free(b->buf);
	*b = (struct strbuf){0};
}
