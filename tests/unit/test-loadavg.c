/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Load averages from runnable time (collector/loadavg.c): /proc/loadavg's
 * averages whatever the intervals between reads, from the second read on,
 * and cgroups forgotten with the collection that no longer reads them.
 */
#include <math.h>

#include "base/clock.h"
#include "base/util.h"
#include "collector/loadavg.h"
#include "test.h"

#define SEC NSEC_PER_SEC

/* One collection reading cgroup id at second `at`, runnable for `runnable` seconds in all. */
static bool read_at(struct load_tracker *t, uint64_t id, double runnable, double at,
		    uint64_t avg[LOADAVG_WINDOWS])
{
	bool r = load_tracker_fold(t, id, (uint64_t)llround(runnable * SEC),
				   (uint64_t)llround(at * SEC), avg);

	load_tracker_end(t);
	return r;
}

TEST(averages_start_at_the_second_read_from_the_first_interval)
{
	struct load_tracker *t;
	uint64_t avg[LOADAVG_WINDOWS];

	ASSERT_EQ(load_tracker_new(&t), 0);
	ASSERT_TRUE(!read_at(t, 1, 100, 1000, avg));
	/* 2 tasks runnable throughout 15 s */
	ASSERT_TRUE(read_at(t, 1, 130, 1015, avg));
	for (size_t i = 0; i < LOADAVG_WINDOWS; i++)
		ASSERT_EQ_U64(avg[i], 2000);
	load_tracker_free(t);
}

/*
 * The averages at the last of times (seconds, one collection each, after
 * a first read at 0) of a cgroup whose one task is runnable from second 5
 * on.
 */
static void ramp(const double *times, size_t n, uint64_t avg[LOADAVG_WINDOWS])
{
	struct load_tracker *t;

	ASSERT_EQ(load_tracker_new(&t), 0);
	ASSERT_TRUE(!read_at(t, 1, 0, 0, avg));
	for (size_t i = 0; i < n; i++)
		ASSERT_TRUE(read_at(t, 1, times[i] > 5 ? times[i] - 5 : 0, times[i], avg));
	load_tracker_free(t);
}

/*
 * Read every 5 s as the kernel samples /proc/loadavg, once after 60 s, or
 * at uneven times: the same averages, those of kernel/sched/loadavg.c's
 * fixed-point rule (1 - EXP_1^12 after 60 s, EXP_1 = 1884/2048), to its
 * rounding.
 */
TEST(averages_do_not_depend_on_when_they_are_read)
{
	static const double every5[] = {5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65};
	static const double once[] = {5, 65};
	static const double uneven[] = {5, 6, 13.5, 14, 29, 41.25, 60, 65};
	uint64_t a[LOADAVG_WINDOWS], b[LOADAVG_WINDOWS], c[LOADAVG_WINDOWS];
	double kernel = 1;

	ramp(every5, ELEMENTSOF(every5), a);
	ramp(once, ELEMENTSOF(once), b);
	ramp(uneven, ELEMENTSOF(uneven), c);
	for (int n = 0; n < 12; n++)
		kernel = kernel * 1884 / 2048;
	ASSERT_TRUE(fabs(a[0] / 1000.0 - (1 - kernel)) < 0.002);
	for (size_t i = 0; i < LOADAVG_WINDOWS; i++) {
		ASSERT_TRUE(a[i] > 0);
		ASSERT_TRUE(llabs((long long)a[i] - (long long)b[i]) <= 1);
		ASSERT_TRUE(llabs((long long)a[i] - (long long)c[i]) <= 1);
	}
	/* the longer the window, the slower the rise */
	ASSERT_TRUE(a[0] > a[1] && a[1] > a[2]);
}

TEST(a_cgroup_not_read_is_forgotten_and_a_counter_that_goes_back_starts_over)
{
	struct load_tracker *t;
	uint64_t avg[LOADAVG_WINDOWS];

	ASSERT_EQ(load_tracker_new(&t), 0);
	ASSERT_TRUE(!read_at(t, 7, 10, 100, avg));
	ASSERT_TRUE(read_at(t, 7, 20, 110, avg));
	/* a collection without it */
	load_tracker_end(t);
	ASSERT_TRUE(!read_at(t, 7, 30, 130, avg));
	ASSERT_TRUE(read_at(t, 7, 35, 140, avg));
	ASSERT_EQ_U64(avg[0], 500);
	/* runnable time lower than before: not a negative load, a new count */
	ASSERT_TRUE(!read_at(t, 7, 1, 150, avg));
	load_tracker_free(t);
}

TEST(a_cgroup_read_twice_in_one_collection_is_folded_once)
{
	struct load_tracker *t;
	uint64_t first[LOADAVG_WINDOWS], again[LOADAVG_WINDOWS];

	ASSERT_EQ(load_tracker_new(&t), 0);
	ASSERT_TRUE(!read_at(t, 9, 0, 0, first));
	ASSERT_TRUE(load_tracker_fold(t, 9, 10 * SEC, 10 * SEC, first));
	/* the same hierarchy mounted twice: read again a moment later */
	ASSERT_TRUE(load_tracker_fold(t, 9, 10 * SEC + 1000, 10 * SEC + 2000, again));
	for (size_t i = 0; i < LOADAVG_WINDOWS; i++)
		ASSERT_EQ_U64(again[i], first[i]);
	load_tracker_end(t);
	load_tracker_free(t);
}
