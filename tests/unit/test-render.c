/* SPDX-License-Identifier: GPL-2.0-only */
/* The exposition: escaping, exact number formatting, family grouping, cAdvisor naming. */
#include "base/util.h"
#include "exporter/cadvisor.h"
#include "exporter/native.h"
#include "exporter/render.h"
#include "test.h"

static void test_label_values_escape_backslash_quote_newline_only(void)
{
	struct strbuf b = {0};

	render_label_value(&b, "/a\"b\\c\nd e/\xc3\xbc\xe2\x82\xac\t");
	ASSERT_STREQ(b.buf, "/a\\\"b\\\\c\\nd e/\xc3\xbc\xe2\x82\xac\t");
	strbuf_done(&b);
}

static const char *scaled(struct strbuf *b, uint64_t v, uint64_t div)
{
	strbuf_truncate(b, 0);
	render_scaled(b, v, div);
	return b->buf;
}

static void test_scaled_values_are_exact_decimals(void)
{
	struct strbuf b = {0};

	ASSERT_STREQ(scaled(&b, 123456789012, 1000000000), "123.456789012");
	ASSERT_STREQ(scaled(&b, 45000000000, 1000000000), "45");
	ASSERT_STREQ(scaled(&b, 1, 1000000000), "0.000000001");
	ASSERT_STREQ(scaled(&b, 51200, 1024), "50");
	ASSERT_STREQ(scaled(&b, 200, 1024), "0.1953125"); /* cpu.shares 2 */
	ASSERT_STREQ(scaled(&b, 150, 100), "1.5");
	ASSERT_STREQ(scaled(&b, UINT64_MAX, 1), "18446744073709551615");
	ASSERT_STREQ(scaled(&b, 0, 1000000), "0");
	/* Digits go two at a time: odd and even lengths, and zeros inside. */
	ASSERT_STREQ(scaled(&b, 9, 1), "9");
	ASSERT_STREQ(scaled(&b, 10, 1), "10");
	ASSERT_STREQ(scaled(&b, 99, 1), "99");
	ASSERT_STREQ(scaled(&b, 100, 1), "100");
	ASSERT_STREQ(scaled(&b, 1005, 1), "1005");
	ASSERT_STREQ(scaled(&b, 10000000000000000000u, 1), "10000000000000000000");
	/* The length is counted first: each side of every power of ten. */
	for (uint64_t p = 1; p <= 10000000000000000000u; p *= 10) {
		char expect[24];

		snprintf(expect, sizeof(expect), "%" PRIu64, p - 1);
		ASSERT_STREQ(scaled(&b, p - 1, 1), expect);
		snprintf(expect, sizeof(expect), "%" PRIu64, p);
		ASSERT_STREQ(scaled(&b, p, 1), expect);
		if (p == 10000000000000000000u)
			break;
	}
	/* ...estimated from the bit length: each side of every power of two */
	for (unsigned k = 1; k < 64; k++) {
		uint64_t p = UINT64_C(1) << k;
		char expect[24];

		snprintf(expect, sizeof(expect), "%" PRIu64, p - 1);
		ASSERT_STREQ(scaled(&b, p - 1, 1), expect);
		snprintf(expect, sizeof(expect), "%" PRIu64, p);
		ASSERT_STREQ(scaled(&b, p, 1), expect);
	}
	strbuf_done(&b);
}

static void test_every_metric_has_a_family_and_shared_names_are_adjacent(void)
{
	for (unsigned m = 0; m < _METRIC_MAX; m++) {
		ASSERT_TRUE(families[m].name != NULL && families[m].help != NULL);
		/* render_sample() reserves this much for them */
		ASSERT_TRUE((families[m].label ? strlen(families[m].label) : 0) +
				(families[m].info_label ? strlen(families[m].info_label) : 0) <=
			    FAMILY_LABEL_NAMES_MAX);
		ASSERT_EQ(strncmp(families[m].name, "cgroup_", 7), 0);
		/* promtool: counters end in _total, nothing else does */
		ASSERT_EQ(families[m].type == FAMILY_COUNTER,
			  strlen(families[m].name) > 6 &&
			      strcmp(families[m].name + strlen(families[m].name) - 6, "_total") ==
				  0);
		/* a family name seen before must be the previous metric's, or it would render twice
		 */
		for (unsigned k = 0; k + 1 < m; k++)
			ASSERT_TRUE(strcmp(families[k].name, families[m].name) != 0 ||
				    strcmp(families[m - 1].name, families[m].name) == 0);
	}
}

