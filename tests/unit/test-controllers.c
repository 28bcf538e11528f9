/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every reader on the fixture files of one cgroup (tests/fixtures/v1, v2,
 * hybrid, captured from the guest kernel by tests/fixtures/capture): the
 * exact list of samples each produces, so a changed table row, unit or
 * "unlimited" rule shows up as a difference. Each layout's /a ran the same
 * workloads under the same limits, so the settled values agree across
 * layouts; the counters differ from run to run.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/util.h"
#include "collector/controllers/controller.h"
#include "collector/controllers/cpu.h"
#include "collector/controllers/cpuacct.h"
#include "collector/controllers/pressure.h"
#include "collector/devname.h"
#include "collector/devstat.h"
#include "collector/parse.h"
#include "test.h"

struct expect {
	enum metric metric;
	const char *label;
	uint64_t value;
};

static void check_samples(const struct cgroup_record *r, const struct expect *e, size_t n)
{
	for (size_t i = 0; i < n && i < r->n_samples; i++) {
		const struct sample *s = &r->samples[i];

		if (s->metric != e[i].metric ||
		    strcmp(sample_label(r, s), e[i].label ? e[i].label : "") ||
		    s->value != e[i].value) {
			fprintf(stderr,
				"sample %zu: got metric %u label '%s' value %" PRIu64
				", expected metric %u label '%s' value %" PRIu64 "\n",
				i, s->metric, sample_label(r, s), s->value, e[i].metric,
				e[i].label ? e[i].label : "", e[i].value);
			abort();
		}
	}
	ASSERT_EQ(r->n_samples, n);
}

struct fake_sysfs {
	char *root;
	struct devnames devnames;
};

/*
 * The guest's disk 254:0 has a uevent naming it vda, 254:16 only the
 * symlink: two of the three lookup paths (the third, "MAJ:MIN", is
 * test_blkio_names_by_symlink_or_number).
 */
static void fake_sysfs_init(struct fake_sysfs *f)
{
	char *p;

	f->root = tmpdir_make();
	ASSERT_TRUE(asprintf(&p, "%s/sys/dev/block/254:0", f->root) >= 0);
	mkdir_p(p);
	file_write(p, "uevent", "MAJOR=254\nMINOR=0\nDEVNAME=vda\nDEVTYPE=disk\n");
	free(p);
	ASSERT_TRUE(asprintf(&p, "%s/sys/dev/block/254:16", f->root) >= 0);
	ASSERT_TRUE(symlink("../../devices/pci0000:00/virtio3/block/vdb", p) == 0);
	free(p);
	ASSERT_EQ(devnames_init(&f->devnames, f->root), 0);
}

static void fake_sysfs_done(struct fake_sysfs *f)
{
	devnames_done(&f->devnames);
	tmpdir_remove(f->root);
	free(f->root);
}

/* Run one controller's reader on the cgroup directory @path. */
static struct cgroup_record read_dir(const char *path, const struct controller_reader *c, bool v2,
				     bool per_cpu)
{
	struct cgroup_record rec = {0};
	struct fake_sysfs sys;
	struct readbuf buf = {0};
	unsigned absent = 0;
	struct reader_ctx ctx = {.buf = &buf,
				 .absent = &absent,
				 .rec = &rec,
				 .per_cpu = per_cpu,
				 .clock_ticks = 100,
				 .devnames = &sys.devnames};

	fake_sysfs_init(&sys);
	ctx.dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_TRUE(ctx.dirfd >= 0);
	ASSERT_EQ(v2 ? c->read_v2(&ctx) : c->read_v1(&ctx), 0);
	close(ctx.dirfd);
	readbuf_done(&buf);
	fake_sysfs_done(&sys);
	return rec;
}

static struct cgroup_record read_fixture(const char *dir, const struct controller_reader *c,
					 bool v2, bool per_cpu)
{
	char *path = fixture_path(dir);
	struct cgroup_record rec = read_dir(path, c, v2, per_cpu);

	free(path);
	return rec;
}

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
	struct cgroup_record rec = {0};
	struct fake_sysfs sys;
	struct readbuf buf = {0};
	unsigned absent = 0;
	struct reader_ctx ctx = {
	    .buf = &buf, .absent = &absent, .rec = &rec, .devnames = &sys.devnames};

	fake_sysfs_init(&sys);
	file_write(dir, "io.stat", "254:16 wbytes=4096\n254:32 wbytes=8192\n");
	ctx.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_EQ(reader_blkio.read_v2(&ctx), 0);
	check_samples(&rec, e, ELEMENTSOF(e));
	record_done(&rec);
	close(ctx.dirfd);
	readbuf_done(&buf);
	fake_sysfs_done(&sys);
	tmpdir_remove(dir);
	free(dir);
}

TEST(pids_limit_failures_from_events_and_max_is_absent)
{
	static const struct expect e[] = {
	    {METRIC_PIDS_CURRENT, NULL, 3},
	    {METRIC_PIDS_LIMIT, NULL, 64},
	    {METRIC_PIDS_LIMIT_FAILURES, NULL, 0},
	};
	struct cgroup_record r = read_fixture("v1", &reader_pids, false, false);
	char *dir = tmpdir_make();
	struct cgroup_record rec = {0};
	struct readbuf buf = {0};
	unsigned absent = 0;
	struct reader_ctx ctx = {.buf = &buf, .absent = &absent, .rec = &rec};

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
	r = read_fixture("v2", &reader_pids, true, false);
	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);

	/* the fixtures have a limit; "max" is unlimited: no sample */
	file_write(dir, "pids.max", "max\n");
	ctx.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_EQ(reader_pids.read_v2(&ctx), 0);
	ASSERT_EQ(rec.n_samples, 0);
	close(ctx.dirfd);
	readbuf_done(&buf);
	tmpdir_remove(dir);
	free(dir);
}

