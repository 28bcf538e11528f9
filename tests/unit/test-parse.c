/* SPDX-License-Identifier: GPL-2.0-only */
/* The shared parsing primitives: checked numbers, keyed files, lists. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/parse.h"
#include "test.h"

TEST(u64_rejects_everything_but_plain_decimal)
{
	uint64_t v;

	ASSERT_EQ(parse_u64(span_make(LIT("18446744073709551615")), &v), 0);
	ASSERT_EQ_U64(v, UINT64_MAX);
	ASSERT_EQ(parse_u64(span_make(LIT("18446744073709551616")), &v), -ERANGE);
	ASSERT_EQ(parse_u64(span_make(LIT("99999999999999999999")), &v), -ERANGE);
	ASSERT_EQ(parse_u64(span_make(LIT("")), &v), -EINVAL);
	ASSERT_EQ(parse_u64(span_make(LIT("+1")), &v), -EINVAL);
	ASSERT_EQ(parse_u64(span_make(LIT("-1")), &v), -EINVAL);
	ASSERT_EQ(parse_u64(span_make(LIT(" 1")), &v), -EINVAL);
	ASSERT_EQ(parse_u64(span_make(LIT("0x10")), &v), -EINVAL);
	ASSERT_EQ(parse_u64(span_make(LIT("1.5")), &v), -EINVAL);
	/* a length shorter than the string must stop the parse */
	ASSERT_EQ(parse_u64(span_make("12345", 3), &v), 0);
	ASSERT_EQ_U64(v, 123);
}

/* The obvious parser, every digit checked for overflow, to hold parse_u64() against. */
static int reference_u64(const char *p, size_t len, uint64_t *ret)
{
	uint64_t v = 0;

	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(p[i] - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(p[i] - '0');
	}
	*ret = v;
	return 0;
}

/*
 * Every length up to 21 digits, with every non-digit neighbour of '0' and
 * '9' ('/', ':', and bytes differing in the high nibble) at every position,
 * and digit strings from a fixed pseudo-random sequence.
 */
TEST(u64_matches_a_parser_checking_every_digit)
{
	static const char bad[] = {'/', ':', ' ', '\n', '\0', 'a', 'p', 'y', (char)0xb0, '?', ';'};
	uint64_t seed = 0x9e3779b97f4a7c15, got, want;
	char digits[22];

	for (size_t len = 1; len <= 21; len++) {
		for (int round = 0; round < 200; round++) {
			for (size_t i = 0; i < len; i++) {
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				digits[i] = (char)('0' + (seed >> 33) % 10);
			}
			if (round == 0)
				memset(digits, '9', len);
			if (round == 1)
				memset(digits, '0', len);
			ASSERT_EQ(parse_u64(span_make(digits, len), &got),
				  reference_u64(digits, len, &want));
			if (reference_u64(digits, len, &want) == 0)
				ASSERT_EQ_U64(got, want);
		}
		for (size_t pos = 0; pos < len; pos++)
			for (size_t b = 0; b < sizeof(bad); b++) {
				memset(digits, '5', len);
				digits[pos] = bad[b];
				/* -EINVAL, or -ERANGE when 20 digits come before the bad byte */
				ASSERT_EQ(parse_u64(span_make(digits, len), &got),
					  reference_u64(digits, len, &want));
				ASSERT_TRUE(pos >= 20 ||
					    reference_u64(digits, len, &want) == -EINVAL);
			}
	}
}

TEST(s64_accepts_minus_and_checks_both_bounds)
{
	int64_t v;

	ASSERT_EQ(parse_s64(span_make(LIT("-1")), &v), 0);
	ASSERT_EQ(v, -1);
	ASSERT_EQ(parse_s64(span_make(LIT("-9223372036854775808")), &v), 0);
	ASSERT_EQ(v, INT64_MIN);
	ASSERT_EQ(parse_s64(span_make(LIT("9223372036854775808")), &v), -ERANGE);
	ASSERT_EQ(parse_s64(span_make(LIT("-9223372036854775809")), &v), -ERANGE);
	ASSERT_EQ(parse_s64(span_make(LIT("-")), &v), -EINVAL);
}

TEST(single_value_takes_max_and_one_trailing_newline)
{
	uint64_t v;

	ASSERT_EQ(parse_single_value(LIT("4096\n"), &v), 0);
	ASSERT_EQ_U64(v, 4096);
	ASSERT_EQ(parse_single_value(LIT("4096"), &v), 0);
	ASSERT_EQ_U64(v, 4096);
	ASSERT_EQ(parse_single_value(LIT("max\n"), &v), 0);
	ASSERT_EQ_U64(v, CG_UNLIMITED);
	ASSERT_EQ(parse_single_value(LIT("1 2\n"), &v), -EBADMSG);
	ASSERT_EQ(parse_single_value(LIT("1\n2\n"), &v), -EBADMSG);
	ASSERT_EQ(parse_single_value(LIT("\n"), &v), -EBADMSG);
	ASSERT_EQ(parse_single_value(LIT(""), &v), -EBADMSG);
	/* blanks around the one word: not the kernel's format, but one value */
	ASSERT_EQ(parse_single_value(LIT(" 12 \n"), &v), 0);
	ASSERT_EQ_U64(v, 12);
	ASSERT_EQ(parse_single_value(LIT("-1\n"), &v), -EBADMSG);
}

