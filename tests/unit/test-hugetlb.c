/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hugetlb reader (collector/controllers/hugetlb.c) on both hierarchies.
 *
 * On the fixture files of one cgroup (tests/fixtures/v1, v2, hybrid,
 * captured from the guest kernel by tests/fixtures/capture): the exact list
 * of samples the reader produces, so a changed table row, unit or
 * "unlimited" rule shows up as a difference. Each layout's /a ran the same
 * workloads under the same limits, so the settled values agree across
 * layouts; the counters differ from run to run.
 */
#include "base/fileio.h"
#include "base/util.h"
#include "helpers-collector.h"

/* The workload asked for two huge pages under a limit of one: one failure. */
TEST(hugetlb_reads_each_page_size_and_skips_rsvd)
{
	static const struct expect v1[] = {
	    {METRIC_HUGETLB_USAGE, "2MB", 2097152},
	    {METRIC_HUGETLB_MAX_USAGE, "2MB", 2097152},
	    {METRIC_HUGETLB_LIMIT, "2MB", 2097152},
	    {METRIC_HUGETLB_LIMIT_FAILURES, "2MB", 1},
	};
	static const struct expect v2[] = {
	    {METRIC_HUGETLB_USAGE, "2MB", 2097152},
	    {METRIC_HUGETLB_LIMIT, "2MB", 2097152},
	    {METRIC_HUGETLB_LIMIT_FAILURES, "2MB", 1},
	};
	struct cgroup_record r = read_fixture("v1", &reader_hugetlb, false, false);

	check_samples(&r, v1, ELEMENTSOF(v1));
	record_done(&r);
	r = read_fixture("v2", &reader_hugetlb, true, false);
	check_samples(&r, v2, ELEMENTSOF(v2));
	record_done(&r);
}

/*
 * With a collection's list of sizes, the first cgroup's directory names
 * them and later cgroups are read by that list without a listing of their
 * own: a size only a later cgroup's directory shows is not read.
 */
TEST(hugetlb_sizes_are_listed_once_per_collection)
{
	static const struct expect first[] = {
	    {METRIC_HUGETLB_USAGE, "2MB", 4096},
	};
	static const struct expect second[] = {
	    {METRIC_HUGETLB_USAGE, "2MB", 8192},
	};
	char *a = tmpdir_make(), *b = tmpdir_make();
	struct hugetlb_sizes sizes = {0};
	struct reading r;

	file_write(a, "hugetlb.2MB.current", "4096\n");
	file_write(a, "hugetlb.2MB.events", "max 0\n");
	file_write(a, "hugetlb.2MB.rsvd.current", "0\n");
	file_write(b, "hugetlb.2MB.current", "8192\n");
	file_write(b, "hugetlb.2MB.events", "max 0\n");
	file_write(b, "hugetlb.1GB.current", "1073741824\n");
	file_write(b, "hugetlb.1GB.events", "max 0\n");
	reading_open(&r, a);
	r.ctx.hugetlb = &sizes;
	ASSERT_EQ(reader_hugetlb.read_v2(&r.ctx), 0);
	check_samples(&r.rec, first, ELEMENTSOF(first));
	ASSERT_TRUE(sizes.known);
	ASSERT_EQ(sizes.n, 1);
	ASSERT_STREQ(sizes.size[0], "2MB");
	reading_close(&r);

	reading_open(&r, b);
	r.ctx.hugetlb = &sizes;
	ASSERT_EQ(reader_hugetlb.read_v2(&r.ctx), 0);
	check_samples(&r.rec, second, ELEMENTSOF(second));
	ASSERT_EQ(sizes.n, 1);
	reading_close(&r);
	tmpdir_remove(a);
	tmpdir_remove(b);
	free(a);
	free(b);
}

/*
 * The sizes in the order the kernel made their files (inode numbers), its
 * index of each, which BPF records hold them by; a tmpfs directory, like
 * the tests' (tests/unit/meson.build), lists the newest entry first.
 */
TEST(hugetlb_sizes_are_in_the_kernels_order)
{
	static const char *const made[] = {"1GB", "2MB", "64KB"};
	char *a = tmpdir_make(), name[64];
	struct hugetlb_sizes sizes = {0};
	struct reading r;

	for (size_t i = 0; i < ELEMENTSOF(made); i++) {
		snprintf(name, sizeof(name), "hugetlb.%s.events", made[i]);
		file_write(a, name, "max 0\n");
		snprintf(name, sizeof(name), "hugetlb.%s.current", made[i]);
		file_write(a, name, "0\n");
	}
	reading_open(&r, a);
	r.ctx.hugetlb = &sizes;
	ASSERT_EQ(reader_hugetlb.read_v2(&r.ctx), 0);
	ASSERT_EQ(sizes.n, ELEMENTSOF(made));
	for (size_t i = 0; i < ELEMENTSOF(made); i++)
		ASSERT_STREQ(sizes.size[i], made[i]);
	reading_close(&r);
	tmpdir_remove(a);
	free(a);
}