static void add(struct cgroup_record *r, enum metric m, const char *label, uint64_t v)
{
	ASSERT_EQ(record_add(r, m, label, v), 0);
}

/* Two cgroups, one awkwardly named, and self-metric inputs; see sample_snapshot_done(). */
static struct collector_status sample_collectors[] = {{"cpu", 0}, {"walk", 2}};
static struct hierarchy_status sample_hierarchies[] = {{"cpu,cpuacct", 2}};

/* Two empty records and the self-metric inputs every exposition test shares. */
static struct snapshot snapshot_shell(const char *second_path)
{
	struct cgroup_record *records = calloc(2, sizeof(*records));
	struct snapshot s = {
	    .records = records,
	    .n_records = 2,
	    .collectors = sample_collectors,
	    .n_collectors = 2,
	    .hierarchies = sample_hierarchies,
	    .n_hierarchies = 1,
	    .vanished = 1,
	    .duration_ns = 1500000,
	};

	ASSERT_TRUE(records != NULL);
	records[0].path = strdup("/");
	records[1].path = strdup(second_path);
	return s;
}

static struct snapshot sample_snapshot(void)
{
	struct snapshot s = snapshot_shell("/we\"ird\\ name\nx \xc3\xbc");
	struct cgroup_record *records = s.records;

	add(&records[0], METRIC_INFO_SERIAL, "cpu,cpuacct", 0);
	add(&records[0], METRIC_CPU_USAGE, NULL, 2500000000);
	add(&records[1], METRIC_INFO_INO, "cpu,cpuacct", 4242);
	add(&records[1], METRIC_CPU_USAGE, NULL, 7);
	add(&records[1], METRIC_CPU_USAGE_PER_CPU, "0", 3);
	add(&records[1], METRIC_CPU_USAGE_PER_CPU, "1", 4);
	add(&records[1], METRIC_CPU_WEIGHT, NULL, 51200);
	return s;
}

static void sample_snapshot_done(struct snapshot *s)
{
	for (size_t i = 0; i < s->n_records; i++)
		record_done(&s->records[i]);
	free(s->records);
}

#define SELF_METRICS_TAIL                                                                          \
	"# HELP cgacct_collection_duration_seconds Time the collection behind this "               \
	"exposition took.\n"                                                                       \
	"# TYPE cgacct_collection_duration_seconds gauge\n"                                        \
	"cgacct_collection_duration_seconds 0.0015\n"                                              \
	"# HELP cgacct_collector_success 1 if the collector read every cgroup without "            \
	"error.\n"                                                                                 \
	"# TYPE cgacct_collector_success gauge\n"                                                  \
	"cgacct_collector_success{collector=\"cpu\"} 1\n"                                          \
	"cgacct_collector_success{collector=\"walk\"} 0\n"                                         \
	"# HELP cgacct_collector_errors Cgroups or hierarchies the collector failed to "           \
	"read.\n"                                                                                  \
	"# TYPE cgacct_collector_errors gauge\n"                                                   \
	"cgacct_collector_errors{collector=\"cpu\"} 0\n"                                           \
	"cgacct_collector_errors{collector=\"walk\"} 2\n"                                          \
	"# HELP cgacct_cgroups Cgroups collected per hierarchy.\n"                                 \
	"# TYPE cgacct_cgroups gauge\n"                                                            \
	"cgacct_cgroups{hierarchy=\"cpu,cpuacct\"} 2\n"                                            \
	"# HELP cgacct_cgroups_vanished Cgroups removed while the collection was reading "         \
	"them.\n"                                                                                  \
	"# TYPE cgacct_cgroups_vanished gauge\n"                                                   \
	"cgacct_cgroups_vanished 1\n"                                                              \
	"# HELP cgacct_held_files Cgroup files kept open for the next collection "                 \
	"(keep_open_files).\n"                                                                     \
	"# TYPE cgacct_held_files gauge\n"                                                         \
	"cgacct_held_files 0\n"                                                                    \
	"# HELP cgacct_held_directories Cgroup directories kept open for the next collection "     \
	"(keep_open_files).\n"                                                                     \
	"# TYPE cgacct_held_directories gauge\n"                                                   \
	"cgacct_held_directories 0\n"                                                              \
	"# HELP cgacct_series_limit_hit 1 if max_series cut cgroups from this exposition.\n"       \
	"# TYPE cgacct_series_limit_hit gauge\n"

