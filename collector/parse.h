/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The parsing contract shared by every reader: input is (buf, len), never a
 * NUL-terminated string, so fixtures and fuzzers feed exactly what the kernel
 * printed. Numbers are strict unsigned decimal; "max" means unlimited.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* "max" in a limit file. No real counter or limit reaches it. */
#define CG_UNLIMITED UINT64_MAX

/* At most this many keys per key table, so "found" fits one bitmask. */
#define KEYS_MAX 64

struct span {
	const char *ptr;
	size_t len;
};

static inline struct span span_make(const char *buf, size_t len)
{
	return (struct span){.ptr = buf, .len = len};
}

/*
 * The tokenizers are inline: a scrape runs them on every line and word of
 * every file it reads, mostly words of a few bytes, where a call costs
 * more than the scan.
 */

/* Whether s is lit; stops at the first differing byte, without strlen(lit). */
static inline bool span_eq(struct span s, const char *lit)
{
	size_t i;

	for (i = 0; i < s.len; i++)
		if (lit[i] == '\0' || lit[i] != s.ptr[i])
			return false;
	return lit[i] == '\0';
}

/* Splits off one line; the last line may lack its '\n'. */
static inline bool span_next_line(struct span *rest, struct span *ret_line)
{
	const char *nl;

	if (rest->len == 0)
		return false;
	nl = memchr(rest->ptr, '\n', rest->len);
	if (!nl) {
		*ret_line = *rest;
		rest->len = 0;
		return true;
	}
	*ret_line = span_make(rest->ptr, (size_t)(nl - rest->ptr));
	*rest = span_make(nl + 1, rest->len - ret_line->len - 1);
	return true;
}

static inline bool span_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Splits off one blank-separated word, skipping leading blanks. */
static inline bool span_next_word(struct span *rest, struct span *ret_word)
{
	const char *p = rest->ptr, *end = p + rest->len, *start;

	while (p < end && span_is_blank(*p))
		p++;
	if (p == end) {
		rest->len = 0;
		return false;
	}
	start = p;
	/* Words are letters and digits, all above ' ': one compare per byte. */
	while (p < end && ((unsigned char)*p > ' ' || !span_is_blank(*p)))
		p++;
	*ret_word = span_make(start, (size_t)(p - start));
	*rest = span_make(p, (size_t)(end - p));
	return true;
}

static inline bool span_split(struct span s, char sep, struct span *ret_left,
			      struct span *ret_right)
{
	const char *p = memchr(s.ptr, sep, s.len);

	if (!p)
		return false;
	*ret_left = span_make(s.ptr, (size_t)(p - s.ptr));
	*ret_right = span_make(p + 1, s.len - ret_left->len - 1);
	return true;
}

int parse_u64(struct span s, uint64_t *ret);
int parse_u64_or_max(struct span s, uint64_t *ret);
int parse_s64(struct span s, int64_t *ret);
int parse_u32(struct span s, uint32_t *ret);

int parse_single_value(const char *buf, size_t len, uint64_t *ret);
int parse_single_s64(const char *buf, size_t len, int64_t *ret);

/*
 * The keyed parsers keep the lookup table they build from keys for later
 * calls with the same key pointers, so the keys must be strings that never
 * change, such as literals; the array holding them may be rebuilt per call.
 */
int parse_flat_keyed(const char *buf, size_t len, const char *const *keys, size_t n_keys,
		     uint64_t *values, uint64_t *ret_found);
int parse_nested_fields(struct span fields, const char *const *keys, size_t n_keys,
			uint64_t *values, uint64_t *ret_found);
int parse_u64_list(const char *buf, size_t len, uint64_t **ret, size_t *ret_n);
int parse_devnum(struct span s, uint32_t *ret_major, uint32_t *ret_minor);
