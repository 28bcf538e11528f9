/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The exposition as render.c walks it, whatever the naming: each family's
 * header once before its first series, across the steps a stream takes;
 * the max_series cap; the self-metrics, the extra families and
 * OpenMetrics' end.
 */
#include "base/util.h"
#include "exporter/textformat.h"
#include "helpers-exporter.h"

static void extra_family(struct strbuf *b, enum render_format f, const void *userdata)
{
	textformat_header(b, f, "cgacct_things_total", userdata, FAMILY_COUNTER);
	strbuf_puts(b, "cgacct_things_total 3\n");
}

/*
 * OpenMetrics: counter and info families are named without _total/_info
 * in HELP and TYPE, samples keep them; HELP escapes quotes; "# EOF" ends
 * the exposition, after the extra families. The cap keeps the root (2
 * series) and drops the second cgroup whole (5 series).
 */
TEST(openmetrics_names_counter_families_without_total_and_ends_with_eof)
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
	    "# HELP cgroup Identity of a cgroup per hierarchy, never reused: cgroup.serial "
	    "(v1) or, without it, the cgroup ID (directory inode number).\n"
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
 * How each container runtime's socket answered is a self-metric after the
 * others, the same in both namings; without sockets there is none
 * (SELF_METRICS_UNCUT ends at cgacct_series_dropped).
 */
TEST(runtime_sockets_are_self_metrics_after_the_others)
{
	static const enum render_naming namings[] = {RENDER_NAMING_NATIVE, RENDER_NAMING_CADVISOR};
	static const char end[] =
	    "cgacct_series_dropped 0\n"
	    "# HELP cgacct_container_runtime_up 1 if the container runtime answered with its list "
	    "when last asked.\n"
	    "# TYPE cgacct_container_runtime_up gauge\n"
	    "cgacct_container_runtime_up{socket=\"/run/docker.sock\"} 1\n"
	    "cgacct_container_runtime_up{socket=\"/run/\\\"podman\\\".sock\"} 0\n"
	    "# HELP cgacct_container_runtime_containers Containers in the last list the container "
	    "runtime gave.\n"
	    "# TYPE cgacct_container_runtime_containers gauge\n"
	    "cgacct_container_runtime_containers{socket=\"/run/docker.sock\"} 3\n"
	    "cgacct_container_runtime_containers{socket=\"/run/\\\"podman\\\".sock\"} 1\n";
	struct snapshot s = container_snapshot();

	for (size_t i = 0; i < ELEMENTSOF(namings); i++) {
		const struct render_options o = {.naming = namings[i], .version = "9"};
		struct strbuf out = {0};

		ASSERT_EQ(render_exposition(&s, &o, &out), 0);
		ASSERT_TRUE(strstr(out.buf, "cgacct_series_dropped 0\n") != NULL);
		ASSERT_STREQ(strstr(out.buf, "cgacct_series_dropped 0\n"), end);
		strbuf_done(&out);
	}
	sample_snapshot_done(&s);
}

/* 200 cgroups "/000".."/199", more than three steps of records, without samples. */
static struct snapshot many_records(void)
{
	struct snapshot s = {.records = calloc(200, sizeof(struct cgroup_record)),
			     .n_records = 200};

	ASSERT_TRUE(s.records != NULL);
	for (size_t i = 0; i < s.n_records; i++)
		ASSERT_TRUE(asprintf(&s.records[i].path, "/%03zu", i) > 0);
	return s;
}

/* The exposition's per-cgroup part: up to the self-metrics. */
static char *render_cgroups(const struct snapshot *s, enum render_naming naming)
{
	const struct render_options o = {.naming = naming, .version = "9.9"};
	struct strbuf out = {0};
	char *self;

	ASSERT_EQ(render_exposition(s, &o, &out), 0);
	self = strstr(out.buf, "# HELP cgacct_build_info ");
	ASSERT_TRUE(self != NULL);
	*self = '\0';
	return out.buf;
}

