/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scalar parsers of config/values.c, without YAML: durations as
 * Prometheus spells them, plain integers, YAML 1.2 booleans and nulls,
 * normal absolute paths; what each accepts, what it refuses, and why.
 */
#include <errno.h>

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