/* The self-metrics of version 9.9 when max_series cut nothing. */
#define SELF_METRICS_UNCUT                                                                         \
	"# HELP cgacct_build_info cgacct version, value always 1.\n"                               \
	"# TYPE cgacct_build_info gauge\n"                                                         \
	"cgacct_build_info{version=\"9.9\"} 1\n" SELF_METRICS_TAIL "cgacct_series_limit_hit 0\n"   \
	"# HELP cgacct_series_dropped Series left out of this exposition by max_series.\n"         \
	"# TYPE cgacct_series_dropped gauge\n"                                                     \
	"cgacct_series_dropped 0\n"

static void test_snapshot_renders_grouped_families_with_self_metrics(void)
{
	struct snapshot s = sample_snapshot();
	struct strbuf out = {0};

	ASSERT_EQ(render_prometheus(&s, "9.9", &out), 0);
	ASSERT_STREQ(
	    out.buf,
	    "# HELP cgroup_info Identity of a cgroup per hierarchy: cgroup.serial (never reused) "
	    "or, without it, the directory inode number.\n"
	    "# TYPE cgroup_info gauge\n"
	    "cgroup_info{cgroup=\"/\",hierarchy=\"cpu,cpuacct\",serial=\"0\"} 1\n"
	    "cgroup_info{cgroup=\"/we\\\"ird\\\\ name\\nx \xc3\xbc\",hierarchy=\"cpu,cpuacct\","
	    "ino=\"4242\"} 1\n"
	    "# HELP cgroup_cpu_usage_seconds_total CPU time consumed (cpuacct.usage, cpu.stat "
	    "usage_usec).\n"
	    "# TYPE cgroup_cpu_usage_seconds_total counter\n"
	    "cgroup_cpu_usage_seconds_total{cgroup=\"/\"} 2.5\n"
	    "cgroup_cpu_usage_seconds_total{cgroup=\"/we\\\"ird\\\\ name\\nx \xc3\xbc\"} "
	    "0.000000007\n"
	    "# HELP cgroup_cpu_usage_per_cpu_seconds_total CPU time consumed on each CPU "
	    "(cpuacct.usage_percpu).\n"
	    "# TYPE cgroup_cpu_usage_per_cpu_seconds_total counter\n"
	    "cgroup_cpu_usage_per_cpu_seconds_total{cgroup=\"/we\\\"ird\\\\ name\\nx "
	    "\xc3\xbc\",cpu=\"0\"} 0.000000003\n"
	    "cgroup_cpu_usage_per_cpu_seconds_total{cgroup=\"/we\\\"ird\\\\ name\\nx "
	    "\xc3\xbc\",cpu=\"1\"} 0.000000004\n"
	    "# HELP cgroup_cpu_weight Relative CPU weight on the v2 scale, default 100 "
	    "(cpu.weight, or cpu.shares * 100 / 1024).\n"
	    "# TYPE cgroup_cpu_weight gauge\n"
	    "cgroup_cpu_weight{cgroup=\"/we\\\"ird\\\\ name\\nx \xc3\xbc\"} "
	    "50\n" SELF_METRICS_UNCUT);
	strbuf_done(&out);
	sample_snapshot_done(&s);
}

