/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cAdvisor naming (exporter/cadvisor.c): cAdvisor's container_* names,
 * labels and units over the same samples, the runtime's name and image on
 * every series, and its rows as promtool lints them.
 */
#include "base/util.h"
#include "exporter/cadvisor.h"
#include "helpers-exporter.h"

/*
 * The cAdvisor rows lint as the native ones do, except the failcnt
 * families, which cAdvisor types counter without "_total": those must be
 * untyped, never counters. Rows of one family are adjacent and agree on type.
 */
TEST(cadvisor_rows_lint_clean_and_share_names_only_when_adjacent)
{
	for (size_t k = 0; k < cadvisor_naming.n_rows; k++) {
		const struct cadvisor_row *c = &cadvisor_rows[k];
		size_t len = strlen(c->name);
		bool total = len > 6 && strcmp(c->name + len - 6, "_total") == 0;
		bool continues = k > 0 && strcmp(cadvisor_rows[k - 1].name, c->name) == 0;

		ASSERT_EQ(strncmp(c->name, "container_", 10), 0);
		ASSERT_TRUE(c->source < _METRIC_MAX);
		ASSERT_EQ(c->type == FAMILY_COUNTER, total);
		ASSERT_TRUE(c->type != FAMILY_INFO);
		ASSERT_TRUE(continues || c->help != NULL);
		if (continues)
			ASSERT_EQ(c->type, cadvisor_rows[k - 1].type);
		for (size_t j = 0; j + 1 < k; j++)
			ASSERT_TRUE(strcmp(cadvisor_rows[j].name, c->name) != 0 || continues);
	}
}

/*
 * "/" has no CFS quota, so no container_cpu_cfs_* series, and more inactive
 * page cache than usage, so a working set of 0; the second cgroup has a quota,
 * shares 512, per-CPU usage (which replaces its total), a named and an
 * unresolved device. Both are in v1 hierarchies, with memory but no memory
 * limits: cAdvisor's 0. Identity samples have no cAdvisor family.
 */
static struct block_device cadvisor_devices[] = {{8, 0, "sda"}, {8, 16, "8:16"}};

static struct snapshot cadvisor_snapshot(void)
{
	struct snapshot s = snapshot_shell("/we\"ird");
	struct cgroup_record *root = &s.records[0], *weird = &s.records[1];

	add(root, METRIC_INFO_SERIAL, "cpu,cpuacct", 0);
	add(root, METRIC_CPU_USAGE, NULL, 2500000000);
	add(root, METRIC_CPU_PERIODS, NULL, 10);
	add(root, METRIC_CPU_WEIGHT, NULL, 102400);
	add(root, METRIC_MEMORY_USAGE, NULL, 1000);
	add(root, METRIC_MEMORY_INACTIVE_FILE, NULL, 4000);
	add(weird, METRIC_INFO_INO, "cpu,cpuacct", 4242);
	add(weird, METRIC_CPU_USAGE, NULL, 7);
	add(weird, METRIC_CPU_USAGE_PER_CPU, "0", 3);
	add(weird, METRIC_CPU_THROTTLED_PERIODS, NULL, 5);
	add(weird, METRIC_CPU_QUOTA, NULL, 50000);
	add(weird, METRIC_CPU_WEIGHT, NULL, 51200);
	add(weird, METRIC_MEMORY_USAGE, NULL, 3000);
	add(weird, METRIC_MEMORY_LIMIT_FAILURES, NULL, 2);
	add(weird, METRIC_MEMORY_INACTIVE_FILE, NULL, 1000);
	add(weird, METRIC_IO_READ_BYTES, "sda", 512);
	add(weird, METRIC_IO_READ_BYTES, "8:16", 1024);
	s.devices = cadvisor_devices;
	s.n_devices = ELEMENTSOF(cadvisor_devices);
	return s;
}

/* The cadvisor_snapshot() in cAdvisor naming, in format f under max_series cap. */
static char *render_cadvisor(enum render_format f, uint64_t cap)
{
	struct snapshot s = cadvisor_snapshot();
	struct strbuf out = {0};
	const struct render_options o = {
	    .format = f,
	    .naming = RENDER_NAMING_CADVISOR,
	    .version = "9.9",
	    .max_series = cap,
	};

	ASSERT_EQ(render_exposition(&s, &o, &out), 0);
	sample_snapshot_done(&s);
	return out.buf;
}

