/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Valid UTF-8 from bytes that may not be: Prometheus takes a label value
 * only as UTF-8, while a cgroup's name, and what a container runtime
 * answers, is whatever bytes someone chose. A byte that does not belong to
 * a valid character is written as U+FFFD and its value in two lowercase
 * hex digits ("x", 0xff, "y" becomes "x\uFFFDffy"). So are the bytes of a
 * U+FFFD that was there already: every U+FFFD in the result starts such an
 * escape, the mapping can be undone, and two different names never come
 * out the same.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The most a byte becomes: U+FFFD (3 bytes) and two hex digits. */
#define UTF8_ESCAPE_LEN 5

/* U+FFFD, the escape, as UTF-8. */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

/*
 * The length of the valid character at s, of at most n bytes: 1 to 4, or 0
 * where the bytes are none (a stray continuation byte, an overlong form, a
 * surrogate, a value past U+10FFFF, a sequence cut short).
 */
static inline size_t utf8_char_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len;
	unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */

	if (n == 0)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		len = 2;
	else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3;
		lo = u[0] == 0xe0 ? 0xa0 : 0x80; /* not overlong */
		hi = u[0] == 0xed ? 0x9f : 0xbf; /* not a surrogate */
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4;
		lo = u[0] == 0xf0 ? 0x90 : 0x80; /* not overlong */
		hi = u[0] == 0xf4 ? 0x8f : 0xbf; /* not past U+10FFFF */
	} else
		return 0;
	if (n < len || u[1] < lo || u[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (u[i] < 0x80 || u[i] > 0xbf)
			return 0;
	return len;
}

/*
 * Writes the character or escaped byte at s (n > 0 bytes left, s[0] not
 * ASCII) at dst, which needs UTF8_ESCAPE_LEN bytes; returns the end and
 * sets *ret_used to the bytes of s it took.
 */
static inline char *utf8_write_escaped(char *dst, const char *s, size_t n, size_t *ret_used)
{
	static const char hex[] = "0123456789abcdef";
	size_t len = utf8_char_len(s, n);

	if (len > 0 && !(len == 3 && s[0] == UTF8_REPLACEMENT[0] && s[1] == UTF8_REPLACEMENT[1] &&
			 s[2] == UTF8_REPLACEMENT[2])) {
		for (size_t i = 0; i < len; i++)
			*dst++ = s[i];
		*ret_used = len;
		return dst;
	}
	for (size_t i = 0; i < 3; i++)
		*dst++ = UTF8_REPLACEMENT[i];
	*dst++ = hex[(unsigned char)s[0] >> 4];
	*dst++ = hex[(unsigned char)s[0] & 0xf];
	*ret_used = 1;
	return dst;
}

/* Whether s[0, n) is valid UTF-8 without U+FFFD, so that escaping leaves it as it is. */
static inline bool utf8_unchanged(const char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t len;

		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		len = utf8_char_len(s + i, n - i);
		if (len == 0 ||
		    (len == 3 && s[i] == UTF8_REPLACEMENT[0] && s[i + 1] == UTF8_REPLACEMENT[1] &&
		     s[i + 2] == UTF8_REPLACEMENT[2]))
			return false;
		i += len;
	}
	return true;
}
