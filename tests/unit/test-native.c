/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The native naming (exporter/native.c): a cgroup_* family per row of
 * model/metric-rows.h, cgroup_info with what the path and the runtime say
 * of a cgroup, and the exposition it renders, self-metrics and all.
 */
#include "collector/identity.h"
#include "exporter/native.h"
#include "helpers-exporter.h"

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

/* What the path says runs in each record, attached as the collector attaches it. */
static void identify(struct snapshot *s)
{
	for (size_t i = 0; i < s->n_records; i++)
		identity_parse(s->records[i].path, &s->records[i].identity);
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

	identify(&s);
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
 * A runtime's name and image for a container are cgroup_info's
 * container_name and image, escaped, beside what the path says; the
 * creation time the runtime gave is a gauge. A record no runtime named
 * keeps its cgroup_info as it was.
 */
TEST(runtime_names_label_the_containers_cgroup_info)
{
	struct snapshot s = container_snapshot();
	struct strbuf out = {0};

	identify(&s);
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
	strbuf_done(&out);
	sample_snapshot_done(&s);
}