TEST(cadvisor_naming_renders_cadvisor_names_labels_and_units)
{
	_cleanup_free_ char *text = render_cadvisor(RENDER_TEXT, 0);
	/* in two, each within the length C compilers must take */
	const char *cpu_and_usage =
	    "# HELP container_cpu_usage_seconds_total Cumulative CPU time consumed "
	    "(cpuacct.usage_percpu, cpuacct.usage, cpu.stat usage_usec).\n"
	    "# TYPE container_cpu_usage_seconds_total counter\n"
	    "container_cpu_usage_seconds_total{cpu=\"total\",id=\"/\",image=\"\",name=\"\"} 2.5\n"
	    "container_cpu_usage_seconds_total{cpu=\"cpu00\",id=\"/we\\\"ird\",image=\"\","
	    "name=\"\"} 0.000000003\n"
	    "# HELP container_cpu_cfs_throttled_periods_total Number of throttled CFS periods; "
	    "only for groups with a quota.\n"
	    "# TYPE container_cpu_cfs_throttled_periods_total counter\n"
	    "container_cpu_cfs_throttled_periods_total{id=\"/we\\\"ird\",image=\"\",name=\"\"} 5\n"
	    "# HELP container_spec_cpu_quota CPU quota per period in microseconds "
	    "(cpu.cfs_quota_us, cpu.max); absent when unlimited.\n"
	    "# TYPE container_spec_cpu_quota gauge\n"
	    "container_spec_cpu_quota{id=\"/we\\\"ird\",image=\"\",name=\"\"} 50000\n"
	    "# HELP container_spec_cpu_shares CPU shares (cpu.shares, or cpu.weight as cAdvisor "
	    "converts it).\n"
	    "# TYPE container_spec_cpu_shares gauge\n"
	    "container_spec_cpu_shares{id=\"/\",image=\"\",name=\"\"} 1024\n"
	    "container_spec_cpu_shares{id=\"/we\\\"ird\",image=\"\",name=\"\"} 512\n"
	    "# HELP container_memory_usage_bytes Memory charged (memory.usage_in_bytes, "
	    "memory.current; anon + file in v2's root).\n"
	    "# TYPE container_memory_usage_bytes gauge\n"
	    "container_memory_usage_bytes{id=\"/\",image=\"\",name=\"\"} 1000\n"
	    "container_memory_usage_bytes{id=\"/we\\\"ird\",image=\"\",name=\"\"} 3000\n";
	const char *rest =
	    "# HELP container_memory_failcnt Times usage hit the limit (memory.failcnt, "
	    "memory.events max).\n"
	    "# TYPE container_memory_failcnt untyped\n"
	    "container_memory_failcnt{id=\"/we\\\"ird\",image=\"\",name=\"\"} 2\n"
	    "# HELP container_memory_working_set_bytes Memory charged minus inactive page cache, "
	    "at least 0.\n"
	    "# TYPE container_memory_working_set_bytes gauge\n"
	    "container_memory_working_set_bytes{id=\"/\",image=\"\",name=\"\"} 0\n"
	    "container_memory_working_set_bytes{id=\"/we\\\"ird\",image=\"\",name=\"\"} 2000\n"
	    "# HELP container_memory_total_inactive_file_bytes Page cache on the inactive LRU.\n"
	    "# TYPE container_memory_total_inactive_file_bytes gauge\n"
	    "container_memory_total_inactive_file_bytes{id=\"/\",image=\"\",name=\"\"} 4000\n"
	    "container_memory_total_inactive_file_bytes{id=\"/we\\\"ird\",image=\"\",name=\"\"} "
	    "1000\n"
	    "# HELP container_spec_memory_limit_bytes Memory limit (memory.limit_in_bytes, "
	    "memory.max); 0 when unlimited.\n"
	    "# TYPE container_spec_memory_limit_bytes gauge\n"
	    "container_spec_memory_limit_bytes{id=\"/\",image=\"\",name=\"\"} 0\n"
	    "container_spec_memory_limit_bytes{id=\"/we\\\"ird\",image=\"\",name=\"\"} 0\n"
	    "# HELP container_spec_memory_reservation_limit_bytes Memory reservation "
	    "(memory.soft_limit_in_bytes, memory.min); 0 when unlimited.\n"
	    "# TYPE container_spec_memory_reservation_limit_bytes gauge\n"
	    "container_spec_memory_reservation_limit_bytes{id=\"/\",image=\"\",name=\"\"} 0\n"
	    "container_spec_memory_reservation_limit_bytes{id=\"/we\\\"ird\",image=\"\","
	    "name=\"\"} 0\n"
	    "# HELP container_spec_memory_swap_limit_bytes Swap limit "
	    "(memory.memsw.limit_in_bytes, memory.swap.max); 0 when unlimited.\n"
	    "# TYPE container_spec_memory_swap_limit_bytes gauge\n"
	    "container_spec_memory_swap_limit_bytes{id=\"/\",image=\"\",name=\"\"} 0\n"
	    "container_spec_memory_swap_limit_bytes{id=\"/we\\\"ird\",image=\"\",name=\"\"} 0\n"
	    "# HELP container_fs_reads_bytes_total Bytes read from the device.\n"
	    "# TYPE container_fs_reads_bytes_total counter\n"
	    "container_fs_reads_bytes_total{device=\"/dev/sda\",id=\"/we\\\"ird\",image=\"\","
	    "name=\"\"} 512\n"
	    "container_fs_reads_bytes_total{device=\"8:16\",id=\"/we\\\"ird\",image=\"\","
	    "name=\"\"} 1024\n"
	    "# HELP container_blkio_device_usage_total Bytes read from and written to the device "
	    "(io.stat rbytes, wbytes; blkio.throttle.io_service_bytes).\n"
	    "# TYPE container_blkio_device_usage_total counter\n"
	    "container_blkio_device_usage_total{device=\"/dev/sda\",id=\"/we\\\"ird\",image=\"\","
	    "major=\"8\",minor=\"0\",name=\"\",operation=\"Read\"} 512\n"
	    "container_blkio_device_usage_total{device=\"8:16\",id=\"/we\\\"ird\",image=\"\","
	    "major=\"8\",minor=\"16\",name=\"\",operation=\"Read\"} 1024\n";
	_cleanup_free_ char *want = NULL;

	ASSERT_TRUE(asprintf(&want, "%s%s%s", cpu_and_usage, rest, SELF_METRICS_UNCUT) >= 0);
	ASSERT_STREQ(text, want);
}

