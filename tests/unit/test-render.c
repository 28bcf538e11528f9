/* SPDX-License-Identifier: GPL-2.0-only */
/* The exposition: escaping, exact numbers, headers, families of rows in both namings, steps. */
#include "base/util.h"
#include "collector/identity.h"
#include "exporter/cadvisor.h"
#include "exporter/native.h"
#include "exporter/render.h"
#include "exporter/textformat.h"
#include "test.h"

TEST(label_values_escape_backslash_quote_newline_only)
{
	struct strbuf b = {0};

	textformat_label_value(&b, "/a\"b\\c\nd e/\xc3\xbc\xe2\x82\xac\t");
	ASSERT_STREQ(b.buf, "/a\\\"b\\\\c\\nd e/\xc3\xbc\xe2\x82\xac\t");
	strbuf_done(&b);
}

static const char *scaled(struct strbuf *b, uint64_t v, uint64_t div)
{
	strbuf_truncate(b, 0);
	textformat_scaled(b, v, div);
	return b->buf;
}

TEST(scaled_values_are_exact_decimals)
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

/*
 * OpenMetrics names counter and info families without the sample suffix,
 * has no untyped, and escapes '"' in HELP; 0.0.4 leaves names and quotes.
 */
TEST(headers_name_and_type_families_as_each_format_wants)
{
	struct strbuf b = {0};

	textformat_header(&b, RENDER_TEXT, "x_total", "a \"b\" \\ c\nd", FAMILY_COUNTER);
	textformat_header(&b, RENDER_TEXT, "x_info", "i", FAMILY_INFO);
	textformat_header(&b, RENDER_TEXT, "x", "u", FAMILY_UNTYPED);
	ASSERT_STREQ(b.buf, "# HELP x_total a \"b\" \\\\ c\\nd\n# TYPE x_total counter\n"
			    "# HELP x_info i\n# TYPE x_info gauge\n"
			    "# HELP x u\n# TYPE x untyped\n");
	strbuf_truncate(&b, 0);
	textformat_header(&b, RENDER_OPENMETRICS, "x_total", "a \"b\" \\ c\nd", FAMILY_COUNTER);
	textformat_header(&b, RENDER_OPENMETRICS, "x_info", "i", FAMILY_INFO);
	textformat_header(&b, RENDER_OPENMETRICS, "x", "u", FAMILY_UNTYPED);
	/* a gauge keeps any suffix, and a name that is all suffix stays whole */
	textformat_header(&b, RENDER_OPENMETRICS, "x_total", "g", FAMILY_GAUGE);
	textformat_header(&b, RENDER_OPENMETRICS, "_total", "c", FAMILY_COUNTER);
	ASSERT_STREQ(b.buf, "# HELP x a \\\"b\\\" \\\\ c\\nd\n# TYPE x counter\n"
			    "# HELP x i\n# TYPE x info\n"
			    "# HELP x u\n# TYPE x unknown\n"
			    "# HELP x_total g\n# TYPE x_total gauge\n"
			    "# HELP _total c\n# TYPE _total counter\n");
	strbuf_done(&b);
	ASSERT_STREQ(textformat_content_type(RENDER_TEXT), PROMETHEUS_CONTENT_TYPE);
	ASSERT_STREQ(textformat_content_type(RENDER_OPENMETRICS), OPENMETRICS_CONTENT_TYPE);
}

