/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cpu reader (collector/controllers/cpu.c) on both hierarchies, and
 * its parsers of cpu.max and cpu.loadavg.
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
#include "collector/controllers/cpu.h"
#include "collector/parse.h"
#include "helpers-collector.h"

TEST(cpu_v1_shares_become_v2_weight_units_and_times_stay_ns)
{
	static const struct expect e[] = {
	    {METRIC_CPU_WEIGHT, NULL, 512 * 100}, /* exported as 51200/1024 = 50 */
	    {METRIC_CPU_QUOTA, NULL, 50000},
	    {METRIC_CPU_PERIOD, NULL, 100000},
	    {METRIC_CPU_BURST_QUOTA, NULL, 0},
	    {METRIC_CPU_PERIODS, NULL, 124},
	    {METRIC_CPU_THROTTLED_PERIODS, NULL, 120},
	    {METRIC_CPU_THROTTLED_TIME, NULL, 17263663481},
	    {METRIC_CPU_BURSTS, NULL, 0},
	    {METRIC_CPU_BURST_TIME, NULL, 0},
	};
	struct cgroup_record r = read_fixture("v1", &reader_cpu, false, false);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

/*
 * The v2 fixture's kernel had no wait_usec, as stock kernels have none:
 * no wait and no runnable time then, rather than a runnable time that
 * claims no task ever waited.
 */
TEST(cpu_v2_usec_become_ns_like_v1_and_no_wait_means_no_runnable)
{
	static const struct expect e[] = {
	    {METRIC_CPU_USAGE, NULL, 6068726000},
	    {METRIC_CPU_USER, NULL, 2638794000},
	    {METRIC_CPU_SYSTEM, NULL, 3429931000},
	    {METRIC_CPU_PERIODS, NULL, 124},
	    {METRIC_CPU_THROTTLED_PERIODS, NULL, 121},
	    {METRIC_CPU_THROTTLED_TIME, NULL, 17247788000},
	    {METRIC_CPU_BURSTS, NULL, 0},
	    {METRIC_CPU_BURST_TIME, NULL, 0},
	    {METRIC_CPU_QUOTA, NULL, 50000},
	    {METRIC_CPU_PERIOD, NULL, 100000},
	    {METRIC_CPU_BURST_QUOTA, NULL, 0},
	    {METRIC_CPU_WEIGHT, NULL, 50 * 1024},
	};
	struct cgroup_record r = read_fixture("v2", &reader_cpu, true, false);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

/*
 * What our kernel series adds on v2 (tests/fixtures/load-v2: three busy
 * loops on two CPUs for three 5 s periods): wait_usec in ns like the other
 * times, runnable time as usage + wait of the same read (34.2 s + 17.4 s),
 * and cpu.loadavg's averages in hundredths as printed, per window.
 */
TEST(cpu_v2_runnable_is_usage_plus_wait_and_load_averages_per_window)
{
	static const struct expect e[] = {
	    {METRIC_CPU_USAGE, NULL, 34201613000}, {METRIC_CPU_WAIT, NULL, 17373859000},
	    {METRIC_CPU_USER, NULL, 33954505000},  {METRIC_CPU_SYSTEM, NULL, 247108000},
	    {METRIC_CPU_PERIODS, NULL, 0},	   {METRIC_CPU_THROTTLED_PERIODS, NULL, 0},
	    {METRIC_CPU_THROTTLED_TIME, NULL, 0},  {METRIC_CPU_BURSTS, NULL, 0},
	    {METRIC_CPU_BURST_TIME, NULL, 0},	   {METRIC_CPU_RUNNABLE, NULL, 51575472000},
	    {METRIC_CPU_LOAD_AVERAGE, "1m", 66},   {METRIC_CPU_LOAD_AVERAGE, "5m", 15},
	    {METRIC_CPU_LOAD_AVERAGE, "15m", 5},   {METRIC_CPU_PERIOD, NULL, 100000},
	    {METRIC_CPU_BURST_QUOTA, NULL, 0},	   {METRIC_CPU_WEIGHT, NULL, 100 * 1024},
	};
	struct cgroup_record r = read_fixture("load-v2", &reader_cpu, true, false);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

/* A wait_usec of 0 is a value: runnable time is then the usage. */
TEST(cpu_v2_zero_wait_gives_runnable_time_equal_to_usage)
{
	static const struct expect e[] = {
	    {METRIC_CPU_USAGE, NULL, 5000},
	    {METRIC_CPU_WAIT, NULL, 0},
	    {METRIC_CPU_RUNNABLE, NULL, 5000},
	};
	char *dir = tmpdir_make();
	struct cgroup_record r;

	file_write(dir, "cpu.stat", "usage_usec 5\nwait_usec 0\n");
	r = read_dir(dir, &reader_cpu, true, false);
	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
	tmpdir_remove(dir);
	free(dir);
}

/*
 * v1 has no wait time and no cpu.loadavg (tests/fixtures/load-v1: the same
 * load on a v1 cpu hierarchy). A cpu.loadavg planted there is not read.
 */
TEST(cpu_v1_has_no_wait_runnable_time_or_load_averages)
{
	static const struct expect e[] = {
	    {METRIC_CPU_WEIGHT, NULL, 1024 * 100},
	    {METRIC_CPU_PERIOD, NULL, 100000},
	    {METRIC_CPU_BURST_QUOTA, NULL, 0},
	    {METRIC_CPU_PERIODS, NULL, 0},
	    {METRIC_CPU_THROTTLED_PERIODS, NULL, 0},
	    {METRIC_CPU_THROTTLED_TIME, NULL, 0},
	    {METRIC_CPU_BURSTS, NULL, 0},
	    {METRIC_CPU_BURST_TIME, NULL, 0},
	};
	char *dir = tmpdir_make();
	struct cgroup_record r;

	tree_copy_files("load-v1", dir);
	file_write(dir, "cpu.loadavg", "avg60 0.66\navg300 0.15\navg900 0.05\n");
	r = read_dir(dir, &reader_cpu, false, false);
	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
	tmpdir_remove(dir);
	free(dir);
}

TEST(cpu_max_and_loadavg_parsers_on_edge_cases)
{
	uint64_t quota, period, avg[CPU_LOADAVG_WINDOWS];
	unsigned windows;

	ASSERT_EQ(parse_cpu_max(LIT("max 100000\n"), &quota, &period), 0);
	ASSERT_EQ_U64(quota, CG_UNLIMITED);
	ASSERT_EQ_U64(period, 100000);
	ASSERT_EQ(parse_cpu_max(LIT("max\n"), &quota, &period), -EBADMSG);

	/* cpu.loadavg: hundredths exactly as printed, per window */
	ASSERT_EQ(parse_cpu_loadavg(LIT("avg60 12.05\navg300 0.61\navg900 0.00\n"), avg, &windows),
		  0);
	ASSERT_EQ(windows, 7);
	ASSERT_EQ_U64(avg[0], 1205);
	ASSERT_EQ_U64(avg[1], 61);
	ASSERT_EQ_U64(avg[2], 0);
	/* unknown keys, whatever follows them, are a newer kernel's: skipped */
	ASSERT_EQ(parse_cpu_loadavg(LIT("avg10 x y\navg900 0.25\n\navg60 0.98\nnr_running 3\n"),
				    avg, &windows),
		  0);
	ASSERT_EQ(windows, 5);
	ASSERT_EQ_U64(avg[0], 98);
	ASSERT_EQ_U64(avg[2], 25);
	/* the old series' "/proc/loadavg" line has no key we know: no values, not wrong ones */
	ASSERT_EQ(parse_cpu_loadavg(LIT("0.98 0.61 0.25 3\n"), avg, &windows), 0);
	ASSERT_EQ(windows, 0);
	ASSERT_EQ(parse_cpu_loadavg(LIT("avg60 0.9\n"), avg, &windows), -EBADMSG);
	ASSERT_EQ(parse_cpu_loadavg(LIT("avg60 1\n"), avg, &windows), -EBADMSG);
	ASSERT_EQ(parse_cpu_loadavg(LIT("avg60 .98\n"), avg, &windows), -EBADMSG);
	ASSERT_EQ(parse_cpu_loadavg(LIT("avg60 -0.98\n"), avg, &windows), -EBADMSG);
	ASSERT_EQ(parse_cpu_loadavg(LIT("avg60\n"), avg, &windows), -EBADMSG);
	ASSERT_EQ(parse_cpu_loadavg(LIT("avg60 0.98 3\n"), avg, &windows), -EBADMSG);
	ASSERT_EQ(parse_cpu_loadavg(LIT("avg60 0.98\navg60 0.97\n"), avg, &windows), -EBADMSG);
	/* keys match whole: "avg600.98" is not avg60 */
	ASSERT_EQ(parse_cpu_loadavg(LIT("avg600.98\n"), avg, &windows), 0);
	ASSERT_EQ(windows, 0);
}