static void extra_family(struct strbuf *b, enum render_format f, const void *userdata)
{
	render_header(b, f, "cgacct_things_total", userdata, FAMILY_COUNTER);
	strbuf_puts(b, "cgacct_things_total 3\n");
}

/*
 * OpenMetrics: counter and info families are named without _total/_info
 * in HELP and TYPE, samples keep them; HELP escapes quotes; "# EOF" ends
 * the exposition, after the extra families. The cap keeps the root (2
 * series) and drops the second cgroup whole (5 series).
 */
static void test_openmetrics_names_counter_families_without_total_and_ends_with_eof(void)
{
	struct snapshot s = sample_snapshot();
	struct strbuf out = {0};
	const struct render_options o = {
	    .format = RENDER_OPENMETRICS,
	    .version = "9.9",
	    .max_series = 4,
	    .extra = extra_family,
	    .extra_userdata = "Things \"counted\".",
	};

	ASSERT_EQ(render_exposition(&s, &o, &out), 0);
	ASSERT_STREQ(
	    out.buf,
	    "# HELP cgroup Identity of a cgroup per hierarchy: cgroup.serial (never reused) "
	    "or, without it, the directory inode number.\n"
	    "# TYPE cgroup info\n"
	    "cgroup_info{cgroup=\"/\",hierarchy=\"cpu,cpuacct\",serial=\"0\"} 1\n"
	    "# HELP cgroup_cpu_usage_seconds CPU time consumed (cpuacct.usage, cpu.stat "
	    "usage_usec).\n"
	    "# TYPE cgroup_cpu_usage_seconds counter\n"
	    "cgroup_cpu_usage_seconds_total{cgroup=\"/\"} 2.5\n"
	    "# HELP cgacct_build cgacct version, value always 1.\n"
	    "# TYPE cgacct_build info\n"
	    "cgacct_build_info{version=\"9.9\"} 1\n" SELF_METRICS_TAIL "cgacct_series_limit_hit 1\n"
	    "# HELP cgacct_series_dropped Series left out of this exposition by max_series.\n"
	    "# TYPE cgacct_series_dropped gauge\n"
	    "cgacct_series_dropped 5\n"
	    "# HELP cgacct_things Things \\\"counted\\\".\n"
	    "# TYPE cgacct_things counter\n"
	    "cgacct_things_total 3\n"
	    "# EOF\n");
	strbuf_done(&out);
	sample_snapshot_done(&s);
}

/*
 * The cAdvisor table lints as the native one does, except the failcnt
 * families, which cAdvisor types counter without "_total": those must be
 * untyped, never counters. Rows of one family are adjacent and agree on type.
 */
static void test_cadvisor_families_lint_clean_and_share_names_only_when_adjacent(void)
{
	for (size_t k = 0; k < n_cadvisor_families; k++) {
		const struct cadvisor_family *c = &cadvisor_families[k];
		size_t len = strlen(c->name);
		bool total = len > 6 && strcmp(c->name + len - 6, "_total") == 0;
		bool continues = k > 0 && strcmp(cadvisor_families[k - 1].name, c->name) == 0;

		ASSERT_EQ(strncmp(c->name, "container_", 10), 0);
		ASSERT_TRUE(c->source < _METRIC_MAX);
		ASSERT_EQ(c->type == FAMILY_COUNTER, total);
		ASSERT_TRUE(c->type != FAMILY_INFO);
		ASSERT_TRUE(continues || c->help != NULL);
		if (continues)
			ASSERT_EQ(c->type, cadvisor_families[k - 1].type);
		for (size_t j = 0; j + 1 < k; j++)
			ASSERT_TRUE(strcmp(cadvisor_families[j].name, c->name) != 0 || continues);
	}
}

/*
 * "/" has no CFS quota, so no container_cpu_cfs_* series, and more inactive
 * page cache than usage, so a working set of 0; the second cgroup has a quota,
 * v2 weight 50 (shares 512), a named and an unresolved device. Identity and
 * per-CPU samples have no cAdvisor family.
 */
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

