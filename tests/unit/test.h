/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Minimal test harness: TEST(name) { ... } defines a test case that
 * registers itself, and helpers.c's main() runs a file's cases in the
 * order they are written (TEST_ONLY=name runs one). Assertions abort with
 * file:line and both values, so a failing meson test says exactly what
 * differed. Helpers build fake cgroup trees in a temporary directory;
 * each layer's own helpers are declared in helpers-<layer>.h.
 */
#pragma once

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ASSERT_TRUE(x)                                                                             \
	do {                                                                                       \
		if (!(x)) {                                                                        \
			fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__, #x);  \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define ASSERT_EQ(a, b)                                                                            \
	do {                                                                                       \
		int64_t _a = (int64_t)(a), _b = (int64_t)(b);                                      \
		if (_a != _b) {                                                                    \
			fprintf(stderr, "%s:%d: %s == %s failed: %" PRId64 " != %" PRId64 "\n",    \
				__FILE__, __LINE__, #a, #b, _a, _b);                               \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define ASSERT_EQ_U64(a, b)                                                                        \
	do {                                                                                       \
		uint64_t _a = (a), _b = (b);                                                       \
		if (_a != _b) {                                                                    \
			fprintf(stderr, "%s:%d: %s == %s failed: %" PRIu64 " != %" PRIu64 "\n",    \
				__FILE__, __LINE__, #a, #b, _a, _b);                               \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

#define ASSERT_STREQ(a, b)                                                                         \
	do {                                                                                       \
		const char *_a = (a), *_b = (b);                                                   \
		if (strcmp(_a, _b) != 0) {                                                         \
			fprintf(stderr,                                                            \
				"%s:%d: %s == %s failed:\n--- got\n%s\n--- expected\n%s\n",        \
				__FILE__, __LINE__, #a, #b, _a, _b);                               \
			abort();                                                                   \
		}                                                                                  \
	} while (0)

struct test_case {
	const char *name;
	void (*run)(void);
	unsigned line; /* where it is written: cases run in this order */
	struct test_case *next;
};

void test_register(struct test_case *t);

/* The test program's arguments (meson's `args:`), for cases that need a binary's path. */
extern int test_argc;
extern char **test_argv;

#define TEST(name)                                                                                 \
	static void test_##name(void);                                                             \
	__attribute__((constructor)) static void test_register_##name(void)                        \
	{                                                                                          \
		static struct test_case t = {#name, test_##name, __LINE__, NULL};                  \
		test_register(&t);                                                                 \
	}                                                                                          \
	static void test_##name(void)

/* Parses a literal, as a fixture would be: (buf, len) without the NUL. */
#define LIT(s) (s), (sizeof(s) - 1)

char *fixture_read(const char *name, size_t *ret_len);
char *fixture_path(const char *name);
char *tmpdir_make(void);
void tmpdir_remove(const char *dir);
void file_write(const char *dir, const char *name, const char *content);
void dir_make(const char *dir, const char *name);
void mkdir_p(const char *path);
void dir_remove(const char *dir, const char *name);
void tree_copy_files(const char *from, const char *to);
size_t open_fds(void);
