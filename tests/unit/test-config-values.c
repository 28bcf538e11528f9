/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scalar parsers and the path glob matcher of config/, without YAML:
 * what each accepts, what it refuses, and why.
 */
#include <errno.h>
#include <sys/socket.h>

#include "config/address.h"
#include "config/pathglob.h"
#include "config/values.h"
#include "test.h"

static uint64_t duration(const char *s)
{
	uint64_t v = UINT64_MAX;

	ASSERT_EQ(value_parse_duration(s, &v), 0);
	return v;
}

TEST(durations_follow_prometheus_syntax)
{
	ASSERT_EQ_U64(duration("0"), 0);
	ASSERT_EQ_U64(duration("500ms"), 500000);
	ASSERT_EQ_U64(duration("5s"), 5000000);
	ASSERT_EQ_U64(duration("1m"), 60000000);
	ASSERT_EQ_U64(duration("1m30s"), 90000000);
	ASSERT_EQ_U64(duration("1h1ms"), 3600001000);
	ASSERT_EQ_U64(duration("2d"), UINT64_C(172800000000));
	ASSERT_EQ_U64(duration("1y1w"), UINT64_C(372) * 86400 * 1000000);
	ASSERT_EQ_U64(duration("05m"), 300000000);
	/* Long digit runs, read eight at a time, end at the unit. */
	ASSERT_EQ_U64(duration("12345678901s2ms"), UINT64_C(12345678901002000));
}

TEST(durations_reject_other_spellings)
{
	static const char *const bad[] = {"",	 "5",  "s",   "1.5s", "-1s", "1s1m", "1m1m", "1ss",
					  "1 s", "1S", "1us", "1ns",  "+1s", "1s ",  "0x10s"};
	uint64_t v;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (value_parse_duration(bad[i], &v) != -EINVAL)
			fprintf(stderr, "accepted \"%s\"\n", bad[i]);
		ASSERT_EQ(value_parse_duration(bad[i], &v), -EINVAL);
	}
	ASSERT_EQ(value_parse_duration("600000y", &v), -ERANGE);
	ASSERT_EQ(value_parse_duration("99999999999999999999s", &v), -ERANGE);
}

TEST(durations_format_back_to_the_same_value)
{
	static const char *const spellings[] = {"0", "500ms", "1m30s", "1y2w3d4h5m6s7ms"};

	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		char *s;

		ASSERT_EQ(value_format_duration(duration(spellings[i]), &s), 0);
		ASSERT_STREQ(s, spellings[i]);
		free(s);
	}
}

TEST(integers_are_plain_decimal)
{
	uint64_t v;

	ASSERT_EQ(value_parse_u64("0", &v), 0);
	ASSERT_EQ_U64(v, 0);
	ASSERT_EQ(value_parse_u64("18446744073709551615", &v), 0);
	ASSERT_EQ_U64(v, UINT64_MAX);
	ASSERT_EQ(value_parse_u64("18446744073709551616", &v), -ERANGE);
	ASSERT_EQ(value_parse_u64("010", &v), -EINVAL);
	ASSERT_EQ(value_parse_u64("0x10", &v), -EINVAL);
	ASSERT_EQ(value_parse_u64("1_000", &v), -EINVAL);
	ASSERT_EQ(value_parse_u64("-1", &v), -EINVAL);
	ASSERT_EQ(value_parse_u64("", &v), -EINVAL);
	ASSERT_EQ(value_parse_u64("+1", &v), -EINVAL);
	ASSERT_EQ(value_parse_u64(" 1", &v), -EINVAL);
	ASSERT_EQ(value_parse_u64("1 ", &v), -EINVAL);
	ASSERT_EQ(value_parse_u64("12345678x", &v), -EINVAL);
	ASSERT_EQ(value_parse_u64("123456789012345678901234", &v), -ERANGE);
	ASSERT_EQ(value_parse_u64("1234567890123456789", &v), 0);
	ASSERT_EQ_U64(v, UINT64_C(1234567890123456789));
}

