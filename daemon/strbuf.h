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

struct strbuf {
	char *buf;
	size_t len;
	size_t cap;
	bool failed;
};

void strbuf_append(struct strbuf *b, const char *s, size_t n);
void strbuf_puts(struct strbuf *b, const char *s);
void strbuf_putc(struct strbuf *b, char c);
void strbuf_put_u64(struct strbuf *b, uint64_t v);
void strbuf_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_truncate(struct strbuf *b, size_t len);
int strbuf_status(const struct strbuf *b);
void strbuf_done(struct strbuf *b);
