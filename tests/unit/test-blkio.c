/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The blkio reader (collector/controllers/blkio.c): blkio on v1, io on v2,
 * per device, named through sysfs (helpers-collector.h's fake one).
 *
 * On the fixture files of one cgroup (tests/fixtures/v1, v2, hybrid,
 * captured from the guest kernel by tests/fixtures/capture): the exact list
 * of samples the reader produces, so a changed table row, unit or
 * "unlimited" rule shows up as a difference. Each layout's /a ran the same
 * workloads under the same limits, so the settled values agree across
 * layouts; the counters differ from run to run.
 */
#include <fcntl.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/util.h"
#include "helpers-collector.h"

/*
 * Both versions read the bytes and operations of the guest's disk, named
 * through its uevent, and the same limits (write 1 GiB/s, 1000 read IOPS);
 * "max" and empty limit files give no sample. v1 counts come from the
 * throttle files, which count because /a has a rule on the device.
 */
TEST(blkio_v1_and_v2_read_the_same_device_and_limits)
{
	static const struct expect v1[] = {
	    {METRIC_IO_READ_BYTES, "vda", 213196800},
	    {METRIC_IO_WRITE_BYTES, "vda", 16777216},
	    {METRIC_IO_DISCARD_BYTES, "vda", 0},
	    {METRIC_IO_READS, "vda", 210},
	    {METRIC_IO_WRITES, "vda", 17},
	    {METRIC_IO_DISCARDS, "vda", 0},
	    {METRIC_IO_WRITE_BPS_LIMIT, "vda", 1073741824},
	    {METRIC_IO_READ_IOPS_LIMIT, "vda", 1000},
	    {METRIC_IO_WEIGHT, NULL, 100},
	};
	static const struct expect v2[] = {
	    {METRIC_IO_READ_BYTES, "vda", 213905408},
	    {METRIC_IO_WRITE_BYTES, "vda", 16777216},
	    {METRIC_IO_DISCARD_BYTES, "vda", 0},
	    {METRIC_IO_READS, "vda", 207},
	    {METRIC_IO_WRITES, "vda", 17},
	    {METRIC_IO_DISCARDS, "vda", 0},
	    {METRIC_IO_WRITE_BPS_LIMIT, "vda", 1073741824},
	    {METRIC_IO_READ_IOPS_LIMIT, "vda", 1000},
	    {METRIC_IO_WEIGHT, NULL, 100},
	};
	struct cgroup_record r = read_fixture("v1", &reader_blkio, false, false);

	check_samples(&r, v1, ELEMENTSOF(v1));
	record_done(&r);
	r = read_fixture("v2", &reader_blkio, true, false);
	check_samples(&r, v2, ELEMENTSOF(v2));
	record_done(&r);
}

/* A device without uevent is named from its sysfs link, else "MAJ:MIN". */
TEST(blkio_names_by_symlink_or_number)
{
	static const struct expect e[] = {
	    {METRIC_IO_WRITE_BYTES, "vdb", 4096},
	    {METRIC_IO_WRITE_BYTES, "254:32", 8192},
	};
	char *dir = tmpdir_make();
	struct fake_sysfs sys;
	struct reading r;

	fake_sysfs_init(&sys);
	file_write(dir, "io.stat", "254:16 wbytes=4096\n254:32 wbytes=8192\n");
	reading_open(&r, dir);
	r.ctx.devnames = &sys.devnames;
	ASSERT_EQ(reader_blkio.read_v2(&r.ctx), 0);
	check_samples(&r.rec, e, ELEMENTSOF(e));
	reading_close(&r);
	fake_sysfs_done(&sys);
	tmpdir_remove(dir);
	free(dir);
}
