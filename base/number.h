/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one parser of unsigned decimal numbers, for cgroup files and config
 * values alike. Nothing uses atoi/strtoul: those accept signs, leading
 * blanks and silent truncation, which would turn a changed kernel format or
 * a typo into a plausible-looking number.
 */
#pragma once

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BYTES_ONES  UINT64_C(0x0101010101010101)
#define BYTES_HIGHS UINT64_C(0x8080808080808080)

/* Eight bytes from p, the first lowest whatever the machine's byte order. */
static inline uint64_t load_le64(const char *p)
{
	uint64_t x;

	memcpy(&x, p, sizeof(x));
	return le64toh(x);
}

/*
 * The high bit of every byte of x below c (c <= 0x80). Bytes above the
 * lowest such one may be flagged falsely, by the borrow, but never below.
 */
static inline uint64_t bytes_below(uint64_t x, unsigned char c)
{
	return (x - BYTES_ONES * c) & ~x & BYTES_HIGHS;
}

/* Whether the eight bytes of x are all '0'...'9': high nibble 3, still 3 once 6 is added. */
static inline bool eight_digits(uint64_t x)
{
	uint64_t hi = UINT64_C(0xf0f0f0f0f0f0f0f0);

	return ((x & hi) | (((x + BYTES_ONES * 6) & hi) >> 4)) == BYTES_ONES * 0x33;
}

/*
 * The number the eight digits of x spell, the first byte the most
 * significant digit: adjacent digits are combined into pairs, pairs into
 * fours and fours into eight in three multiplications.
 */
static inline uint64_t eight_digits_value(uint64_t x)
{
	uint64_t lanes = UINT64_C(0x000000ff000000ff);

	x -= BYTES_ONES * '0';
	x = x * 10 + (x >> 8);
	return ((x & lanes) * (100 + (UINT64_C(1000000) << 32)) +
		((x >> 16) & lanes) * (1 + (UINT64_C(10000) << 32))) >>
	       32;
}

/*
 * Strict unsigned decimal: digits only, no sign, no blanks, at least one,
 * -EINVAL otherwise and -ERANGE past UINT64_MAX. Inline, because the cgroup
 * file parsers are little else than calls of it.
 */
static inline int number_parse_u64(const char *p, size_t len, uint64_t *ret)
{
	uint64_t v = 0;

	/* 19 digits always fit: only longer numbers pay for the overflow check. */
	size_t i = 0, safe = len < 19 ? len : 19;

	if (len == 0)
		return -EINVAL;
	/* Counters and limits run to 19 digits: take eight at a time. */
	for (; safe - i >= 8; i += 8) {
		uint64_t x = load_le64(p + i);

		if (!eight_digits(x))
			return -EINVAL;
		v = v * 100000000 + eight_digits_value(x);
	}
	for (; i < safe; i++) {
		unsigned d = (unsigned char)p[i] - '0';

		if (d > 9)
			return -EINVAL;
		v = v * 10 + d;
	}
	for (; i < len; i++) {
		unsigned d = (unsigned char)p[i] - '0';

		if (d > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}
