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

bool span_eq(struct span s, const char *lit);
bool span_next_line(struct span *rest, struct span *ret_line);
bool span_next_word(struct span *rest, struct span *ret_word);
bool span_split(struct span s, char sep, struct span *ret_left, struct span *ret_right);

int parse_u64(struct span s, uint64_t *ret);
int parse_u64_or_max(struct span s, uint64_t *ret);
int parse_s64(struct span s, int64_t *ret);
int parse_u32(struct span s, uint32_t *ret);

int parse_single_value(const char *buf, size_t len, uint64_t *ret);
int parse_single_s64(const char *buf, size_t len, int64_t *ret);

int parse_flat_keyed(const char *buf, size_t len, const char *const *keys, size_t n_keys,
		     uint64_t *values, uint64_t *ret_found);
int parse_nested_fields(struct span fields, const char *const *keys, size_t n_keys,
			uint64_t *values, uint64_t *ret_found);
int parse_u64_list(const char *buf, size_t len, uint64_t **ret, size_t *ret_n);
int parse_devnum(struct span s, uint32_t *ret_major, uint32_t *ret_minor);
