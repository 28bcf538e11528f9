/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cpu reader (collector/controllers/cpu.c) on both hierarchies, its
 * parser of cpu.max, and the load averages it folds from runnable time.
 *
 * On the fixture files of one cgroup (tests/fixtures/v1, v2, hybrid,
 * captured from the guest kernel by tests/fixtures/capture): the exact list
 * of samples the reader produces, so a changed table row, unit or
 * "unlimited" rule shows up as a difference. Each layout's /a ran the same
 * workloads under the same limits, so the settled values agree across
 * layouts; the counters differ from run to run.
 */
#include <errno.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/util.h"
#include "collector/controllers/cpu.h"
#include "collector/loadavg.h"
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
 * times, and runnable time as usage + wait of the same read (34.2 s +
 * 17.4 s). A first read has no load average: there is no interval yet.
 */
TEST(cpu_v2_runnable_is_usage_plus_wait)
{
	static const struct expect e[] = {
	    {METRIC_CPU_USAGE, NULL, 34201613000}, {METRIC_CPU_WAIT, NULL, 17373859000},
	    {METRIC_CPU_USER, NULL, 33954505000},  {METRIC_CPU_SYSTEM, NULL, 247108000},
	    {METRIC_CPU_PERIODS, NULL, 0},	   {METRIC_CPU_THROTTLED_PERIODS, NULL, 0},
	    {METRIC_CPU_THROTTLED_TIME, NULL, 0},  {METRIC_CPU_BURSTS, NULL, 0},
	    {METRIC_CPU_BURST_TIME, NULL, 0},	   {METRIC_CPU_RUNNABLE, NULL, 51575472000},
	    {METRIC_CPU_PERIOD, NULL, 100000},	   {METRIC_CPU_BURST_QUOTA, NULL, 0},
	    {METRIC_CPU_WEIGHT, NULL, 100 * 1024},
	};
	struct cgroup_record r = read_fixture("load-v2", &reader_cpu, true, false);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

/* The load average samples of r, by window, in thousandths; how many there were. */
static size_t load_averages(const struct cgroup_record *r, uint64_t ret[LOADAVG_WINDOWS])
{
	size_t n = 0;

	for (size_t i = 0; i < r->n_samples; i++) {
		const struct sample *s = &r->samples[i];

		if (s->metric != METRIC_CPU_LOAD_AVERAGE)
			continue;
		ASSERT_STREQ(sample_label(r, s), loadavg_windows[n].label);
		ret[n++] = s->value;
	}
	return n;
}

/*
 * With a tracker, the reader folds runnable time into load averages from
 * the second read on: 2 s more runnable time over the time between the
 * reads, which the test brackets with its own clock, is the mean.
 */
TEST(cpu_v2_load_averages_from_the_second_read_on)
{
	char *dir = tmpdir_make();
	struct load_tracker *t;
	struct reading r;
	uint64_t avg[LOADAVG_WINDOWS], start, end;

	ASSERT_EQ(load_tracker_new(&t), 0);
	file_write(dir, "cpu.stat", "usage_usec 1000000\nwait_usec 500000\n");
	reading_open(&r, dir);
	r.ctx.loads = t;
	r.ctx.id = 42;
	start = now_nsec();
	ASSERT_EQ(reader_cpu.read_v2(&r.ctx), 0);
	ASSERT_EQ(load_averages(&r.rec, avg), 0);
	load_tracker_end(t);
	usleep(20000);
	file_write(dir, "cpu.stat", "usage_usec 2000000\nwait_usec 1500000\n");
	r.rec.n_samples = r.rec.labels_len = 0;
	ASSERT_EQ(reader_cpu.read_v2(&r.ctx), 0);
	end = now_nsec();
	ASSERT_EQ(load_averages(&r.rec, avg), LOADAVG_WINDOWS);
	for (size_t i = 0; i < LOADAVG_WINDOWS; i++) {
		/* 2 s of runnable time over more than 20 ms, and less than end - start */
		ASSERT_TRUE(avg[i] <= 100 * 1000);
		ASSERT_TRUE(avg[i] + 1 >= 2 * NSEC_PER_SEC * 1000 / (end - start));
		ASSERT_EQ_U64(avg[i], avg[0]);
	}
	reading_close(&r);
	load_tracker_free(t);
	tmpdir_remove(dir);
	free(dir);
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

/* v1 has no wait time (tests/fixtures/load-v1: the same load on a v1 cpu hierarchy). */
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
	struct cgroup_record r = read_fixture("load-v1", &reader_cpu, false, false);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

TEST(cpu_max_parser_on_edge_cases)
{
	uint64_t quota, period;

	ASSERT_EQ(parse_cpu_max(LIT("max 100000\n"), &quota, &period), 0);
	ASSERT_EQ_U64(quota, CG_UNLIMITED);
	ASSERT_EQ_U64(period, 100000);
	ASSERT_EQ(parse_cpu_max(LIT("50000 100000\n"), &quota, &period), 0);
	ASSERT_EQ_U64(quota, 50000);
	ASSERT_EQ(parse_cpu_max(LIT("max\n"), &quota, &period), -EBADMSG);
	ASSERT_EQ(parse_cpu_max(LIT("max 100000 1\n"), &quota, &period), -EBADMSG);
}
