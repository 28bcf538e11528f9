/* SPDX-License-Identifier: GPL-2.0-only */
/* The text exposition: escaping, exact number formatting, family grouping. */
#include "families.h"
#include "render.h"
#include "test.h"
#include "util.h"

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
	strbuf_done(&b);
}

static void test_every_metric_has_a_family_and_shared_names_are_adjacent(void)
{
	for (unsigned m = 0; m < _METRIC_MAX; m++) {
		ASSERT_TRUE(families[m].name != NULL && families[m].help != NULL);
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

static struct snapshot sample_snapshot(void)
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
	records[1].path = strdup("/we\"ird\\ name\nx \xc3\xbc");
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
	"# HELP cgacct_series_limit_hit 1 if max_series cut cgroups from this exposition.\n"       \
	"# TYPE cgacct_series_limit_hit gauge\n"

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
	    "cgroup_cpu_weight{cgroup=\"/we\\\"ird\\\\ name\\nx \xc3\xbc\"} 50\n"
	    "# HELP cgacct_build_info cgacct version, value always 1.\n"
	    "# TYPE cgacct_build_info gauge\n"
	    "cgacct_build_info{version=\"9.9\"} 1\n" SELF_METRICS_TAIL "cgacct_series_limit_hit 0\n"
	    "# HELP cgacct_series_dropped Series left out of this exposition by max_series.\n"
	    "# TYPE cgacct_series_dropped gauge\n"
	    "cgacct_series_dropped 0\n");
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

int main(void)
{
	RUN(test_label_values_escape_backslash_quote_newline_only);
	RUN(test_scaled_values_are_exact_decimals);
	RUN(test_every_metric_has_a_family_and_shared_names_are_adjacent);
	RUN(test_snapshot_renders_grouped_families_with_self_metrics);
	RUN(test_openmetrics_names_counter_families_without_total_and_ends_with_eof);
	return 0;
}
