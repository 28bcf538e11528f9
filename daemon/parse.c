/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tokenizing and checked number parsing for cgroupfs files. Nothing here uses
 * atoi/strtoul: those accept signs, leading blanks and silent truncation,
 * which would turn a changed kernel format into plausible-looking numbers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

int parse_u64(struct span s, uint64_t *ret)
{
	uint64_t v = 0;

	/* 19 digits always fit: only longer numbers pay for the overflow check. */
	size_t i, safe = s.len < 19 ? s.len : 19;

	if (s.len == 0)
		return -EINVAL;
	for (i = 0; i < safe; i++) {
		unsigned d = (unsigned char)s.ptr[i] - '0';

		if (d > 9)
			return -EINVAL;
		v = v * 10 + d;
	}
	for (; i < s.len; i++) {
		unsigned d = (unsigned char)s.ptr[i] - '0';

		if (d > 9)
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*ret = v;
	return 0;
}

int parse_u64_or_max(struct span s, uint64_t *ret)
{
	if (s.len == 3 && memcmp(s.ptr, "max", 3) == 0) {
		*ret = CG_UNLIMITED;
		return 0;
	}
	return parse_u64(s, ret);
}

int parse_s64(struct span s, int64_t *ret)
{
	bool neg = s.len > 0 && s.ptr[0] == '-';
	uint64_t v;
	int r;

	if (neg)
		s = span_make(s.ptr + 1, s.len - 1);
	r = parse_u64(s, &v);
	if (r < 0)
		return r;
	if (v > (uint64_t)INT64_MAX + neg)
		return -ERANGE;
	*ret = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

int parse_u32(struct span s, uint32_t *ret)
{
	uint64_t v;
	int r = parse_u64(s, &v);

	if (r < 0)
		return r;
	if (v > UINT32_MAX)
		return -ERANGE;
	*ret = (uint32_t)v;
	return 0;
}

/* The one word of a single-value file such as memory.max ("max\n" or "123\n"). */
static int single_word(const char *buf, size_t len, struct span *ret)
{
	struct span rest = span_make(buf, len), word, extra;

	if (!span_next_word(&rest, &word))
		return -EBADMSG;
	/* Exactly one word: trailing blanks and one newline are all that may follow. */
	if (span_next_word(&rest, &extra) && !span_eq(extra, "\n"))
		return -EBADMSG;
	if (word.len > 0 && word.ptr[word.len - 1] == '\n')
		word.len--;
	*ret = word;
	return 0;
}

int parse_single_value(const char *buf, size_t len, uint64_t *ret)
{
	struct span w;
	int r = single_word(buf, len, &w);

	return r < 0 ? r : parse_u64_or_max(w, ret) < 0 ? -EBADMSG : 0;
}

int parse_single_s64(const char *buf, size_t len, int64_t *ret)
{
	struct span w;
	int r = single_word(buf, len, &w);

	return r < 0 ? r : parse_s64(w, ret) < 0 ? -EBADMSG : 0;
}

/*
 * memory.stat has ~45 lines and we want a dozen: keys are found through a
 * small open-addressing table hashed on length and first and last byte,
 * so that a line whose key is not wanted nearly always costs one probe
 * into an empty slot, and a wanted one a single compare. The table has
 * over twice KEYS_MAX slots, so probing always ends.
 */
#define KEY_SLOTS 128

struct key_table {
	const char *const *keys;
	size_t len[KEYS_MAX];
	uint8_t slot[KEY_SLOTS]; /* 1 + index of a key, 0 for none */
};

static inline unsigned key_hash(const char *key, size_t len)
{
	return ((unsigned)len * 31u + (unsigned char)key[0] * 7u + (unsigned char)key[len - 1]) &
	       (KEY_SLOTS - 1);
}

static int key_table_init(struct key_table *t, const char *const *keys, size_t n_keys)
{
	if (n_keys > KEYS_MAX)
		return -E2BIG;
	t->keys = keys;
	memset(t->slot, 0, sizeof(t->slot));
	for (size_t i = 0; i < n_keys; i++) {
		unsigned h;

		t->len[i] = strlen(keys[i]);
		if (t->len[i] == 0)
			continue; /* no key is empty */
		for (h = key_hash(keys[i], t->len[i]); t->slot[h]; h = (h + 1) & (KEY_SLOTS - 1))
			;
		t->slot[h] = (uint8_t)(i + 1);
	}
	return 0;
}

/* The index of key in the table, -1 if it is not there; the first of duplicates. */
static inline int key_index(const struct key_table *t, struct span key)
{
	if (key.len == 0)
		return -1;
	for (unsigned h = key_hash(key.ptr, key.len);; h = (h + 1) & (KEY_SLOTS - 1)) {
		unsigned i = t->slot[h];

		if (i == 0)
			return -1;
		if (t->len[i - 1] == key.len && memcmp(t->keys[i - 1], key.ptr, key.len) == 0)
			return (int)i - 1;
	}
}

static int store_keyed(int idx, struct span value, uint64_t *values, uint64_t *found)
{
	if (idx < 0)
		return 0; /* unknown key: newer kernels add keys, that is not an error */
	if (*found & (UINT64_C(1) << idx))
		return -EBADMSG;
	if (parse_u64_or_max(value, &values[idx]) < 0)
		return -EBADMSG;
	*found |= UINT64_C(1) << idx;
	return 0;
}

/*
 * The first word of a line, as span_next_word() gives it. Kernel lines are
 * "key value", and most keys of memory.stat are not wanted: memchr() finds
 * the key's end faster than a byte loop, which is left for anything else.
 */
static bool next_key(struct span *line, struct span *ret_key)
{
	const char *sp = line->len > 0 && !span_is_blank(line->ptr[0])
			     ? memchr(line->ptr, ' ', line->len)
			     : NULL;

	if (!sp || memchr(line->ptr, '\t', (size_t)(sp - line->ptr)))
		return span_next_word(line, ret_key);
	*ret_key = span_make(line->ptr, (size_t)(sp - line->ptr));
	*line = span_make(sp, line->len - ret_key->len);
	return true;
}

/*
 * "key value" per line (memory.stat, cpu.stat, memory.events, pids.events...).
 * values[i] receives the value of keys[i]; bit i of *ret_found says it was
 * present. A known key twice or with a non-number is -EBADMSG: the format
 * changed and silently picking one would publish wrong data.
 */
int parse_flat_keyed(const char *buf, size_t len, const char *const *keys, size_t n_keys,
		     uint64_t *values, uint64_t *ret_found)
{
	struct span rest = span_make(buf, len), line;
	struct key_table table;
	uint64_t found = 0;
	int r = key_table_init(&table, keys, n_keys);

	if (r < 0)
		return r;
	while (span_next_line(&rest, &line)) {
		struct span key, value;
		int idx;

		if (!next_key(&line, &key))
			continue;
		idx = key_index(&table, key);
		if (idx < 0)
			continue;
		/*
		 * The value is the rest of the line between blanks: a second word
		 * leaves a blank inside it, which the number parser rejects.
		 */
		value = span_trim_blanks(line);
		if (value.len == 0)
			return -EBADMSG;
		r = store_keyed(idx, value, values, &found);
		if (r < 0)
			return r;
	}
	*ret_found = found;
	return 0;
}

/* "k1=v1 k2=v2 ..." (the tail of io.stat, io.max and *.pressure lines). */
int parse_nested_fields(struct span fields, const char *const *keys, size_t n_keys,
			uint64_t *values, uint64_t *ret_found)
{
	struct span word;
	struct key_table table;
	uint64_t found = 0;
	int r = key_table_init(&table, keys, n_keys);

	if (r < 0)
		return r;
	while (span_next_word(&fields, &word)) {
		struct span key, value;

		if (!span_split(word, '=', &key, &value))
			return -EBADMSG;
		r = store_keyed(key_index(&table, key), value, values, &found);
		if (r < 0)
			return r;
	}
	*ret_found = found;
	return 0;
}

/* Blank-separated numbers on one line (cpuacct.usage_percpu: "1 2 3 \n"). */
int parse_u64_list(const char *buf, size_t len, uint64_t **ret, size_t *ret_n)
{
	struct span rest = span_make(buf, len), line = span_make(buf, 0), word;
	uint64_t *v = NULL;
	size_t n = 0, cap = 0;

	/* one line only; an empty file is an empty list */
	if (span_next_line(&rest, &line) && rest.len > 0)
		return -EBADMSG;
	while (span_next_word(&line, &word)) {
		if (n == cap) {
			uint64_t *bigger;

			cap = cap ? cap * 2 : 16;
			bigger = realloc(v, cap * sizeof(*v));
			if (!bigger) {
				free(v);
				return -ENOMEM;
			}
			v = bigger;
		}
		if (parse_u64(word, &v[n]) < 0) {
			free(v);
			return -EBADMSG;
		}
		n++;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/* "MAJ:MIN" as printed for block devices. */
int parse_devnum(struct span s, uint32_t *ret_major, uint32_t *ret_minor)
{
	struct span maj, min;

	if (!span_split(s, ':', &maj, &min))
		return -EBADMSG;
	if (parse_u32(maj, ret_major) < 0 || parse_u32(min, ret_minor) < 0)
		return -EBADMSG;
	return 0;
}