TEST(booleans_are_yaml_1_2_core)
{
	bool b = false;

	ASSERT_EQ(value_parse_bool("True", &b), 0);
	ASSERT_TRUE(b);
	ASSERT_EQ(value_parse_bool("false", &b), 0);
	ASSERT_TRUE(!b);
	ASSERT_EQ(value_parse_bool("yes", &b), -EINVAL);
	ASSERT_EQ(value_parse_bool("1", &b), -EINVAL);
	ASSERT_TRUE(value_is_null("~") && value_is_null("") && value_is_null("NULL"));
	ASSERT_TRUE(!value_is_null("none"));
}

TEST(paths_must_be_absolute_and_normal)
{
	ASSERT_TRUE(value_check_path("/") == NULL);
	ASSERT_TRUE(value_check_path("/sys/fs/cgroup/") == NULL);
	ASSERT_STREQ(value_check_path("sys/fs/cgroup"), "not an absolute path");
	ASSERT_TRUE(value_check_path("/sys//fs") != NULL);
	ASSERT_TRUE(value_check_path("/sys/../etc") != NULL);
	ASSERT_TRUE(value_check_path("/sys/./fs") != NULL);
}

static void assert_address(const char *s, const char *host, unsigned port, int family)
{
	struct listen_address a;
	char *back;

	ASSERT_EQ(listen_address_parse(s, &a, NULL), 0);
	ASSERT_TRUE(host ? a.host && strcmp(a.host, host) == 0 : a.host == NULL);
	ASSERT_EQ(a.port, port);
	ASSERT_EQ(a.family, family);
	ASSERT_EQ(listen_address_format(&a, &back), 0);
	ASSERT_STREQ(back, s);
	free(back);
	listen_address_done(&a);
}

TEST(listen_addresses_parse_in_every_form)
{
	assert_address(":19753", NULL, 19753, AF_UNSPEC);
	assert_address("127.0.0.1:9100", "127.0.0.1", 9100, AF_INET);
	assert_address("[::1]:1", "::1", 1, AF_INET6);
	assert_address("[fe80::1:2]:65535", "fe80::1:2", 65535, AF_INET6);
	assert_address("localhost:80", "localhost", 80, AF_UNSPEC);
	assert_address("exporter-1.example.org:443", "exporter-1.example.org", 443, AF_UNSPEC);
}

static void assert_bad_address(const char *s, const char *why)
{
	struct listen_address a;
	const char *got = NULL;

	ASSERT_EQ(listen_address_parse(s, &a, &got), -EINVAL);
	ASSERT_STREQ(got, why);
}

TEST(listen_addresses_are_strict)
{
	const char *port = "port must be a number from 1 to 65535";

	assert_bad_address("19753", "missing ':PORT'");
	assert_bad_address("127.0.0.1", "missing ':PORT'");
	assert_bad_address(":0", port);
	assert_bad_address(":65536", port);
	assert_bad_address(":09100", port);
	assert_bad_address(":http", port);
	assert_bad_address("127.0.0.1:", port);
	assert_bad_address("::1:9100", "IPv6 addresses need brackets, as in [::1]:19753");
	assert_bad_address("[::1]9100", "missing ':PORT' after ']'");
	assert_bad_address("[::1:9100", "missing ']' after IPv6 address");
	assert_bad_address("[127.0.0.1]:80", "invalid IPv6 address");
	assert_bad_address("[]:80", "invalid IPv6 address");
	assert_bad_address("1.2.3:80", "invalid IPv4 address");
	assert_bad_address("256.1.1.1:80", "invalid IPv4 address");
	assert_bad_address("-host:80", "invalid host name");
	assert_bad_address("a..b:80", "invalid host name");
	assert_bad_address("host_name:80", "invalid host name");
	assert_bad_address(" :80", "invalid host name");
}

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
