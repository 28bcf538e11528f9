/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A part of a cgroup's path as a label shows it (model/identity.c): as it
 * is, a pod UID with systemd's '_' for '-', a unit name with its "\xNN"
 * escapes undone; never longer than a unit name may be. What the parts
 * are is collector/identity.c's (test-identity.c).
 */
#include "model/identity.h"
#include "test.h"

static const char *value(const char *path, uint16_t off, uint16_t len,
			 enum identity_spelling spelling)
{
	static char out[IDENTITY_VALUE_MAX + 1];
	const struct identity_span s = {.off = off, .len = len, .spelling = spelling};

	identity_value(path, &s, out);
	return out;
}

TEST(spans_are_written_as_the_label_shows_them)
{
	ASSERT_STREQ(value("/system.slice/nginx.service", 14, 13, IDENTITY_AS_IS), "nginx.service");
	ASSERT_STREQ(value("/a_b\\x2dc", 1, 8, IDENTITY_AS_IS), "a_b\\x2dc");
	ASSERT_STREQ(value("/x", 1, 0, IDENTITY_AS_IS), "");
	ASSERT_STREQ(value("/pod1b2c3d4e_5f60_7a8b", 4, 18, IDENTITY_POD_UID_UNDERSCORED),
		     "1b2c3d4e-5f60-7a8b");
	/* only a unit name's escapes are undone, and only '_' is a pod UID's */
	ASSERT_STREQ(value("/a\\x2db_c", 1, 8, IDENTITY_POD_UID_UNDERSCORED), "a\\x2db-c");
	ASSERT_STREQ(value("/machine-qemu\\x2d1\\x2dvm1.scope", 1, 30, IDENTITY_UNIT_ESCAPED),
		     "machine-qemu-1-vm1.scope");
	ASSERT_STREQ(value("/a\\x2Fb\\x41", 1, 10, IDENTITY_UNIT_ESCAPED), "a/bA");
	ASSERT_STREQ(value("/a_b", 1, 3, IDENTITY_UNIT_ESCAPED), "a_b");
}

/* What is not a whole "\xNN" within the span stays as it is. */
TEST(broken_escapes_stay_as_they_are)
{
	ASSERT_STREQ(value("/a\\x2g", 1, 5, IDENTITY_UNIT_ESCAPED), "a\\x2g");
	ASSERT_STREQ(value("/a\\y2d", 1, 5, IDENTITY_UNIT_ESCAPED), "a\\y2d");
	ASSERT_STREQ(value("/a\\x2", 1, 4, IDENTITY_UNIT_ESCAPED), "a\\x2");
	/* the escape runs past the span's end: the span ends first */
	ASSERT_STREQ(value("/a\\x2d", 1, 4, IDENTITY_UNIT_ESCAPED), "a\\x2");
	ASSERT_STREQ(value("/\\\\x41", 1, 5, IDENTITY_UNIT_ESCAPED), "\\A");
}

TEST(values_stop_at_a_unit_names_limit)
{
	char path[400];

	path[0] = '/';
	memset(path + 1, 'u', sizeof(path) - 2);
	path[sizeof(path) - 1] = '\0';
	ASSERT_EQ(strlen(value(path, 1, 398, IDENTITY_AS_IS)), IDENTITY_VALUE_MAX);
	ASSERT_EQ(strlen(value(path, 1, IDENTITY_VALUE_MAX, IDENTITY_AS_IS)), IDENTITY_VALUE_MAX);
	ASSERT_EQ(strlen(value(path, 1, 10, IDENTITY_AS_IS)), 10);
}