static void test_cadvisor_naming_renders_cadvisor_names_labels_and_units(void)
{
	_cleanup_free_ char *text = render_cadvisor(RENDER_TEXT, 0);

	ASSERT_STREQ(
	    text,
	    "# HELP container_cpu_usage_seconds_total Cumulative CPU time consumed "
	    "(cpuacct.usage, cpu.stat usage_usec).\n"
	    "# TYPE container_cpu_usage_seconds_total counter\n"
	    "container_cpu_usage_seconds_total{cpu=\"total\",id=\"/\",image=\"\",name=\"\"} 2.5\n"
	    "container_cpu_usage_seconds_total{cpu=\"total\",id=\"/we\\\"ird\",image=\"\","
	    "name=\"\"} 0.000000007\n"
	    "# HELP container_cpu_cfs_throttled_periods_total Number of throttled CFS periods; "
	    "only for groups with a quota.\n"
	    "# TYPE container_cpu_cfs_throttled_periods_total counter\n"
	    "container_cpu_cfs_throttled_periods_total{id=\"/we\\\"ird\",image=\"\",name=\"\"} 5\n"
	    "# HELP container_spec_cpu_quota CPU quota per period in microseconds "
	    "(cpu.cfs_quota_us, cpu.max); absent when unlimited.\n"
	    "# TYPE container_spec_cpu_quota gauge\n"
	    "container_spec_cpu_quota{id=\"/we\\\"ird\",image=\"\",name=\"\"} 50000\n"
	    "# HELP container_spec_cpu_shares CPU shares (cpu.shares, or cpu.weight * 1024 / "
	    "100).\n"
	    "# TYPE container_spec_cpu_shares gauge\n"
	    "container_spec_cpu_shares{id=\"/\",image=\"\",name=\"\"} 1024\n"
	    "container_spec_cpu_shares{id=\"/we\\\"ird\",image=\"\",name=\"\"} 512\n"
	    "# HELP container_memory_usage_bytes Memory charged (memory.usage_in_bytes, "
	    "memory.current).\n"
	    "# TYPE container_memory_usage_bytes gauge\n"
	    "container_memory_usage_bytes{id=\"/\",image=\"\",name=\"\"} 1000\n"
	    "container_memory_usage_bytes{id=\"/we\\\"ird\",image=\"\",name=\"\"} 3000\n"
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
	    "# HELP container_fs_reads_bytes_total Bytes read from the device.\n"
	    "# TYPE container_fs_reads_bytes_total counter\n"
	    "container_fs_reads_bytes_total{device=\"/dev/sda\",id=\"/we\\\"ird\",image=\"\","
	    "name=\"\"} 512\n"
	    "container_fs_reads_bytes_total{device=\"8:16\",id=\"/we\\\"ird\",image=\"\","
	    "name=\"\"} 1024\n" SELF_METRICS_UNCUT);
}

/*
 * OpenMetrics has no untyped: failcnt is "unknown", and counters drop
 * "_total" from the family name only. The cap counts cAdvisor series: "/"
 * has 5 (6 native samples) and fits in 5; the second cgroup's 10 are dropped.
 */
static void test_cadvisor_naming_in_openmetrics_and_under_the_series_cap(void)
{
	_cleanup_free_ char *whole = render_cadvisor(RENDER_OPENMETRICS, 0);
	_cleanup_free_ char *capped = render_cadvisor(RENDER_OPENMETRICS, 5);

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
	ASSERT_TRUE(strstr(capped, "cgacct_series_dropped 10\n") != NULL);
}

int main(void)
{
	RUN(test_label_values_escape_backslash_quote_newline_only);
	RUN(test_scaled_values_are_exact_decimals);
	RUN(test_every_metric_has_a_family_and_shared_names_are_adjacent);
	RUN(test_snapshot_renders_grouped_families_with_self_metrics);
	RUN(test_openmetrics_names_counter_families_without_total_and_ends_with_eof);
	RUN(test_cadvisor_families_lint_clean_and_share_names_only_when_adjacent);
	RUN(test_cadvisor_naming_renders_cadvisor_names_labels_and_units);
	RUN(test_cadvisor_naming_in_openmetrics_and_under_the_series_cap);
	return 0;
}
