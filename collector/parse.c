/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tokenizing and checked number parsing for cgroupfs files. Nothing here uses
 * atoi/strtoul: those accept signs, leading blanks and silent truncation,
 * which would turn a changed kernel format into plausible-looking numbers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/number.h"
#include "collector/parse.h"

static inline int parse_digits_or_max(struct span s, uint64_t *ret)
{
	if (s.len == 3 && memcmp(s.ptr, "max", 3) == 0) {
		*ret = CG_UNLIMITED;
		return 0;
	}
	return number_parse_u64(s.ptr, s.len, ret);
}

int parse_u64(struct span s, uint64_t *ret)
{
	return number_parse_u64(s.ptr, s.len, ret);
}

int parse_u64_or_max(struct span s, uint64_t *ret)
{
	return parse_digits_or_max(s, ret);
}

int parse_s64(struct span s, int64_t *ret)
{
	bool neg = s.len > 0 && s.ptr[0] == '-';
	uint64_t v;
	int r;

	if (neg)
		s = span_make(s.ptr + 1, s.len - 1);
	r = number_parse_u64(s.ptr, s.len, &v);
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
	int r = number_parse_u64(s.ptr, s.len, &v);

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

/* A single-value file's number: unsigned or "max", or signed (cfs_quota_us's -1). */
static inline int parse_number(struct span s, bool is_signed, uint64_t *ret)
{
	int64_t v;
	int r;

	if (!is_signed)
		return parse_digits_or_max(s, ret);
	r = parse_s64(s, &v);
	if (r < 0)
		return r;
	*ret = (uint64_t)v;
	return 0;
}

/*
 * Tried first on the file as the kernel prints it, "123\n", without its
 * newline. A number there holds no blank, so single_word() would find the
 * same word: only what does not parse as it is needs splitting into words.
 * Inlined, the test of is_signed goes.
 */
static inline int parse_single(const char *buf, size_t len, bool is_signed, uint64_t *ret)
{
	struct span whole = span_make(buf, len > 0 && buf[len - 1] == '\n' ? len - 1 : len), w;
	int r;

	if (parse_number(whole, is_signed, ret) == 0)
		return 0;
	r = single_word(buf, len, &w);
	if (r < 0)
		return r;
	return parse_number(w, is_signed, ret) < 0 ? -EBADMSG : 0;
}

int parse_single_value(const char *buf, size_t len, uint64_t *ret)
{
	return parse_single(buf, len, false, ret);
}

int parse_single_s64(const char *buf, size_t len, int64_t *ret)
{
	uint64_t v;
	int r = parse_single(buf, len, true, &v);

	if (r < 0)
		return r;
	*ret = (int64_t)v;
	return 0;
}

/*
 * memory.stat has many more lines than we want: keys are found through a
 * small open-addressing table hashed on length and first and last byte,
 * so that a line whose key is not wanted nearly always costs one probe
 * into an empty slot, and a wanted one a single compare. The table has
 * over twice KEYS_MAX slots, so probing always ends.
 */
#define KEY_SLOTS 128

/*
 * A file read again and again lists the same keys in the same order: the
 * kernel prints memory.stat from a fixed array. The plan remembers, line by
 * line, the key the last parse found there and its table index, so that
 * the next parse compares a line's key with the one expected instead of
 * delimiting, hashing and looking it up. A line that differs is parsed as
 * before and the plan is learnt anew from there.
 */
#define PLAN_LINES 96
#define PLAN_TEXT  2048

struct key_plan {
	unsigned n_lines;
	uint8_t idx[PLAN_LINES]; /* 1 + index of the line's key, 0 for a key not wanted */
	uint8_t len[PLAN_LINES];
	uint16_t off[PLAN_LINES]; /* of the key's text in text */
	size_t text_len;
	char text[PLAN_TEXT + 8]; /* room for an eight-byte load at any key */
};

struct key_table {
	size_t n_keys;
	const char *keys[KEYS_MAX];
	size_t len[KEYS_MAX];
	uint8_t slot[KEY_SLOTS]; /* 1 + index of a key, 0 for none */
	struct key_plan plan;
};

static inline unsigned key_hash(const char *key, size_t len)
{
	return ((unsigned)len * 31u + (unsigned char)key[0] * 7u + (unsigned char)key[len - 1]) &
	       (KEY_SLOTS - 1);
}

static void key_table_build(struct key_table *t, const char *const *keys, size_t n_keys)
{
	t->n_keys = n_keys;
	t->plan.n_lines = 0;
	t->plan.text_len = 0;
	memset(t->slot, 0, sizeof(t->slot));
	for (size_t i = 0; i < n_keys; i++) {
		unsigned h;

		t->keys[i] = keys[i];
		t->len[i] = strlen(keys[i]);
		if (t->len[i] == 0)
			continue; /* no key is empty */
		for (h = key_hash(keys[i], t->len[i]); t->slot[h]; h = (h + 1) & (KEY_SLOTS - 1))
			;
		t->slot[h] = (uint8_t)(i + 1);
	}
}

/*
 * Building a table costs more than parsing a small file, and every cgroup
 * brings the same key lists again, so built tables are kept. A list is
 * known by the key pointers it holds, not by its own address: readers copy
 * their keys into a stack array per call (read_keyed_file()). The keys are
 * string literals, so a pointer stands for its text (see parse.h). There
 * are more tables than the readers have lists for both layouts together;
 * were there fewer, lists would replace each other, correct but slower.
 * Per thread, as collections run on whichever HTTP thread took the scrape.
 */
#define KEY_TABLES 16

static _Thread_local struct key_table key_tables[KEY_TABLES];
static _Thread_local unsigned n_key_tables, last_key_table, next_key_table;

static inline bool key_table_is(const struct key_table *t, const char *const *keys, size_t n_keys)
{
	return t->n_keys == n_keys &&
	       (n_keys == 0 ||
		(t->keys[0] == keys[0] && memcmp(t->keys, keys, n_keys * sizeof(*keys)) == 0));
}

/* Out of line: the first collection builds every table, later ones none. */
static __attribute__((noinline)) struct key_table *key_table_add(const char *const *keys,
								 size_t n_keys)
{
	unsigned i;

	if (n_key_tables < KEY_TABLES) {
		i = n_key_tables++;
	} else {
		/* More lists than tables: replace them in turn. */
		i = next_key_table;
		next_key_table = (next_key_table + 1) % KEY_TABLES;
	}
	key_table_build(&key_tables[i], keys, n_keys);
	last_key_table = i;
	return &key_tables[i];
}

static inline struct key_table *key_table_get(const char *const *keys, size_t n_keys)
{
	unsigned i = last_key_table;

	/* Readers ask for their lists in the same order for every cgroup: start at the last. */
	for (unsigned k = 0; k < n_key_tables; k++, i = i + 1 < n_key_tables ? i + 1 : 0)
		if (key_table_is(&key_tables[i], keys, n_keys)) {
			last_key_table = i;
			return &key_tables[i];
		}
	return key_table_add(keys, n_keys);
}

/* The index of key in the table, -1 if it is not there; the first of duplicates. */
static inline int key_index(const struct key_table *t, const char *key, size_t len)
{
	if (len == 0)
		return -1;
	for (unsigned h = key_hash(key, len);; h = (h + 1) & (KEY_SLOTS - 1)) {
		unsigned i = t->slot[h];

		if (i == 0)
			return -1;
		if (t->len[i - 1] == len && memcmp(t->keys[i - 1], key, len) == 0)
			return (int)i - 1;
	}
}

static int store_keyed(int idx, struct span value, uint64_t *values, uint64_t *found)
{
	if (idx < 0)
		return 0; /* unknown key: newer kernels add keys, that is not an error */
	if (*found & (UINT64_C(1) << idx))
		return -EBADMSG;
	if (parse_digits_or_max(value, &values[idx]) < 0)
		return -EBADMSG;
	*found |= UINT64_C(1) << idx;
	return 0;
}

static inline const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && span_is_blank(*p))
		p++;
	return p;
}