/* cfs_quota_us: the same rules, signed, and no "max". */
TEST(single_s64_takes_a_sign_and_the_same_one_word)
{
	int64_t s;

	ASSERT_EQ(parse_single_s64(LIT("-1\n"), &s), 0);
	ASSERT_EQ(s, -1);
	ASSERT_EQ(parse_single_s64(LIT("50000\n"), &s), 0);
	ASSERT_EQ(s, 50000);
	ASSERT_EQ(parse_single_s64(LIT("-9223372036854775808\n"), &s), 0);
	ASSERT_EQ(s, INT64_MIN);
	ASSERT_EQ(parse_single_s64(LIT(" -7 \n"), &s), 0);
	ASSERT_EQ(s, -7);
	ASSERT_EQ(parse_single_s64(LIT("9223372036854775808\n"), &s), -EBADMSG);
	ASSERT_EQ(parse_single_s64(LIT("max\n"), &s), -EBADMSG);
	ASSERT_EQ(parse_single_s64(LIT("-1 2\n"), &s), -EBADMSG);
	ASSERT_EQ(parse_single_s64(LIT(""), &s), -EBADMSG);
}

TEST(flat_keyed_ignores_unknown_keys_and_reports_found)
{
	static const char *const keys[] = {"nr_periods", "throttled_time", "absent"};
	uint64_t v[3], found;

	ASSERT_EQ(parse_flat_keyed(LIT("nr_periods 5\nwait_sum 7 junk junk\nthrottled_time 9"),
				   keys, 3, v, &found),
		  0);
	ASSERT_EQ_U64(found, 3);
	ASSERT_EQ_U64(v[0], 5);
	ASSERT_EQ_U64(v[1], 9);
}

TEST(flat_keyed_rejects_duplicate_or_malformed_known_keys)
{
	static const char *const keys[] = {"max"};
	uint64_t v[1], found;

	ASSERT_EQ(parse_flat_keyed(LIT("max 1\nmax 2\n"), keys, 1, v, &found), -EBADMSG);
	ASSERT_EQ(parse_flat_keyed(LIT("max x\n"), keys, 1, v, &found), -EBADMSG);
	ASSERT_EQ(parse_flat_keyed(LIT("max\n"), keys, 1, v, &found), -EBADMSG);
	ASSERT_EQ(parse_flat_keyed(LIT("max 1 2\n"), keys, 1, v, &found), -EBADMSG);
	ASSERT_EQ(parse_flat_keyed(LIT(""), keys, 1, v, &found), 0);
	ASSERT_EQ_U64(found, 0);
}

/* The kernel's format and what it could turn into: every blank, long keys, bytes below ' '. */
TEST(flat_keyed_splits_lines_as_words)
{
	static const char *const keys[] = {"workingset_refault_anon", "a\rb", "max"};
	uint64_t v[3], found;

	ASSERT_EQ(parse_flat_keyed(LIT("\n  \t\nworkingset_refault_anon\t 18446744073709551615 \t\n"
				       "workingset_refault_file 1 2 3\na\rb 7\n\t max\tmax"),
				   keys, 3, v, &found),
		  0);
	ASSERT_EQ_U64(found, 7);
	ASSERT_EQ_U64(v[0], UINT64_MAX);
	ASSERT_EQ_U64(v[1], 7);
	ASSERT_EQ_U64(v[2], CG_UNLIMITED);
	/* a key ends at a tab too: "max\t5 6" is max with two words */
	ASSERT_EQ(parse_flat_keyed(LIT("max\t5 6\n"), keys, 3, v, &found), -EBADMSG);
	ASSERT_EQ(parse_flat_keyed(LIT("max 5\r\n"), keys, 3, v, &found), -EBADMSG);
	ASSERT_EQ(parse_flat_keyed(LIT("maxi 5 6\nmax\t \n"), keys, 3, v, &found), -EBADMSG);
	ASSERT_EQ(parse_flat_keyed(LIT("workingset_refault_anon 18446744073709551616\n"), keys, 3,
				   v, &found),
		  -EBADMSG);
}

/*
 * Readers copy each list into the same stack array (read_keyed_file()):
 * every list must get its own keys, however many lists take turns.
 */
