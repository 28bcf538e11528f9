/* SPDX-License-Identifier: GPL-2.0-only */
/* Snapshots to render, and bodies read as a client reads them. */
#include <zlib.h>

#include "helpers-exporter.h"

void add(struct cgroup_record *r, enum metric m, const char *label, uint64_t v)
{
	ASSERT_EQ(record_add(r, m, label, v), 0);
}

static struct collector_status sample_collectors[] = {{"cpu", 0}, {"walk", 2}};
static struct hierarchy_status sample_hierarchies[] = {{"cpu,cpuacct", 2}};

struct snapshot snapshot_shell(const char *second_path)
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

struct snapshot sample_snapshot(void)
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

struct snapshot container_snapshot(void)
{
	static char name[] = "web", image[] = "localhost/web:\"1\"";
	static const struct container_names who = {.name = name, .image = image};
	static char docker[] = "/run/docker.sock", podman[] = "/run/\"podman\".sock";
	static struct runtime_status runtimes[] = {{docker, true, 3}, {podman, false, 1}};
	struct snapshot s = snapshot_shell(CONTAINER_PATH);

	add(&s.records[0], METRIC_INFO_INO, "unified", 1);
	add(&s.records[0], METRIC_PIDS_CURRENT, NULL, 9);
	add(&s.records[1], METRIC_INFO_INO, "unified", 77);
	add(&s.records[1], METRIC_PIDS_CURRENT, NULL, 2);
	add(&s.records[1], METRIC_CONTAINER_CREATED, NULL, 1796528484);
	s.records[1].container = &who;
	s.runtimes = runtimes;
	s.n_runtimes = 2;
	return s;
}

void sample_snapshot_done(struct snapshot *s)
{
	for (size_t i = 0; i < s->n_records; i++)
		record_done(&s->records[i]);
	free(s->records);
}

const struct render_options text_native = {
    .format = RENDER_TEXT,
    .naming = RENDER_NAMING_NATIVE,
    .version = "9.9",
};

size_t gunzip_whole(const char *in, size_t len, char *out, size_t cap)
{
	z_stream z = {0};
	size_t n;

	ASSERT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)cap;
	ASSERT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
	ASSERT_EQ(z.avail_in, 0); /* one member, nothing after it */
	n = z.total_out;
	inflateEnd(&z);
	return n;
}

char *read_body(struct exposition *e, enum render_format f, unsigned gzip_level, size_t *ret_len)
{
	struct exposition_body *b;
	struct strbuf out = {0};
	char buf[7];
	ssize_t n;

	ASSERT_EQ(exposition_body_new(e, f, gzip_level, &b), 0);
	while ((n = exposition_body_read(b, buf, sizeof(buf))) > 0)
		strbuf_append(&out, buf, (size_t)n);
	ASSERT_EQ(n, 0);
	exposition_body_free(b);
	*ret_len = out.len;
	return out.buf;
}