/*
 * The first byte from p on that is below `below` or is c, end if none.
 * Keys and numbers run about ten bytes, so this looks at eight at a time:
 * a byte loop would cost more than all the rest of a line. Inlined, the
 * test for c goes when below covers it, and the one for below when it is 0.
 */
static inline const char *find_stop(const char *p, const char *end, unsigned char below, char c)
{
	for (; end - p >= 8; p += 8) {
		uint64_t x = load_le64(p), m = bytes_below(x, below);

		if ((unsigned char)c >= below)
			m |= bytes_below(x ^ (BYTES_ONES * (unsigned char)c), 1);
		if (m)
			return p + __builtin_ctzll(m) / 8;
	}
	while (p < end && (unsigned char)*p >= below && *p != c)
		p++;
	return p;
}

/* The end of the word at p: its first blank, or end; '\n' too in a file of lines. */
static inline const char *word_end(const char *p, const char *end, bool in_lines)
{
	/* Words are letters and digits: other bytes up to ' ' are rare enough to step over. */
	while ((p = find_stop(p, end, ' ' + 1, ' ')) < end && *p != ' ' && *p != '\t' &&
	       !(in_lines && *p == '\n'))
		p++;
	return p;
}

/*
 * Whether the n bytes at a and b are the same, n from 1 to 255; both may be
 * read up to 8 bytes past n when n is below 8 (the caller makes sure they
 * are there). Inlined: a call to memcmp() would cost more than the compare.
 */
static inline bool same_key(const char *a, const char *b, size_t n)
{
	size_t i;

	if (n < 8) {
		uint64_t mask = (UINT64_C(1) << (n * 8)) - 1;

		return ((load_le64(a) ^ load_le64(b)) & mask) == 0;
	}
	for (i = 0; i + 8 < n; i += 8)
		if (load_le64(a + i) != load_le64(b + i))
			return false;
	return load_le64(a + n - 8) == load_le64(b + n - 8);
}

