/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The YAML reader both configuration files are made of (config/yconf.c),
 * over a key table of its own: each kind of value into its field, nested
 * mappings by their dotted path, and every refusal with the file, line,
 * column and key it is about; and values quoted for messages, escaped
 * and cut short without splitting a character.
 */
#include <errno.h>
#include <stddef.h>

#include "base/strv.h"
#include "base/util.h"
#include "config/yconf.h"
#include "test.h"

struct settings {
	bool flag;
	uint64_t count;
	unsigned small;
	uint64_t interval_usec;
	char *name;
	char **paths;
	int level;
};

static int parse_level(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	static const struct yconf_name levels[] = {{"low", 1}, {"high", 2}};

	return yconf_enum(y, key, value, levels, ELEMENTSOF(levels), field);
}

static int parse_nested(struct yconf *y, const char *key, yaml_node_t *value, void *field)
{
	static const struct yconf_key keys[] = {{"level", parse_level, 0}};

	return yconf_mapping(y, value, key, keys, ELEMENTSOF(keys), field);
}

static const struct yconf_key keys[] = {
    {"flag", yconf_parse_bool, offsetof(struct settings, flag)},
    {"count", yconf_parse_u64, offsetof(struct settings, count)},
    {"small", yconf_parse_uint, offsetof(struct settings, small)},
    {"interval", yconf_parse_duration, offsetof(struct settings, interval_usec)},
    {"name", yconf_parse_string, offsetof(struct settings, name)},
    {"paths", yconf_parse_paths, offsetof(struct settings, paths)},
    {"nested", parse_nested, offsetof(struct settings, level)},
};

static int load(const char *yaml, struct settings *ret, struct config_error *e)
{
	return yconf_load_keys("test.yml", yaml, strlen(yaml), "settings file", keys,
			       ELEMENTSOF(keys), ret, e);
}

static void settings_done(struct settings *s)
{
	free(s->name);
	strv_free(s->paths);
}

TEST(each_kind_of_value_lands_in_its_field)
{
	struct settings s = {0};
	struct config_error e = {0};

	ASSERT_EQ(load("flag: true\n"
		       "count: 18446744073709551615\n"
		       "small: 4294967295\n"
		       "interval: 1m30s\n"
		       "name: 'x: y'\n"
		       "paths: [/a, /b/c]\n"
		       "nested:\n"
		       "  level: high\n",
		       &s, &e),
		  0);
	ASSERT_TRUE(s.flag);
	ASSERT_EQ_U64(s.count, UINT64_MAX);
	ASSERT_EQ(s.small, 4294967295u);
	ASSERT_EQ_U64(s.interval_usec, 90000000);
	ASSERT_STREQ(s.name, "x: y");
	ASSERT_STREQ(s.paths[0], "/a");
	ASSERT_STREQ(s.paths[1], "/b/c");
	ASSERT_TRUE(s.paths[2] == NULL);
	ASSERT_EQ(s.level, 2);
	settings_done(&s);

	/* an empty value is no string and an empty list */
	s = (struct settings){.name = strdup("before")};
	ASSERT_EQ(load("name:\npaths:\n", &s, &e), 0);
	ASSERT_TRUE(s.name == NULL);
	ASSERT_TRUE(s.paths != NULL && s.paths[0] == NULL);
	settings_done(&s);
}

static void assert_refused(const char *yaml, const char *message)
{
	struct settings s = {0};
	struct config_error e = {0};

	ASSERT_EQ(load(yaml, &s, &e), -EINVAL);
	ASSERT_STREQ(e.message, message);
	settings_done(&s);
}

TEST(refusals_name_the_place_and_the_key)
{
	assert_refused("flag: true\nnested:\n  levle: low\n",
		       "test.yml:3:3: unknown key \"nested.levle\"");
	assert_refused("nested:\n  level: medium\n",
		       "test.yml:2:10: nested.level: expected one of low, high; got \"medium\"");
	assert_refused("count: 1\ncount: 2\n", "test.yml:2:1: duplicate key \"count\"");
	assert_refused("count: [1]\n",
		       "test.yml:1:8: count: expected a non-negative integer, got a list");
	assert_refused("count: '5'\n", "test.yml:1:8: count: expected a non-negative integer, got "
				       "the quoted string \"5\"");
	assert_refused("count: -1\n",
		       "test.yml:1:8: count: expected a non-negative integer, got \"-1\"");
	assert_refused("small: 4294967296\n",
		       "test.yml:1:8: small: \"4294967296\" is out of range");
	assert_refused("flag: yes\n", "test.yml:1:7: flag: expected true or false, got \"yes\"");
	assert_refused("interval:\n", "test.yml:1:10: interval: expected a duration such as 500ms, "
				      "15s or 1m30s, got an empty value");
	assert_refused("name: \"a\\0b\"\n", "test.yml:1:7: name: contains a NUL character");
	assert_refused("paths: [a]\n",
		       "test.yml:1:9: paths: invalid path \"a\": not an absolute path");
	assert_refused("nested: 3\n", "test.yml:1:9: nested: expected a mapping, got \"3\"");
	assert_refused("[1]: x\n", "test.yml:1:1: top level: keys must be strings, got a list");
}

TEST(documents_that_are_no_settings_are_refused)
{
	assert_refused("", "test.yml:1:1: empty settings file");
	assert_refused("~\n", "test.yml:1:1: empty settings file");
	assert_refused("- flag\n",
		       "test.yml:1:1: expected a mapping of keys at the top level, got a list");
	assert_refused("flag: true\n---\nflag: false\n",
		       "test.yml:3:1: more than one YAML document");
	assert_refused(
	    "flag: [true\n",
	    "test.yml:2:1: did not find expected ',' or ']' (while parsing a flow sequence "
	    "at 1:7)");
}

/* Control characters, quotes and backslashes as \xNN; a long value cut before a character. */
TEST(quoted_values_are_escaped_and_cut_whole)
{
	char q[YCONF_QUOTE_MAX], long_value[200];

	ASSERT_STREQ(yconf_quote("plain", q), "\"plain\"");
	ASSERT_STREQ(yconf_quote("a\"b\\c\nd\x7f", q), "\"a\\x22b\\x5cc\\x0ad\\x7f\"");
	ASSERT_STREQ(yconf_quote("", q), "\"\"");

	memset(long_value, 'v', sizeof(long_value) - 1);
	long_value[sizeof(long_value) - 1] = '\0';
	ASSERT_STREQ(yconf_quote(long_value, q),
		     "\"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv\"...");
	/* "ü" is two bytes: never one without the other */
	for (size_t i = 0; i + 2 < sizeof(long_value); i += 2)
		memcpy(long_value + i, "\xc3\xbc", 2);
	yconf_quote(long_value, q);
	ASSERT_TRUE(strlen(q) < YCONF_QUOTE_MAX);
	ASSERT_STREQ(q + strlen(q) - 6, "\xc3\xbc\"...");
}