/*
 * A family's header goes out once, just before its first series, however
 * many records without one come first, and its rows' series follow in
 * record order though steps of records lie between them: in each naming, a
 * two-row family with one row's series in the 100th record and the other
 * row's in the 200th, and a family with a series in the 151st.
 */
TEST(family_header_comes_once_before_its_first_series_across_steps)
{
	struct snapshot s = many_records();
	_cleanup_free_ char *native = NULL, *cadvisor = NULL;

	add(&s.records[99], METRIC_INFO_SERIAL, "cpu", 99);
	add(&s.records[99], METRIC_MEMORY_PAGE_FAULTS, NULL, 5);
	add(&s.records[150], METRIC_CPU_USAGE, NULL, 1);
	add(&s.records[199], METRIC_INFO_INO, "cpu", 199);
	add(&s.records[199], METRIC_MEMORY_MAJOR_PAGE_FAULTS, NULL, 6);
	native = render_cgroups(&s, RENDER_NAMING_NATIVE);
	cadvisor = render_cgroups(&s, RENDER_NAMING_CADVISOR);
	ASSERT_STREQ(native,
		     "# HELP cgroup_info Identity of a cgroup per hierarchy, never reused: "
		     "cgroup.serial (v1) or, without it, the cgroup ID (directory inode "
		     "number).\n"
		     "# TYPE cgroup_info gauge\n"
		     "cgroup_info{cgroup=\"/099\",hierarchy=\"cpu\",serial=\"99\"} 1\n"
		     "cgroup_info{cgroup=\"/199\",hierarchy=\"cpu\",ino=\"199\"} 1\n"
		     "# HELP cgroup_cpu_usage_seconds_total CPU time consumed (cpuacct.usage, "
		     "cpu.stat usage_usec).\n"
		     "# TYPE cgroup_cpu_usage_seconds_total counter\n"
		     "cgroup_cpu_usage_seconds_total{cgroup=\"/150\"} 0.000000001\n"
		     "# HELP cgroup_memory_page_faults_total Page faults (memory.stat pgfault).\n"
		     "# TYPE cgroup_memory_page_faults_total counter\n"
		     "cgroup_memory_page_faults_total{cgroup=\"/099\"} 5\n"
		     "# HELP cgroup_memory_major_page_faults_total Page faults that needed I/O "
		     "(memory.stat pgmajfault).\n"
		     "# TYPE cgroup_memory_major_page_faults_total counter\n"
		     "cgroup_memory_major_page_faults_total{cgroup=\"/199\"} 6\n");
	ASSERT_STREQ(cadvisor,
		     "# HELP container_cpu_usage_seconds_total Cumulative CPU time consumed "
		     "(cpuacct.usage_percpu, cpuacct.usage, cpu.stat usage_usec).\n"
		     "# TYPE container_cpu_usage_seconds_total counter\n"
		     "container_cpu_usage_seconds_total{cpu=\"total\",id=\"/150\",image=\"\","
		     "name=\"\"} 0.000000001\n"
		     "# HELP container_memory_failures_total Page faults (memory.stat pgfault, "
		     "pgmajfault; total_pgfault, total_pgmajfault on v1).\n"
		     "# TYPE container_memory_failures_total counter\n"
		     "container_memory_failures_total{failure_type=\"pgfault\",id=\"/099\","
		     "image=\"\",name=\"\",scope=\"container\"} 5\n"
		     "container_memory_failures_total{failure_type=\"pgfault\",id=\"/099\","
		     "image=\"\",name=\"\",scope=\"hierarchy\"} 5\n"
		     "container_memory_failures_total{failure_type=\"pgmajfault\",id=\"/199\","
		     "image=\"\",name=\"\",scope=\"container\"} 6\n"
		     "container_memory_failures_total{failure_type=\"pgmajfault\",id=\"/199\","
		     "image=\"\",name=\"\",scope=\"hierarchy\"} 6\n");
	sample_snapshot_done(&s);
}