/*
 * OpenMetrics has no untyped: failcnt is "unknown", and counters drop
 * "_total" from the family name only. The cap counts cAdvisor series: "/"
 * has 8 (6 native samples; three are limits of 0) and fits in 8; the
 * second cgroup's 15 are dropped.
 */
TEST(cadvisor_naming_in_openmetrics_and_under_the_series_cap)
{
	_cleanup_free_ char *whole = render_cadvisor(RENDER_OPENMETRICS, 0);
	_cleanup_free_ char *capped = render_cadvisor(RENDER_OPENMETRICS, 8);

	ASSERT_TRUE(strstr(whole, "# TYPE container_cpu_usage_seconds counter\n"
				  "container_cpu_usage_seconds_total{cpu=\"total\",id=\"/\","
				  "image=\"\",name=\"\"} 2.5\n") != NULL);
	ASSERT_TRUE(strstr(whole, "# TYPE container_memory_failcnt unknown\n"
				  "container_memory_failcnt{id=\"/we\\\"ird\",image=\"\","
				  "name=\"\"} 2\n") != NULL);
	ASSERT_TRUE(strstr(whole, "\n# EOF\n") != NULL);

	ASSERT_TRUE(strstr(capped, "container_spec_cpu_shares{id=\"/\",image=\"\",name=\"\"} "
				   "1024\n") != NULL);
	ASSERT_TRUE(strstr(capped, "ird") == NULL);
	ASSERT_TRUE(strstr(capped, "cgacct_series_limit_hit 1\n") != NULL);
	ASSERT_TRUE(strstr(capped, "cgacct_series_dropped 15\n") != NULL);
}