TEST(every_metric_has_a_native_row_and_shared_names_are_adjacent)
{
	ASSERT_EQ(native_naming.n_rows, _METRIC_MAX);
	for (unsigned m = 0; m < _METRIC_MAX; m++) {
		const struct native_row *row = &native_rows[m];

		ASSERT_TRUE(row->name != NULL && row->help != NULL);
		/* write_sample() reserves this much for them */
		ASSERT_TRUE((row->label ? strlen(row->label) : 0) +
				(row->info_label ? strlen(row->info_label) : 0) <=
			    NATIVE_LABEL_NAMES_MAX);
		ASSERT_EQ(strncmp(row->name, "cgroup_", 7), 0);
		/* promtool: counters end in _total, nothing else does */
		ASSERT_EQ(row->type == FAMILY_COUNTER,
			  strlen(row->name) > 6 &&
			      strcmp(row->name + strlen(row->name) - 6, "_total") == 0);
		/* a name seen before must be the previous row's, or its family would render twice
		 */
		for (unsigned k = 0; k + 1 < m; k++)
			ASSERT_TRUE(strcmp(native_rows[k].name, row->name) != 0 ||
				    strcmp(native_rows[m - 1].name, row->name) == 0);
		/* rows of one family agree on what the header says */
		if (m > 0 && strcmp(native_rows[m - 1].name, row->name) == 0) {
			ASSERT_STREQ(native_rows[m - 1].help, row->help);
			ASSERT_EQ(native_rows[m - 1].type, row->type);
		}
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
	/* as the collector attaches them */
	identity_parse(records[0].path, &records[0].identity);
	identity_parse(records[1].path, &records[1].identity);
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

static const struct render_options text_native = {
    .format = RENDER_TEXT,
    .naming = RENDER_NAMING_NATIVE,
    .version = "9.9",
};

/* cgroup_info's serial and ino rows are one family: one header over both. */
TEST(snapshot_renders_grouped_families_with_self_metrics)
{
	struct snapshot s = sample_snapshot();
	struct strbuf out = {0};

	ASSERT_EQ(render_exposition(&s, &text_native, &out), 0);
	ASSERT_STREQ(
	    out.buf,
	    "# HELP cgroup_info Identity of a cgroup per hierarchy, never reused: cgroup.serial "
	    "(v1) or, without it, the cgroup ID (directory inode number).\n"
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

/* cgroup_info carries what the path says runs in the cgroup (identity.h), once per cgroup. */
TEST(cgroup_info_names_unit_container_and_pod)
{
	struct snapshot s = snapshot_shell(
	    "/kubepods.slice/kubepods-burstable.slice/"
	    "kubepods-burstable-pod1b2c3d4e_5f60_7a8b_9c0d_1e2f3a4b5c6d.slice/"
	    "cri-containerd-3f2a9c0d4b5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8."
	    "scope");
	struct strbuf out = {0};

	add(&s.records[0], METRIC_INFO_INO, "unified", 1);
	add(&s.records[1], METRIC_INFO_INO, "unified", 4242);
	add(&s.records[1], METRIC_CPU_USAGE, NULL, 7);
	ASSERT_EQ(render_exposition(&s, &text_native, &out), 0);
	ASSERT_TRUE(
	    strstr(out.buf, "cgroup_info{cgroup=\"/\",hierarchy=\"unified\",ino=\"1\"} 1\n"));
	ASSERT_TRUE(strstr(
	    out.buf,
	    "\",hierarchy=\"unified\",ino=\"4242\",unit=\"cri-containerd-"
	    "3f2a9c0d4b5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8.scope\","
	    "container_runtime=\"containerd\","
	    "container_id=\"3f2a9c0d4b5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8\","
	    "pod_uid=\"1b2c3d4e-5f60-7a8b-9c0d-1e2f3a4b5c6d\",qos_class=\"burstable\"} 1\n"));
	/* only cgroup_info: the other families keep their one label */
	ASSERT_TRUE(strstr(out.buf,
			   "cri-containerd-3f2a9c0d4b5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70"
			   "8192a3b4c5d6e7f8.scope\"} 0.000000007\n"));
	strbuf_done(&out);
	sample_snapshot_done(&s);
}

/*
 * A runtime's name and image for a container: cgroup_info's container_name
 * and image in native naming, escaped; name and image on every series in
 * cAdvisor's. A record no runtime named keeps cAdvisor's empty ones. The
 * creation time the runtime gave is a gauge in both; how each socket
 * answered is a self-metric in both, after the others.
 */
TEST(runtime_names_label_the_container)
{
	struct snapshot s = snapshot_shell(
	    "/machine.slice/"
	    "libpod-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef.scope");
	char name[] = "web", image[] = "localhost/web:\"1\"";
	const struct container_names who = {.name = name, .image = image};
	const struct render_options cadvisor = {.naming = RENDER_NAMING_CADVISOR, .version = "9"};
	char docker[] = "/run/docker.sock", podman[] = "/run/\"podman\".sock";
	struct runtime_status runtimes[] = {{docker, true, 3}, {podman, false, 1}};
	struct strbuf out = {0};

	add(&s.records[0], METRIC_INFO_INO, "unified", 1);
	add(&s.records[0], METRIC_PIDS_CURRENT, NULL, 9);
	add(&s.records[1], METRIC_INFO_INO, "unified", 77);
	add(&s.records[1], METRIC_PIDS_CURRENT, NULL, 2);
	add(&s.records[1], METRIC_CONTAINER_CREATED, NULL, 1796528484);
	s.records[1].container = &who;
	s.runtimes = runtimes;
	s.n_runtimes = 2;
	ASSERT_EQ(render_exposition(&s, &text_native, &out), 0);
	ASSERT_TRUE(strstr(out.buf,
			   "# TYPE cgroup_container_created_timestamp_seconds gauge\n"
			   "cgroup_container_created_timestamp_seconds{cgroup=\"/machine.slice/"
			   "libpod-0123456789abcdef"));
	ASSERT_TRUE(strstr(out.buf, "0123456789abcdef.scope\"} 1796528484\n"));
	ASSERT_TRUE(strstr(out.buf,
			   "container_runtime=\"podman\",container_id=\"0123456789abcdef"
			   "0123456789abcdef0123456789abcdef0123456789abcdef\","
			   "container_name=\"web\",image=\"localhost/web:\\\"1\\\"\"} 1\n"));
	ASSERT_TRUE(
	    strstr(out.buf, "cgroup_info{cgroup=\"/\",hierarchy=\"unified\",ino=\"1\"} 1\n"));
	strbuf_truncate(&out, 0);
	ASSERT_EQ(render_exposition(&s, &cadvisor, &out), 0);
	ASSERT_TRUE(strstr(out.buf, "0123456789abcdef.scope\",image=\"localhost/web:\\\"1\\\"\","
				    "name=\"web\"} 2\n"));
	ASSERT_TRUE(strstr(out.buf, "container_threads{id=\"/\",image=\"\",name=\"\"} 9\n"));
	ASSERT_TRUE(strstr(out.buf, "# TYPE container_start_time_seconds gauge\n"
				    "container_start_time_seconds{id=\"/machine.slice/libpod-"));
	ASSERT_TRUE(strstr(out.buf, "name=\"web\"} 1796528484\n"));
	ASSERT_TRUE(strstr(
	    out.buf, "cgacct_series_dropped 0\n"
		     "# HELP cgacct_container_runtime_up 1 if the container runtime "
		     "answered with its list when last asked.\n"
		     "# TYPE cgacct_container_runtime_up gauge\n"
		     "cgacct_container_runtime_up{socket=\"/run/docker.sock\"} 1\n"
		     "cgacct_container_runtime_up{socket=\"/run/\\\"podman\\\".sock\"} 0\n"
		     "# HELP cgacct_container_runtime_containers Containers in the last "
		     "list the container runtime gave.\n"
		     "# TYPE cgacct_container_runtime_containers gauge\n"
		     "cgacct_container_runtime_containers{socket=\"/run/docker.sock\"} 3\n"
		     "cgacct_container_runtime_containers{socket=\"/run/\\\"podman\\\".sock\"} "
		     "1\n"));
	strbuf_done(&out);
	sample_snapshot_done(&s);
}

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
	    "major=\"8\",minor=\"16\",name=\"\",operation=\"Read\"} 1024\n" SELF_METRICS_UNCUT;
	_cleanup_free_ char *want = NULL;

	ASSERT_TRUE(asprintf(&want, "%s%s", cpu_and_usage, rest) >= 0);
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
