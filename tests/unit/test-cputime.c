/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu.stat's user/system split (collector/cputime.c): cputime_adjust()'s
 * arithmetic, and the tracker that keeps both counters from going back
 * when nothing moves the kernel's prev_cputime between collections.
 */
#include "collector/cputime.h"
#include "test.h"

#define SPLIT(u, s) ((struct cputime){.user = (u), .system = (s)})

TEST(run_time_is_split_in_the_ticks_ratio)
{
	struct cputime c = cputime_split(1000, SPLIT(3, 1), SPLIT(0, 0));

	ASSERT_EQ(c.user, 750);
	ASSERT_EQ(c.system, 250);
	/* rounded down as mul_u64_u64_div_u64(), with no overflow at large values */
	c = cputime_split(UINT64_C(3) << 62, SPLIT(UINT64_C(1) << 62, UINT64_C(1) << 62),
			  SPLIT(0, 0));
	ASSERT_EQ(c.system, UINT64_C(3) << 61);
	c = cputime_split(10, SPLIT(2, 1), SPLIT(0, 0));
	ASSERT_EQ(c.system, 3);
	ASSERT_EQ(c.user, 7);
}

TEST(one_kind_of_tick_takes_it_all)
{
	struct cputime c = cputime_split(500, SPLIT(0, 9), SPLIT(0, 0));

	ASSERT_EQ(c.system, 500);
	ASSERT_EQ(c.user, 0);
	c = cputime_split(500, SPLIT(9, 0), SPLIT(0, 0));
	ASSERT_EQ(c.user, 500);
	ASSERT_EQ(c.system, 0);
}

TEST(neither_goes_below_prev)
{
	/* the ratio says system 100, but 400 were given before */
	struct cputime c = cputime_split(1000, SPLIT(9, 1), SPLIT(100, 400));

	ASSERT_EQ(c.system, 400);
	ASSERT_EQ(c.user, 600);
	/* the ratio says user 100, but 700 were given before */
	c = cputime_split(1000, SPLIT(1, 9), SPLIT(700, 100));
	ASSERT_EQ(c.user, 700);
	ASSERT_EQ(c.system, 300);
	/* no run time since prev: prev as it is */
	c = cputime_split(1000, SPLIT(1, 1), SPLIT(600, 400));
	ASSERT_EQ(c.user, 600);
	ASSERT_EQ(c.system, 400);
}

TEST(tracker_keeps_its_counters_from_going_back)
{
	struct cputime_tracker *t;
	struct cputime c;

	ASSERT_EQ(cputime_tracker_new(&t), 0);
	c = cputime_tracker_split(t, 7, 1000, SPLIT(1, 1), SPLIT(0, 0));
	ASSERT_EQ(c.system, 500);
	cputime_tracker_end(t);
	/*
	 * The load turned to user time: from the kernel's prev alone (no one
	 * read cpu.stat) system would fall to 100; it stays at 500.
	 */
	c = cputime_tracker_split(t, 7, 1100, SPLIT(10, 1), SPLIT(0, 0));
	ASSERT_EQ(c.system, 500);
	ASSERT_EQ(c.user, 600);
	/* read twice in one collection (a hierarchy mounted twice): the same */
	c = cputime_tracker_split(t, 7, 1100, SPLIT(1, 10), SPLIT(0, 0));
	ASSERT_EQ(c.system, 500);
	cputime_tracker_end(t);
	/* a collection that does not meet it forgets it */
	cputime_tracker_end(t);
	c = cputime_tracker_split(t, 7, 1100, SPLIT(10, 1), SPLIT(0, 0));
	ASSERT_EQ(c.system, 100);
	/* a file reader's later prev counts too */
	c = cputime_tracker_split(t, 8, 1000, SPLIT(1, 1), SPLIT(200, 700));
	ASSERT_EQ(c.system, 700);
	ASSERT_EQ(c.user, 300);
	cputime_tracker_free(t);
}

TEST(no_tracker_is_the_kernel_alone)
{
	struct cputime c = cputime_tracker_split(NULL, 7, 1100, SPLIT(10, 1), SPLIT(0, 0));

	ASSERT_EQ(c.system, 100);
	ASSERT_EQ(c.user, 1000);
}