/*
 * A v2 tree as cAdvisor shows it: the root's usage is memory.stat's anon +
 * file (it has no memory.current), a weight goes through cAdvisor's shares
 * formula, unlimited memory and task limits are 0, a usage of 0 and a
 * memory limit that is set are as they are, and both scopes of page faults.
 */
TEST(cadvisor_naming_of_a_v2_tree)
{
	struct snapshot s = snapshot_shell("/c");
	struct cgroup_record *root = &s.records[0], *c = &s.records[1];
	struct strbuf out = {0};
	const struct render_options o = {.naming = RENDER_NAMING_CADVISOR, .version = "9.9"};
	static const char *const want[] = {
	    "container_spec_cpu_shares{id=\"/\",image=\"\",name=\"\"} 2597\n",
	    "container_spec_cpu_shares{id=\"/c\",image=\"\",name=\"\"} 2\n",
	    "container_memory_usage_bytes{id=\"/\",image=\"\",name=\"\"} 1000\n",
	    "container_memory_working_set_bytes{id=\"/\",image=\"\",name=\"\"} 800\n",
	    "container_memory_usage_bytes{id=\"/c\",image=\"\",name=\"\"} 50\n",
	    "container_spec_memory_limit_bytes{id=\"/c\",image=\"\",name=\"\"} 4096\n",
	    "container_spec_memory_swap_limit_bytes{id=\"/c\",image=\"\",name=\"\"} 0\n",
	    "container_spec_memory_reservation_limit_bytes{id=\"/c\",image=\"\",name=\"\"} 0\n",
	    "container_memory_failures_total{failure_type=\"pgfault\",id=\"/c\",image=\"\","
	    "name=\"\",scope=\"container\"} 9\n",
	    "container_memory_failures_total{failure_type=\"pgfault\",id=\"/c\",image=\"\","
	    "name=\"\",scope=\"hierarchy\"} 9\n",
	    "container_threads{id=\"/c\",image=\"\",name=\"\"} 3\n",
	    "container_threads_max{id=\"/c\",image=\"\",name=\"\"} 0\n",
	};

	add(root, METRIC_INFO_INO, "unified", 1);
	add(root, METRIC_CPU_WEIGHT, NULL, 100 * 1024);
	add(root, METRIC_MEMORY_CACHE, NULL, 700);
	add(root, METRIC_MEMORY_RSS, NULL, 300);
	add(root, METRIC_MEMORY_INACTIVE_FILE, NULL, 200);
	add(c, METRIC_INFO_INO, "unified", 2);
	add(c, METRIC_CPU_USAGE, NULL, 0);
	add(c, METRIC_CPU_WEIGHT, NULL, 1024);
	add(c, METRIC_MEMORY_USAGE, NULL, 50);
	add(c, METRIC_MEMORY_LIMIT, NULL, 4096);
	add(c, METRIC_MEMORY_MIN, NULL, 0);
	add(c, METRIC_MEMORY_PAGE_FAULTS, NULL, 9);
	add(c, METRIC_PIDS_CURRENT, NULL, 3);
	ASSERT_EQ(render_exposition(&s, &o, &out), 0);
	for (size_t i = 0; i < ELEMENTSOF(want); i++)
		ASSERT_TRUE(strstr(out.buf, want[i]) != NULL);
	/* no usage series at 0, no limit of 0 for the root, which has no memory controller files */
	ASSERT_TRUE(strstr(out.buf, "container_cpu_usage_seconds_total{") == NULL);
	ASSERT_TRUE(strstr(out.buf, "container_spec_memory_limit_bytes{id=\"/\"") == NULL);
	ASSERT_TRUE(strstr(out.buf, "container_memory_usage_bytes{id=\"/c\"") != NULL);
	sample_snapshot_done(&s);
	strbuf_done(&out);
}

/*
 * Rows of one cAdvisor family share one header: container_memory_failures_total
 * has a pgfault and a pgmajfault row per scope, both scopes the same count,
 * container_spec_memory_reservation_limit_bytes a v1 soft-limit and a v2 memory.min row. Within a
 * record the rows come in table order; a record without a row's sample has no series of it. id is
 * escaped as native cgroup is.
 */