static inline bool ends_word(const char *p, const char *end)
{
	return p == end || *p == ' ' || *p == '\t' || *p == '\n';
}

/*
 * The length of the key at p if it is the one the plan expects on line
 * `line`, else 0. Eight bytes are read from p only where the buffer has
 * them; nearer its end the key is compared byte by byte.
 */
static inline size_t plan_match(const struct key_plan *plan, unsigned line, const char *p,
				const char *end)
{
	size_t n;

	if (line >= plan->n_lines)
		return 0;
	n = plan->len[line];
	if ((size_t)(end - p) <= n || !ends_word(p + n, end))
		return 0;
	if ((size_t)(end - p) >= n + 8 ? same_key(p, plan->text + plan->off[line], n)
				       : memcmp(p, plan->text + plan->off[line], n) == 0)
		return n;
	return 0;
}

/* Line `line` held key (len bytes, table index idx or -1): the plan records it, if it has room. */
static void plan_learn(struct key_plan *plan, unsigned line, const char *key, size_t len, int idx)
{
	size_t off = line < plan->n_lines ? plan->off[line] : plan->text_len;

	if (line > plan->n_lines || line >= PLAN_LINES || len == 0 || len > UINT8_MAX ||
	    off + len > PLAN_TEXT) {
		if (line < plan->n_lines)
			plan->n_lines = line;
		return;
	}
	memcpy(plan->text + off, key, len);
	plan->idx[line] = (uint8_t)(idx + 1);
	plan->len[line] = (uint8_t)len;
	plan->off[line] = (uint16_t)off;
	plan->text_len = off + len;
	/* what followed this line in the plan was another file's order */
	plan->n_lines = line + 1;
}

/*
 * "key value" per line (memory.stat, cpu.stat, memory.events, pids.events...).
 * values[i] receives the value of keys[i]; bit i of *ret_found says it was
 * present. A known key twice or with a non-number is -EBADMSG: the format
 * changed and silently picking one would publish wrong data.
 *
 * One pass over each line: most keys of memory.stat are not wanted, and
 * their lines cost the key's bytes and a scan to the next line.
 */
int parse_flat_keyed(const char *buf, size_t len, const char *const *keys, size_t n_keys,
		     uint64_t *values, uint64_t *ret_found)
{
	const char *p = buf, *end = buf + len;
	struct key_table *t;
	uint64_t found = 0;
	unsigned line = 0;

	if (n_keys > KEYS_MAX)
		return -E2BIG;
	t = key_table_get(keys, n_keys);
	for (; p < end; line++) {
		size_t planned = plan_match(&t->plan, line, p, end);
		struct span value;
		int idx, r;

		if (planned) {
			idx = t->plan.idx[line] - 1;
			p += planned;
		} else {
			const char *key = skip_blanks(p, end);

			p = word_end(key, end, true);
			/* A blank line gives an empty key, which no table holds. */
			idx = key_index(t, key, (size_t)(p - key));
			plan_learn(&t->plan, line, key, (size_t)(p - key), idx);
		}
		if (idx < 0) {
			p = find_stop(p, end, 0, '\n');
		} else {
			/* The value is the line's second word, and its last. */
			value.ptr = skip_blanks(p, end);
			p = word_end(value.ptr, end, true);
			value.len = (size_t)(p - value.ptr);
			p = skip_blanks(p, end);
			if (value.len == 0 || (p < end && *p != '\n'))
				return -EBADMSG;
			r = store_keyed(idx, value, values, &found);
			if (r < 0)
				return r;
		}
		if (p < end)
			p++; /* the '\n' */
	}
	*ret_found = found;
	return 0;
}

/* "k1=v1 k2=v2 ..." (the tail of io.stat, io.max and *.pressure lines). */
int parse_nested_fields(struct span fields, const char *const *keys, size_t n_keys,
			uint64_t *values, uint64_t *ret_found)
{
	const char *p = fields.ptr, *end = p + fields.len;
	const struct key_table *t;
	uint64_t found = 0;

	if (n_keys > KEYS_MAX)
		return -E2BIG;
	t = key_table_get(keys, n_keys);
	for (;;) {
		const char *key, *value;
		int idx, r;

		p = skip_blanks(p, end);
		if (p == end)
			break;
		/* A word is key '=' value; the value may hold another '='. */
		key = p;
		while ((p = find_stop(p, end, ' ' + 1, '=')) < end && *p != '=' &&
		       !span_is_blank(*p))
			p++;
		if (p == end || *p != '=')
			return -EBADMSG;
		idx = key_index(t, key, (size_t)(p - key));
		value = ++p;
		p = word_end(p, end, false);
		r = store_keyed(idx, span_make(value, (size_t)(p - value)), values, &found);
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
