/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The path glob matcher of config/pathglob.c: '*' and '?' within one
 * component, "**" across them, classes and escapes, malformed patterns
 * refused, and no backtracking blow-up on hostile paths.
 */
#include "config/pathglob.h"
#include "test.h"

TEST(globs_match_within_one_component)
{
	ASSERT_TRUE(pathglob_match("/system.slice/*.service", "/system.slice/ssh.service"));
	ASSERT_TRUE(!pathglob_match("/system.slice/*.service", "/system.slice/a/b.service"));
	ASSERT_TRUE(!pathglob_match("/system.slice/*.service", "/system.slice/ssh.socket"));
	ASSERT_TRUE(pathglob_match("/user-?.slice", "/user-1.slice"));
	ASSERT_TRUE(!pathglob_match("/user-?.slice", "/user-10.slice"));
	ASSERT_TRUE(pathglob_match("/*", "/a"));
	ASSERT_TRUE(!pathglob_match("/*", "/"));
	ASSERT_TRUE(pathglob_match("/", "/"));
	ASSERT_TRUE(!pathglob_match("/", "/a"));
	ASSERT_TRUE(pathglob_match("/a*b*c", "/abxbc"));
	ASSERT_TRUE(!pathglob_match("/a*b*c", "/abxbcd"));
}

TEST(globs_double_star_spans_components)
{
	ASSERT_TRUE(pathglob_match("/**", "/"));
	ASSERT_TRUE(pathglob_match("/**", "/a/b/c"));
	ASSERT_TRUE(pathglob_match("/kubepods/**", "/kubepods"));
	ASSERT_TRUE(pathglob_match("/kubepods/**", "/kubepods/burstable/pod1"));
	ASSERT_TRUE(!pathglob_match("/kubepods/**", "/kubepodsx"));
	ASSERT_TRUE(pathglob_match("/**/*.scope", "/x.scope"));
	ASSERT_TRUE(pathglob_match("/**/*.scope", "/user.slice/u/session-2.scope"));
	ASSERT_TRUE(!pathglob_match("/**/*.scope", "/user.slice/session-2.scope/x"));
	ASSERT_TRUE(pathglob_match("/a/**/b/**/c", "/a/b/c"));
	ASSERT_TRUE(pathglob_match("/a/**/b/**/c", "/a/x/b/y/z/c"));
	ASSERT_TRUE(!pathglob_match("/a/**/b/**/c", "/a/x/c/b"));
}

TEST(globs_classes_and_escapes)
{
	ASSERT_TRUE(pathglob_match("/cpu[0-9]", "/cpu7"));
	ASSERT_TRUE(!pathglob_match("/cpu[0-9]", "/cpux"));
	ASSERT_TRUE(pathglob_match("/cpu[!0-9]", "/cpux"));
	ASSERT_TRUE(pathglob_match("/cpu[^0-9]", "/cpux"));
	ASSERT_TRUE(!pathglob_match("/cpu[!0-9]", "/cpu3"));
	ASSERT_TRUE(pathglob_match("/[]a]", "/]"));
	ASSERT_TRUE(pathglob_match("/[a-]", "/-"));
	ASSERT_TRUE(pathglob_match("/x\\*", "/x*"));
	ASSERT_TRUE(!pathglob_match("/x\\*", "/xy"));
	ASSERT_TRUE(pathglob_match("/[\\]]", "/]"));
	ASSERT_TRUE(pathglob_match("/a\\\\b", "/a\\b"));
	ASSERT_TRUE(pathglob_check("/\\[x") == NULL);
	ASSERT_TRUE(pathglob_match("/\\[x", "/[x"));
}

TEST(globs_refuse_malformed_patterns)
{
	ASSERT_TRUE(pathglob_check("/**") == NULL);
	ASSERT_TRUE(pathglob_check("/") == NULL);
	ASSERT_TRUE(pathglob_check("/a/[]]/b") == NULL);
	ASSERT_STREQ(pathglob_check("/a/[bc"), "unbalanced '['");
	ASSERT_STREQ(pathglob_check("/a/[]"), "unbalanced '['");
	ASSERT_STREQ(pathglob_check("/a\\"), "trailing '\\'");
	ASSERT_STREQ(pathglob_check("/a**"), "\"**\" must be a whole path component");
	ASSERT_STREQ(pathglob_check("/***"), "\"**\" must be a whole path component");
	ASSERT_STREQ(pathglob_check("/a//b"), "empty path component");
	ASSERT_STREQ(pathglob_check("/a/"), "empty path component");
	ASSERT_STREQ(pathglob_check("system.slice/*"), "not an absolute path");
}

TEST(globs_stay_fast_on_hostile_paths)
{
	char path[4096], pattern[256];
	size_t n = 0;

	/* Many stars against a long near-miss would be exponential with naive backtracking. */
	for (int i = 0; i < 1000; i++)
		n += (size_t)snprintf(path + n, sizeof(path) - n, "/a");
	strcpy(pattern, "/**");
	for (int i = 0; i < 20; i++)
		strcat(pattern, "/a*a*a*");
	strcat(pattern, "/**/b");
	ASSERT_TRUE(!pathglob_match(pattern, path));
}

TEST(globs_match_any_of_a_list)
{
	char *list[] = {"/a", "/b/**", NULL};

	ASSERT_TRUE(pathglob_match_any(list, "/b/c"));
	ASSERT_TRUE(!pathglob_match_any(list, "/c"));
	ASSERT_TRUE(!pathglob_match_any(NULL, "/a"));
}