TEST(cadvisor_family_of_several_rows_has_one_header)
{
	struct snapshot s = snapshot_shell("/back\\slash\nnewline");
	struct strbuf out = {0};
	const struct render_options o = {.naming = RENDER_NAMING_CADVISOR, .version = "9.9"};

	add(&s.records[0], METRIC_MEMORY_SOFT_LIMIT, NULL, 4096);
	add(&s.records[0], METRIC_MEMORY_PAGE_FAULTS, NULL, 10);
	add(&s.records[0], METRIC_MEMORY_MAJOR_PAGE_FAULTS, NULL, 1);
	add(&s.records[1], METRIC_MEMORY_MIN, NULL, 8192);
	add(&s.records[1], METRIC_MEMORY_MAJOR_PAGE_FAULTS, NULL, 2);
	ASSERT_EQ(render_exposition(&s, &o, &out), 0);
	ASSERT_STREQ(
	    out.buf,
	    "# HELP container_memory_failures_total Page faults (memory.stat pgfault, "
	    "pgmajfault; total_pgfault, total_pgmajfault on v1).\n"
	    "# TYPE container_memory_failures_total counter\n"
	    "container_memory_failures_total{failure_type=\"pgfault\",id=\"/\",image=\"\","
	    "name=\"\",scope=\"container\"} 10\n"
	    "container_memory_failures_total{failure_type=\"pgmajfault\",id=\"/\","
	    "image=\"\",name=\"\",scope=\"container\"} 1\n"
	    "container_memory_failures_total{failure_type=\"pgfault\",id=\"/\",image=\"\","
	    "name=\"\",scope=\"hierarchy\"} 10\n"
	    "container_memory_failures_total{failure_type=\"pgmajfault\",id=\"/\","
	    "image=\"\",name=\"\",scope=\"hierarchy\"} 1\n"
	    "container_memory_failures_total{failure_type=\"pgmajfault\","
	    "id=\"/back\\\\slash\\nnewline\",image=\"\",name=\"\",scope=\"container\"} 2\n"
	    "container_memory_failures_total{failure_type=\"pgmajfault\","
	    "id=\"/back\\\\slash\\nnewline\",image=\"\",name=\"\",scope=\"hierarchy\"} 2\n"
	    "# HELP container_spec_memory_reservation_limit_bytes Memory reservation "
	    "(memory.soft_limit_in_bytes, memory.min); 0 when unlimited.\n"
	    "# TYPE container_spec_memory_reservation_limit_bytes gauge\n"
	    "container_spec_memory_reservation_limit_bytes{id=\"/\",image=\"\",name=\"\"} "
	    "4096\n"
	    "container_spec_memory_reservation_limit_bytes{id=\"/back\\\\slash\\nnewline\","
	    "image=\"\",name=\"\"} 8192\n" SELF_METRICS_UNCUT);
	strbuf_done(&out);
	sample_snapshot_done(&s);
}

/*
 * A runtime's name and image for a container are on every series of its
 * cgroup; a record no runtime named keeps cAdvisor's empty ones. The
 * creation time the runtime gave is container_start_time_seconds.
 */
TEST(runtime_names_label_every_series_of_the_container)
{
	struct snapshot s = container_snapshot();
	const struct render_options cadvisor = {.naming = RENDER_NAMING_CADVISOR, .version = "9"};
	struct strbuf out = {0};

	ASSERT_EQ(render_exposition(&s, &cadvisor, &out), 0);
	ASSERT_TRUE(strstr(out.buf, "0123456789abcdef.scope\",image=\"localhost/web:\\\"1\\\"\","
				    "name=\"web\"} 2\n"));
	ASSERT_TRUE(strstr(out.buf, "container_threads{id=\"/\",image=\"\",name=\"\"} 9\n"));
	ASSERT_TRUE(strstr(out.buf, "# TYPE container_start_time_seconds gauge\n"
				    "container_start_time_seconds{id=\"/machine.slice/libpod-"));
	ASSERT_TRUE(strstr(out.buf, "name=\"web\"} 1796528484\n"));
	strbuf_done(&out);
	sample_snapshot_done(&s);
}
