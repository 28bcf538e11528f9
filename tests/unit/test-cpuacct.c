/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cpuacct reader (collector/controllers/cpuacct.c), v1 only, and its
 * parser of cpuacct.usage_all.
 *
 * On the fixture files of one cgroup (tests/fixtures/v1, v2, hybrid,
 * captured from the guest kernel by tests/fixtures/capture): the exact list
 * of samples the reader produces, so a changed table row, unit or
 * "unlimited" rule shows up as a difference. Each layout's /a ran the same
 * workloads under the same limits, so the settled values agree across
 * layouts; the counters differ from run to run.
 */
#include <errno.h>

#include "base/util.h"
#include "collector/controllers/cpuacct.h"
#include "helpers-collector.h"

TEST(cpuacct_v1_prefers_adjusted_stat_and_reads_load)
{
	static const struct expect e[] = {
	    {METRIC_CPU_USAGE, NULL, 6020658061},
	    {METRIC_CPU_LOAD, NULL, 38},
	    {METRIC_CPU_USER, NULL, 2950000000}, /* 295 ticks at USER_HZ 100 */
	    {METRIC_CPU_SYSTEM, NULL, 3060000000},
	};
	struct cgroup_record r = read_fixture("v1", &reader_cpuacct, false, false);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

TEST(cpuacct_per_cpu_is_opt_in_and_follows_cpu_order)
{
	static const struct expect e[] = {
	    {METRIC_CPU_USAGE, NULL, 6020658061},
	    {METRIC_CPU_LOAD, NULL, 38},
	    {METRIC_CPU_USER, NULL, 2950000000},
	    {METRIC_CPU_SYSTEM, NULL, 3060000000},
	    {METRIC_CPU_USAGE_PER_CPU, "0", 2848785456},
	    {METRIC_CPU_USAGE_PER_CPU, "1", 3171872605},
	    {METRIC_CPU_USER_PER_CPU, "0", 52000000},
	    {METRIC_CPU_SYSTEM_PER_CPU, "0", 1956000000},
	    {METRIC_CPU_USER_PER_CPU, "1", 1940000000},
	    {METRIC_CPU_SYSTEM_PER_CPU, "1", 116000000},
	};
	struct cgroup_record r = read_fixture("v1", &reader_cpuacct, false, true);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

/* Hybrid: cpuacct is alone on v1 and its reader sees the same files there. */
TEST(cpuacct_on_hybrid_v1_hierarchy)
{
	static const struct expect e[] = {
	    {METRIC_CPU_USAGE, NULL, 6023193470},
	    {METRIC_CPU_LOAD, NULL, 43},
	    {METRIC_CPU_USER, NULL, 2920000000},
	    {METRIC_CPU_SYSTEM, NULL, 3090000000},
	};
	struct cgroup_record r = read_fixture("hybrid", &reader_cpuacct, false, false);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

TEST(usage_all_gives_user_and_system_per_cpu_in_cpu_order)
{
	uint64_t *split;
	size_t n;

	/* user and system per CPU, CPU 0's first, past a first growth of the rows */
	ASSERT_EQ(parse_usage_all(LIT("cpu user system\n0 1 2\n1 3 4\n2 5 6\n"), &split, &n), 0);
	ASSERT_EQ(n, 3);
	ASSERT_EQ_U64(split[0 * USAGE_ALL_COLUMNS + USAGE_ALL_USER], 1);
	ASSERT_EQ_U64(split[0 * USAGE_ALL_COLUMNS + USAGE_ALL_SYSTEM], 2);
	ASSERT_EQ_U64(split[2 * USAGE_ALL_COLUMNS + USAGE_ALL_USER], 5);
	ASSERT_EQ_U64(split[2 * USAGE_ALL_COLUMNS + USAGE_ALL_SYSTEM], 6);
	free(split);
	/* a gap in the CPU numbering would shift every later CPU's values */
	ASSERT_EQ(parse_usage_all(LIT("cpu user system\n0 1 2\n2 3 4\n"), &split, &n), -EBADMSG);
	ASSERT_EQ(parse_usage_all(LIT("cpu user\n0 1\n"), &split, &n), -EBADMSG);
}
