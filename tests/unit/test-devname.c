/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Device names for the device label (collector/devname.c): from sysfs's
 * uevent, else its link, else "MAJ:MIN"; looked up once per collection.
 */
#include <errno.h>
#include <unistd.h>

#include "helpers-collector.h"

TEST(uevent_names_the_device)
{
	char name[LABEL_MAX];

	ASSERT_EQ(parse_uevent_devname(LIT("MAJOR=8\nDEVNAME=nvme0n1\n"), name), 0);
	ASSERT_STREQ(name, "nvme0n1");
	ASSERT_EQ(parse_uevent_devname(LIT("MAJOR=8\n"), name), -ENOENT);
	ASSERT_EQ(parse_uevent_devname(LIT("DEVNAME=\n"), name), -EBADMSG);
}

/*
 * The uevent's name, the link's last component, the number for a device
 * sysfs does not have; each kept, so that removing the device from sysfs
 * changes no name within the collection.
 */
TEST(lookups_try_uevent_then_link_then_number_and_are_kept)
{
	struct fake_sysfs sys;
	char name[LABEL_MAX], *path;

	fake_sysfs_init(&sys);
	devnames_lookup(&sys.devnames, 254, 0, name);
	ASSERT_STREQ(name, "vda");
	devnames_lookup(&sys.devnames, 254, 16, name);
	ASSERT_STREQ(name, "vdb");
	devnames_lookup(&sys.devnames, 254, 32, name);
	ASSERT_STREQ(name, "254:32");
	ASSERT_EQ(sys.devnames.n, 3);
	ASSERT_EQ(sys.devnames.entries[1].major, 254);
	ASSERT_EQ(sys.devnames.entries[1].minor, 16);
	ASSERT_STREQ(sys.devnames.entries[1].name, "vdb");

	ASSERT_TRUE(asprintf(&path, "%s/sys/dev/block/254:16", sys.root) >= 0);
	ASSERT_EQ(unlink(path), 0);
	devnames_lookup(&sys.devnames, 254, 16, name);
	ASSERT_STREQ(name, "vdb");
	ASSERT_EQ(sys.devnames.n, 3);
	free(path);
	fake_sysfs_done(&sys);
}

/* Without sysfs every device keeps its number: unique, unlike an empty name. */
TEST(without_sysfs_devices_are_named_by_number)
{
	char *root = tmpdir_make(), name[LABEL_MAX];
	struct devnames d;

	ASSERT_EQ(devnames_init(&d, root), 0);
	ASSERT_EQ(d.dirfd, -1);
	devnames_lookup(&d, 8, 0, name);
	ASSERT_STREQ(name, "8:0");
	devnames_done(&d);
	tmpdir_remove(root);
	free(root);
}