TEST(pressure_exports_totals_in_usec)
{
	static const struct expect e[] = {
	    {METRIC_PRESSURE_CPU_WAITING, NULL, 8984332},
	    {METRIC_PRESSURE_CPU_STALLED, NULL, 8845263},
	    {METRIC_PRESSURE_MEMORY_WAITING, NULL, 1380413},
	    {METRIC_PRESSURE_MEMORY_STALLED, NULL, 1380413},
	    {METRIC_PRESSURE_IO_WAITING, NULL, 182161},
	    {METRIC_PRESSURE_IO_STALLED, NULL, 147743},
	};
	struct cgroup_record r = read_fixture("v2", &reader_pressure, true, false);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

/* An empty directory is a cgroup where nothing is enabled: no samples, no error. */
TEST(every_reader_treats_missing_files_as_not_collected)
{
	char *dir = tmpdir_make();
	struct cgroup_record rec = {0};
	struct devnames dn = {.dirfd = -1};
	struct readbuf buf = {0};
	unsigned absent = 0, before;
	struct reader_ctx ctx = {.buf = &buf,
				 .absent = &absent,
				 .rec = &rec,
				 .devnames = &dn,
				 .per_cpu = true,
				 .clock_ticks = 100};

	ctx.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/*
	 * Each missing file is counted, so that the collection asks whether
	 * the cgroup itself is gone (hugetlb finds no sizes and reads none).
	 */
	for (size_t i = 0; i < _CONTROLLER_MAX; i++) {
		const struct controller_reader *c = controller_readers[i];
		bool reads = c != &reader_hugetlb;

		before = absent;
		if (c->read_v1)
			ASSERT_EQ(c->read_v1(&ctx), 0);
		ASSERT_TRUE(!c->read_v1 || !reads || absent > before);
		before = absent;
		if (c->read_v2)
			ASSERT_EQ(c->read_v2(&ctx), 0);
		ASSERT_TRUE(!c->read_v2 || !reads || absent > before);
	}
	ASSERT_EQ(rec.n_samples, 0);
	close(ctx.dirfd);
	readbuf_done(&buf);
	tmpdir_remove(dir);
	free(dir);
}

TEST(malformed_file_is_an_error_not_a_value)
{
	char *dir = tmpdir_make();
	struct cgroup_record rec = {0};
	struct readbuf buf = {0};
	unsigned absent = 0;
	struct reader_ctx ctx = {.buf = &buf, .absent = &absent, .rec = &rec};

	file_write(dir, "pids.current", "3 4\n");
	ctx.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_EQ(reader_pids.read_v2(&ctx), -EBADMSG);
	ASSERT_EQ(rec.n_samples, 0);
	close(ctx.dirfd);
	readbuf_done(&buf);
	tmpdir_remove(dir);
	free(dir);
}

TEST(format_parsers_on_edge_cases)
{
	uint64_t *split;
	struct dev_table t = {0};
	uint64_t quota, period, totals[2], found, avg[CPU_LOADAVG_WINDOWS];
	unsigned windows;
	char name[LABEL_MAX];
	size_t n;

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

	ASSERT_EQ(
	    parse_pressure(LIT("some avg10=0.00 avg60=0.00 avg300=0.00 total=5\n"), totals, &found),
	    0);
	ASSERT_EQ_U64(found, 1u << PRESSURE_SOME);
	ASSERT_EQ_U64(totals[PRESSURE_SOME], 5);
	ASSERT_EQ(parse_pressure(LIT("some avg10=0.00\n"), totals, &found), -EBADMSG);
	ASSERT_EQ(parse_pressure(
		      LIT("some avg10=0.00 avg60=0.00 avg300=0.00 total=7 \n"
			  "full avg10=0.00 avg60=0.00 avg300=0.00 total=18446744073709551615\n"),
		      totals, &found),
		  0);
	ASSERT_EQ_U64(found, (1u << PRESSURE_SOME) | (1u << PRESSURE_FULL));
	ASSERT_EQ_U64(totals[PRESSURE_SOME], 7);
	ASSERT_EQ_U64(totals[PRESSURE_FULL], UINT64_MAX);
	ASSERT_EQ(parse_pressure(LIT("full total=\n"), totals, &found), -EBADMSG);
	ASSERT_EQ(parse_pressure(LIT("full xtotal=1\n"), totals, &found), -EBADMSG);
	ASSERT_EQ(parse_pressure(LIT("some total=1\nsome total=2\n"), totals, &found), -EBADMSG);
	ASSERT_EQ(parse_pressure(LIT("some\n"), totals, &found), -EBADMSG);

	ASSERT_EQ(parse_blkio_rwstat(LIT("8:0 Read\n"), DEV_RBYTES, &t), -EBADMSG);
	ASSERT_EQ(parse_io_stat(LIT("8:0 rbytes\n"), &t), -EBADMSG);
	ASSERT_EQ(parse_io_stat(LIT("x:0 rbytes=1\n"), &t), -EBADMSG);
	dev_table_done(&t);

	ASSERT_EQ(parse_uevent_devname(LIT("MAJOR=8\nDEVNAME=nvme0n1\n"), name), 0);
	ASSERT_STREQ(name, "nvme0n1");
	ASSERT_EQ(parse_uevent_devname(LIT("MAJOR=8\n"), name), -ENOENT);
}
