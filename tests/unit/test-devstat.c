/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The per-device block I/O parsers (collector/devstat.c): one table per
 * cgroup that every blkio or io file fills, devices in order of first
 * appearance, each value flagged as found.
 */
#include <errno.h>

#include "collector/devstat.h"
#include "collector/parse.h"
#include "test.h"

#define FOUND(f) (1u << (f))

/* v1's rwstat: Read, Write and Discard per device; Sync, Async, Total and the sum line are not. */
TEST(rwstat_takes_read_write_discard_per_device)
{
	struct dev_table t = {0};

	ASSERT_EQ(parse_blkio_rwstat(LIT("8:0 Read 4096\n8:0 Write 8192\n8:0 Sync 1\n"
					 "8:0 Async 2\n8:0 Discard 0\n8:0 Total 12288\n"
					 "8:16 Read 1\nTotal 12289\n"),
				     DEV_RBYTES, &t),
		  0);
	ASSERT_EQ(t.n, 2);
	ASSERT_EQ(t.devs[0].major, 8);
	ASSERT_EQ(t.devs[0].minor, 0);
	ASSERT_EQ_U64(t.devs[0].v[DEV_RBYTES], 4096);
	ASSERT_EQ_U64(t.devs[0].v[DEV_WBYTES], 8192);
	ASSERT_EQ_U64(t.devs[0].v[DEV_DBYTES], 0);
	ASSERT_EQ(t.devs[0].found, FOUND(DEV_RBYTES) | FOUND(DEV_WBYTES) | FOUND(DEV_DBYTES));
	ASSERT_EQ(t.devs[1].minor, 16);
	ASSERT_EQ(t.devs[1].found, FOUND(DEV_RBYTES));

	/* io_serviced fills the operation counts of the same devices */
	ASSERT_EQ(parse_blkio_rwstat(LIT("8:16 Write 3\n8:0 Read 5\n"), DEV_RIOS, &t), 0);
	ASSERT_EQ(t.n, 2);
	ASSERT_EQ_U64(t.devs[0].v[DEV_RIOS], 5);
	ASSERT_EQ_U64(t.devs[1].v[DEV_WIOS], 3);
	ASSERT_EQ(t.devs[1].found, FOUND(DEV_RBYTES) | FOUND(DEV_WIOS));
	dev_table_done(&t);
	ASSERT_EQ(t.n, 0);
}

/* io.stat keys by name, unknown policies' keys skipped; io.max and v1 limits take "max". */
TEST(io_stat_io_max_and_limits_fill_one_table)
{
	struct dev_table t = {0};

	ASSERT_EQ(parse_io_stat(LIT("254:0 rbytes=1 wbytes=2 rios=3 wios=4 dbytes=5 dios=6 "
				    "cost.usage=7\n254:16 \n"),
				&t),
		  0);
	ASSERT_EQ(t.n, 2);
	ASSERT_EQ_U64(t.devs[0].v[DEV_RBYTES], 1);
	ASSERT_EQ_U64(t.devs[0].v[DEV_WBYTES], 2);
	ASSERT_EQ_U64(t.devs[0].v[DEV_RIOS], 3);
	ASSERT_EQ_U64(t.devs[0].v[DEV_WIOS], 4);
	ASSERT_EQ_U64(t.devs[0].v[DEV_DBYTES], 5);
	ASSERT_EQ_U64(t.devs[0].v[DEV_DIOS], 6);
	ASSERT_EQ(t.devs[1].found, 0); /* an idle device prints its number alone */

	ASSERT_EQ(parse_io_max(LIT("254:0 rbps=max wbps=1048576 riops=max wiops=100\n"), &t), 0);
	ASSERT_EQ_U64(t.devs[0].v[DEV_RBPS], CG_UNLIMITED);
	ASSERT_EQ_U64(t.devs[0].v[DEV_WBPS], 1048576);
	ASSERT_EQ_U64(t.devs[0].v[DEV_WIOPS], 100);
	ASSERT_TRUE(t.devs[0].found & FOUND(DEV_RIOPS));

	ASSERT_EQ(parse_dev_value(LIT("254:16 1000\n254:32 max\n"), DEV_RIOPS, &t), 0);
	ASSERT_EQ(t.n, 3);
	ASSERT_EQ_U64(t.devs[1].v[DEV_RIOPS], 1000);
	ASSERT_EQ(t.devs[2].major, 254);
	ASSERT_EQ(t.devs[2].minor, 32);
	ASSERT_EQ_U64(t.devs[2].v[DEV_RIOPS], CG_UNLIMITED);
	ASSERT_EQ(parse_dev_value(LIT("254:16\n"), DEV_RIOPS, &t), -EBADMSG);
	ASSERT_EQ(parse_dev_value(LIT("254:16 1 2\n"), DEV_RIOPS, &t), -EBADMSG);
	dev_table_done(&t);
}

TEST(malformed_device_lines_are_errors)
{
	struct dev_table t = {0};

	ASSERT_EQ(parse_blkio_rwstat(LIT("8:0 Read\n"), DEV_RBYTES, &t), -EBADMSG);
	ASSERT_EQ(parse_io_stat(LIT("8:0 rbytes\n"), &t), -EBADMSG);
	ASSERT_EQ(parse_io_stat(LIT("x:0 rbytes=1\n"), &t), -EBADMSG);
	dev_table_done(&t);
}