TEST(flat_keyed_tells_lists_in_one_array_apart)
{
	static const char *const names[] = {"k0", "k1", "k2", "k3", "k4", "k5", "k6",
					    "k7", "k8", "k9", "ka", "kb", "kc", "kd",
					    "ke", "kf", "kg", "kh", "ki", "kj"};
	static const uint64_t in_file[] = {[3] = 3, [4] = 4, [16] = 16}; /* 0: absent */
	const size_t n = sizeof(names) / sizeof(names[0]);
	const char *keys[2];
	uint64_t v[2], found;

	for (int round = 0; round < 3; round++)
		for (size_t i = 0; i + 1 < n; i++) {
			keys[0] = names[i];
			keys[1] = names[i + 1];
			ASSERT_EQ(parse_flat_keyed(LIT("k3 3\nk4 4\nkg 16\n"), keys, 2, v, &found),
				  0);
			for (size_t k = 0; k < 2; k++) {
				uint64_t want = i + k < sizeof(in_file) / sizeof(in_file[0])
						    ? in_file[i + k]
						    : 0;

				ASSERT_EQ_U64((found >> k) & 1, want != 0);
				if (want)
					ASSERT_EQ_U64(v[k], want);
			}
		}
}

/*
 * The parser remembers each list's last file line by line: files that
 * change from one parse to the next, keys that are prefixes of others and
 * of every length around the eight bytes compared at a time, must still
 * give each file's own values. Each file is a copy of exactly its length,
 * so that a read past its end shows under the sanitizers.
 */
TEST(flat_keyed_follows_files_that_change)
{
	static const char *const pool[] = {"a",		  "ab",
					   "abcdefg",	  "abcdefgh",
					   "abcdefghi",	  "abcdefghijklmnop",
					   "anon",	  "abcdefghijklmnopq",
					   "anon_thp",	  "file",
					   "file_mapped", "x"};
	enum { N = sizeof(pool) / sizeof(pool[0]) };
	const char *const keys[] = {pool[1], pool[3], pool[5], pool[7], pool[9], pool[11]};
	unsigned order[N], seed = 1;

	for (unsigned i = 0; i < N; i++)
		order[i] = i;
	for (int round = 0; round < 2000; round++) {
		uint64_t want[N], v[6], found, want_found = 0;
		unsigned n_lines;
		char text[512], *file;
		size_t len = 0;

		/* Mostly the last file's order, at times two lines swapped or fewer lines. */
		seed = seed * 1103515245u + 12345u;
		if (seed % 3 == 0) {
			unsigned i = (seed >> 8) % N, j = (seed >> 16) % N, t = order[i];

			order[i] = order[j];
			order[j] = t;
		}
		n_lines = N - (seed >> 24) % 4;
		for (unsigned l = 0; l < n_lines; l++) {
			unsigned k = order[l];

			seed = seed * 1103515245u + 12345u;
			want[k] = seed >> 4;
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s%llu%s",
						pool[k], seed % 5 == 0 ? "\t " : " ",
						(unsigned long long)want[k],
						l + 1 == n_lines && seed % 2 ? "" : "\n");
			for (unsigned i = 0; i < 6; i++)
				if (keys[i] == pool[k])
					want_found |= UINT64_C(1) << i;
		}
		file = malloc(len);
		ASSERT_TRUE(file != NULL);
		memcpy(file, text, len);
		ASSERT_EQ(parse_flat_keyed(file, len, keys, 6, v, &found), 0);
		free(file);
		ASSERT_EQ_U64(found, want_found);
		for (unsigned i = 0; i < 6; i++)
			for (unsigned k = 0; k < N; k++)
				if (keys[i] == pool[k] && (found >> i & 1))
					ASSERT_EQ_U64(v[i], want[k]);
	}
}

TEST(nested_fields_skip_unknown_and_need_equals)
{
	static const char *const keys[] = {"rbytes", "wiops"};
	uint64_t v[2], found;

	ASSERT_EQ(parse_nested_fields(span_make(LIT("rbytes=7 cost.vrate=1.5 wiops=max")), keys, 2,
				      v, &found),
		  0);
	ASSERT_EQ_U64(found, 3);
	ASSERT_EQ_U64(v[0], 7);
	ASSERT_EQ_U64(v[1], CG_UNLIMITED);
	ASSERT_EQ(parse_nested_fields(span_make(LIT("rbytes")), keys, 2, v, &found), -EBADMSG);
}

TEST(u64_list_reads_percpu_with_trailing_blank)
{
	uint64_t *v;
	size_t n;

	ASSERT_EQ(parse_u64_list(LIT("1 22 333 \n"), &v, &n), 0);
	ASSERT_EQ(n, 3);
	ASSERT_EQ_U64(v[0], 1);
	ASSERT_EQ_U64(v[2], 333);
	free(v);
	ASSERT_EQ(parse_u64_list(LIT("1 x\n"), &v, &n), -EBADMSG);
	ASSERT_EQ(parse_u64_list(LIT("1\n2\n"), &v, &n), -EBADMSG);
}

TEST(devnum_needs_both_numbers)
{
	uint32_t maj, min;

	ASSERT_EQ(parse_devnum(span_make(LIT("254:16")), &maj, &min), 0);
	ASSERT_EQ(maj, 254);
	ASSERT_EQ(min, 16);
	ASSERT_EQ(parse_devnum(span_make(LIT("254")), &maj, &min), -EBADMSG);
	ASSERT_EQ(parse_devnum(span_make(LIT("254:")), &maj, &min), -EBADMSG);
	ASSERT_EQ(parse_devnum(span_make(LIT("4294967296:0")), &maj, &min), -EBADMSG);
}
