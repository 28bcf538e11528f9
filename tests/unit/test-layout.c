/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Layout detection from mountinfo: v1, v2 and hybrid as captured from the
 * guests (tests/fixtures/capture), and a hand-written systemd-style hybrid
 * host with the odd mounts a guest does not have.
 */
#include <errno.h>

#include "base/util.h"
#include "collector/layout.h"
#include "test.h"

static struct layout parse_fixture(const char *name, const char *prefix)
{
	struct layout l;
	size_t len;
	char *buf = fixture_read(name, &len);

	ASSERT_EQ(layout_parse_mountinfo(buf, len, prefix, &l), 0);
	free(buf);
	return l;
}

/* cpuset and freezer carry nothing we read; cpu,cpuacct is one hierarchy. */
TEST(v1_finds_each_controller_hierarchy_and_skips_others)
{
	struct layout l = parse_fixture("v1.mountinfo", "");
	static const struct {
		const char *path, *name;
		unsigned mask;
	} expect[] = {
	    {"/sys/fs/cgroup/blkio", "blkio", CONTROLLER_BIT(CONTROLLER_blkio)},
	    {"/sys/fs/cgroup/memory", "memory", CONTROLLER_BIT(CONTROLLER_memory)},
	    {"/sys/fs/cgroup/hugetlb", "hugetlb", CONTROLLER_BIT(CONTROLLER_hugetlb)},
	    {"/sys/fs/cgroup/pids", "pids", CONTROLLER_BIT(CONTROLLER_pids)},
	    {"/sys/fs/cgroup/cpu,cpuacct", "cpu,cpuacct",
	     CONTROLLER_BIT(CONTROLLER_cpu) | CONTROLLER_BIT(CONTROLLER_cpuacct)},
	};

	ASSERT_EQ(l.n, ELEMENTSOF(expect));
	for (size_t i = 0; i < l.n; i++) {
		ASSERT_STREQ(l.hierarchies[i].path, expect[i].path);
		ASSERT_STREQ(l.hierarchies[i].name, expect[i].name);
		ASSERT_EQ(l.hierarchies[i].controllers, expect[i].mask);
		ASSERT_TRUE(!l.hierarchies[i].unified);
	}
	ASSERT_STREQ(layout_kind(&l), "v1");
	layout_done(&l);
}

TEST(v2_is_one_unified_hierarchy_under_the_prefix)
{
	struct layout l = parse_fixture("v2.mountinfo", "/tmp/fake");

	ASSERT_EQ(l.n, 1);
	ASSERT_STREQ(l.hierarchies[0].path, "/tmp/fake/sys/fs/cgroup");
	ASSERT_STREQ(l.hierarchies[0].name, "unified");
	ASSERT_TRUE(l.hierarchies[0].unified);
	ASSERT_STREQ(layout_kind(&l), "v2");
	layout_done(&l);
}

TEST(hybrid_guest_is_cpuacct_on_v1_then_unified)
{
	struct layout l = parse_fixture("hybrid.mountinfo", "");

	ASSERT_EQ(l.n, 2);
	ASSERT_STREQ(l.hierarchies[0].path, "/sys/fs/cgroup/cpuacct");
	ASSERT_STREQ(l.hierarchies[0].name, "cpuacct");
	ASSERT_EQ(l.hierarchies[0].controllers, CONTROLLER_BIT(CONTROLLER_cpuacct));
	ASSERT_STREQ(l.hierarchies[1].path, "/sys/fs/cgroup/unified");
	ASSERT_TRUE(l.hierarchies[1].unified);
	ASSERT_STREQ(layout_kind(&l), "hybrid");
	layout_done(&l);
}

/*
 * Systemd-style hybrid host (hand-written): co-mounted cpu,cpuacct is one
 * hierarchy; the second mount of it (escaped space) and the subtree mount
 * of memory are the same hierarchies again and are dropped; cpuset and
 * name=systemd carry nothing we read; unified is last.
 */
TEST(hybrid_dedups_mounts_and_orders_unified_last)
{
	struct layout l = parse_fixture("systemd-hybrid.mountinfo", "");

	ASSERT_EQ(l.n, 6);
	ASSERT_STREQ(l.hierarchies[0].path, "/sys/fs/cgroup/cpu,cpuacct");
	ASSERT_STREQ(l.hierarchies[0].name, "cpu,cpuacct");
	ASSERT_EQ(l.hierarchies[0].controllers,
		  CONTROLLER_BIT(CONTROLLER_cpu) | CONTROLLER_BIT(CONTROLLER_cpuacct));
	ASSERT_STREQ(l.hierarchies[1].path, "/sys/fs/cgroup/memory");
	ASSERT_STREQ(l.hierarchies[4].name, "hugetlb");
	ASSERT_STREQ(l.hierarchies[5].path, "/sys/fs/cgroup/unified");
	ASSERT_TRUE(l.hierarchies[5].unified);
	ASSERT_STREQ(layout_kind(&l), "hybrid");
	layout_done(&l);
}

TEST(named_hierarchy_without_controllers_is_skipped)
{
	struct layout l;
	static const char mi[] = "1 0 0:40 / /sys/fs/cgroup/systemd rw - cgroup x rw,name=systemd\n"
				 "2 0 0:41 / /sys/fs/cgroup/pids rw - cgroup x rw,pids\n";

	ASSERT_EQ(layout_parse_mountinfo(LIT(mi), "", &l), 0);
	ASSERT_EQ(l.n, 1);
	ASSERT_STREQ(l.hierarchies[0].name, "pids");
	layout_done(&l);
}

TEST(mount_point_escapes_are_decoded)
{
	struct layout l;
	static const char mi[] = "1 0 0:40 / /mnt/a\\040b\\134c rw - cgroup x rw,pids\n";

	ASSERT_EQ(layout_parse_mountinfo(LIT(mi), "", &l), 0);
	ASSERT_EQ(l.n, 1);
	ASSERT_STREQ(l.hierarchies[0].path, "/mnt/a b\\c");
	layout_done(&l);
}

TEST(subtree_mount_is_replaced_by_a_later_whole_mount)
{
	struct layout l;
	static const char mi[] = "1 0 0:40 /sub /mnt/sub rw - cgroup x rw,pids\n"
				 "2 0 0:40 / /mnt/whole rw - cgroup x rw,pids\n";

	ASSERT_EQ(layout_parse_mountinfo(LIT(mi), "", &l), 0);
	ASSERT_EQ(l.n, 1);
	ASSERT_STREQ(l.hierarchies[0].path, "/mnt/whole");
	layout_done(&l);
}

TEST(truncated_line_is_an_error)
{
	struct layout l;

	ASSERT_EQ(layout_parse_mountinfo(LIT("1 0 0:40 / /mnt rw shared:1\n"), "", &l), -EBADMSG);
	ASSERT_EQ(layout_parse_mountinfo(LIT("1 0 0:40 / /mnt rw - cgroup2\n"), "", &l), -EBADMSG);
}
