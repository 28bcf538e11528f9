/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The memory reader (collector/controllers/memory.c) on both hierarchies.
 *
 * On the fixture files of one cgroup (tests/fixtures/v1, v2, hybrid,
 * captured from the guest kernel by tests/fixtures/capture): the exact list
 * of samples the reader produces, so a changed table row, unit or
 * "unlimited" rule shows up as a difference. Each layout's /a ran the same
 * workloads under the same limits, so the settled values agree across
 * layouts; the counters differ from run to run.
 */
#include "base/util.h"
#include "helpers-collector.h"

TEST(memory_v1_drops_unlimited_and_uses_hierarchical_stat)
{
	static const struct expect e[] = {
	    {METRIC_MEMORY_USAGE, NULL, 33542144},
	    {METRIC_MEMORY_MAX_USAGE, NULL, 33554432},
	    {METRIC_MEMORY_LIMIT, NULL, 33554432},
	    /* soft limit 9223372036854771712 = unlimited: absent */
	    {METRIC_MEMORY_LIMIT_FAILURES, NULL, 44003},
	    {METRIC_MEMORY_MEMSW_USAGE, NULL, 33542144},
	    {METRIC_MEMORY_MEMSW_MAX_USAGE, NULL, 33816576},
	    /* memsw limit unlimited: absent */
	    {METRIC_MEMORY_MEMSW_LIMIT_FAILURES, NULL, 0},
	    {METRIC_MEMORY_KERNEL_USAGE, NULL, 835584},
	    {METRIC_MEMORY_KERNEL_MAX_USAGE, NULL, 835584},
	    /* kmem limit unlimited: absent */
	    {METRIC_MEMORY_KERNEL_LIMIT_FAILURES, NULL, 0},
	    {METRIC_MEMORY_CACHE, NULL, 31305728},
	    {METRIC_MEMORY_RSS, NULL, 1200128},
	    {METRIC_MEMORY_SHMEM, NULL, 0},
	    {METRIC_MEMORY_MAPPED_FILE, NULL, 0},
	    {METRIC_MEMORY_DIRTY, NULL, 0},
	    {METRIC_MEMORY_WRITEBACK, NULL, 0},
	    {METRIC_MEMORY_SWAP_USAGE, NULL, 0},
	    {METRIC_MEMORY_ACTIVE_ANON, NULL, 12288},
	    {METRIC_MEMORY_INACTIVE_ANON, NULL, 1187840},
	    {METRIC_MEMORY_ACTIVE_FILE, NULL, 0},
	    {METRIC_MEMORY_INACTIVE_FILE, NULL, 31305728},
	    {METRIC_MEMORY_UNEVICTABLE, NULL, 0},
	    {METRIC_MEMORY_PAGE_FAULTS, NULL, 625},
	    {METRIC_MEMORY_MAJOR_PAGE_FAULTS, NULL, 0},
	    {METRIC_MEMORY_UNDER_OOM, NULL, 0},
	    {METRIC_MEMORY_OOM_KILLS, NULL, 0},
	};
	struct cgroup_record r = read_fixture("v1", &reader_memory, false, false);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

/*
 * v1 memory.stat is parsed from its first total_ line on: one further down
 * a line is no start, and a file that starts with one is read whole.
 */
TEST(memory_v1_stat_starts_at_the_first_total_line)
{
	static const struct expect inside[] = {
	    {METRIC_MEMORY_RSS, NULL, 5},
	};
	static const struct expect first[] = {
	    {METRIC_MEMORY_CACHE, NULL, 3},
	    {METRIC_MEMORY_RSS, NULL, 4},
	};
	char *dir = tmpdir_make();
	struct cgroup_record r;

	/* taken from "total_rss 7", the line would make total_rss a duplicate */
	file_write(dir, "memory.stat", "rss 1\nxtotal_rss 7\ntotal_rss 5\n");
	r = read_dir(dir, &reader_memory, false, false);
	check_samples(&r, inside, ELEMENTSOF(inside));
	record_done(&r);
	file_write(dir, "memory.stat", "total_cache 3\ntotal_rss 4\n");
	r = read_dir(dir, &reader_memory, false, false);
	check_samples(&r, first, ELEMENTSOF(first));
	record_done(&r);
	tmpdir_remove(dir);
	free(dir);
}

/* memory.events max and oom_kill feed the same failure/OOM counters as v1's files. */
TEST(memory_v2_events_feed_the_v1_equivalent_counters)
{
	static const struct expect e[] = {
	    {METRIC_MEMORY_USAGE, NULL, 33509376},
	    {METRIC_MEMORY_MAX_USAGE, NULL, 33554432},
	    {METRIC_MEMORY_LIMIT, NULL, 33554432},
	    /* memory.high "max": absent */
	    {METRIC_MEMORY_LOW, NULL, 0},
	    {METRIC_MEMORY_MIN, NULL, 0},
	    {METRIC_MEMORY_LIMIT_FAILURES, NULL, 776},
	    {METRIC_MEMORY_OOM_KILLS, NULL, 0},
	    {METRIC_MEMORY_EVENTS, "low", 0},
	    {METRIC_MEMORY_EVENTS, "high", 0},
	    {METRIC_MEMORY_EVENTS, "max", 776},
	    {METRIC_MEMORY_EVENTS, "oom", 0},
	    {METRIC_MEMORY_EVENTS, "oom_kill", 0},
	    {METRIC_MEMORY_EVENTS, "oom_group_kill", 0},
	    {METRIC_MEMORY_SWAP_USAGE, NULL, 0},
	    /* memory.swap.max "max": absent */
	    {METRIC_MEMORY_SWAP_EVENTS, "high", 0},
	    {METRIC_MEMORY_SWAP_EVENTS, "max", 0},
	    {METRIC_MEMORY_SWAP_EVENTS, "fail", 0},
	    {METRIC_MEMORY_KERNEL_USAGE, NULL, 831488},
	    {METRIC_MEMORY_CACHE, NULL, 31469568},
	    {METRIC_MEMORY_RSS, NULL, 1196032},
	    {METRIC_MEMORY_SHMEM, NULL, 0},
	    {METRIC_MEMORY_MAPPED_FILE, NULL, 0},
	    {METRIC_MEMORY_DIRTY, NULL, 0},
	    {METRIC_MEMORY_WRITEBACK, NULL, 0},
	    {METRIC_MEMORY_ACTIVE_ANON, NULL, 12288},
	    {METRIC_MEMORY_INACTIVE_ANON, NULL, 1183744},
	    {METRIC_MEMORY_ACTIVE_FILE, NULL, 0},
	    {METRIC_MEMORY_INACTIVE_FILE, NULL, 31469568},
	    {METRIC_MEMORY_UNEVICTABLE, NULL, 0},
	    {METRIC_MEMORY_PAGE_FAULTS, NULL, 628},
	    {METRIC_MEMORY_MAJOR_PAGE_FAULTS, NULL, 0},
	};
	struct cgroup_record r = read_fixture("v2", &reader_memory, true, false);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

/*
 * A parent whose child hit its own limit: v2's memory.events counts the
 * child's events in the parent too, memory.events.local only the parent's
 * own, which is what v1's failcnt and oom_control count, so the limit
 * failure and OOM kill counters come from .local and a limit alert fires
 * for the limited group only.
 */
TEST(memory_v2_limit_failures_count_only_the_groups_own_limit)
{
	static const struct expect e[] = {
	    {METRIC_MEMORY_LIMIT_FAILURES, NULL, 0},
	    {METRIC_MEMORY_OOM_KILLS, NULL, 0},
	    {METRIC_MEMORY_EVENTS, "max", 776},
	    {METRIC_MEMORY_EVENTS, "oom_kill", 2},
	};
	char *dir = tmpdir_make();
	struct cgroup_record r;

	file_write(dir, "memory.events", "max 776\noom_kill 2\n");
	file_write(dir, "memory.events.local", "max 0\noom_kill 0\n");
	r = read_dir(dir, &reader_memory, true, false);
	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
	tmpdir_remove(dir);
	free(dir);
}
