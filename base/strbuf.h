/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A growable, always NUL-terminated string buffer. Allocation failure is
 * sticky: appends after a failure are no-ops and strbuf_status() reports it
 * once, so a renderer with hundreds of appends checks a single result.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
	bool failed;
};

/* Grows the buffer for extra more bytes and the NUL; false once it has failed. */
bool strbuf_reserve(struct strbuf *b, size_t extra);

/*
 * Room for n more bytes (and the NUL) at the end, to be filled and then
 * closed with strbuf_commit(); NULL once the buffer has failed. Renderers
 * that write a whole line at a time reserve once instead of per piece, and
 * the common case stays one compare: the buffer has long reached its size.
 */
static inline char *strbuf_space(struct strbuf *b, size_t n)
{
	if (!b->failed && n < b->cap - b->len)
		return b->buf + b->len;
	return strbuf_reserve(b, n) ? b->buf + b->len : NULL;
}

static inline void strbuf_commit(struct strbuf *b, char *end)
{
	b->len = (size_t)(end - b->buf);
	*end = '\0';
}

/* The appends are inline: an exposition makes several per sample. */
static inline void strbuf_append(struct strbuf *b, const char *s, size_t n)
{
	char *p = strbuf_space(b, n);

	if (p)
		strbuf_commit(b, (char *)memcpy(p, s, n) + n);
}

static inline void strbuf_puts(struct strbuf *b, const char *s)
{
	strbuf_append(b, s, strlen(s));
}

static inline void strbuf_putc(struct strbuf *b, char c)
{
	strbuf_append(b, &c, 1);
}

/* v in decimal at dst, without printf; returns the end. dst needs 20 bytes. */
char *format_u64(char *dst, uint64_t v);
void strbuf_put_u64(struct strbuf *b, uint64_t v);
void strbuf_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_truncate(struct strbuf *b, size_t len);
int strbuf_status(const struct strbuf *b);
void strbuf_done(struct strbuf *b);
