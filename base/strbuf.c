/* SPDX-License-Identifier: GPL-2.0-only */
/* The growable buffer behind walk paths and the rendered exposition. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"

bool strbuf_reserve(struct strbuf *b, size_t extra)
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

/*
 * The number of decimal digits of v, from its bit length: 1233/4096 is
 * just above log10(2), so t is the digit count or one less, and one
 * comparison with a power of ten settles it.
 */
static size_t decimal_digits(uint64_t v)
{
	/* clang-format off */
	static const uint64_t pow10[] = {
	    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
	    1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
	    100000000000000u, 1000000000000000u, 10000000000000000u, 100000000000000000u,
	    1000000000000000000u, 10000000000000000000u,
	};
	/* clang-format on */
	size_t t;

	if (v < 10)
		return 1;
	t = (size_t)(64 - __builtin_clzll(v)) * 1233 >> 12;
	return t + (v >= pow10[t]);
}

/*
 * Decimal without printf, two digits a division and written in place once
 * the length is known: the exposition prints a number on every line.
 */
char *format_u64(char *dst, uint64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	char *end = dst + decimal_digits(v), *p = end;

	while (v >= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(p - 2, pairs + 2 * v, 2);
	else
		p[-1] = (char)('0' + v);
	return end;
}

void strbuf_put_u64(struct strbuf *b, uint64_t v)
{
	char *p = strbuf_space(b, 20);

	if (p)
		strbuf_commit(b, format_u64(p, v));
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
