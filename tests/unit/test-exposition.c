/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Expositions (exporter/exposition.c): bodies rendered and gzipped piece
 * by piece as they are sent, whole in every variant; the extra
 * self-metrics frozen as they were when the collection ended; the snapshot
 * taken over, and kept by every body still being sent.
 */
#include <errno.h>

#include "exporter/exposition.h"
#include "exporter/gzip.h"
#include "exporter/textformat.h"
#include "helpers-exporter.h"

#define CGROUPS 300 /* several of the renderer's steps */

/* A counter as an extra self-metric family: its value when rendered. */
static void things(struct strbuf *b, enum render_format f, const void *userdata)
{
	const unsigned *n = userdata;

	textformat_header(b, f, "cgacct_things_total", "Things.", FAMILY_COUNTER);
	strbuf_printf(b, "cgacct_things_total %u\n", *n);
}

/* CGROUPS cgroups of two samples each, as a collection leaves them: finalized. */
static struct snapshot cgroups(void)
{
	struct snapshot s = {0};
	struct cgroup_record r = {0};

	for (size_t i = 0; i < CGROUPS; i++) {
		char path[16];

		snprintf(path, sizeof(path), "/cg%04zu", i);
		add(&r, METRIC_CPU_USAGE, NULL, i * 1000);
		add(&r, METRIC_MEMORY_USAGE, NULL, i * 4096);
		ASSERT_EQ(snapshot_take_record(&s, path, &r), 0);
	}
	record_done(&r);
	ASSERT_EQ(snapshot_finalize(&s), 0);
	return s;
}

static struct exposition *exposition_of_cgroups(const unsigned *counted)
{
	const struct render_options o = {
	    .version = "9.9", .extra = things, .extra_userdata = counted};
	struct snapshot s = cgroups();
	struct exposition *e;

	ASSERT_EQ(exposition_new(&s, &o, &e), 0);
	return e;
}

/* What render_exposition() makes of the same snapshot in format f; counted NULL: no extra. */
static char *rendered(const struct exposition *e, enum render_format f, const unsigned *counted)
{
	const struct render_options o = {.format = f,
					 .version = "9.9",
					 .extra = counted ? things : NULL,
					 .extra_userdata = counted};
	struct strbuf out = {0};

	ASSERT_EQ(render_exposition(exposition_snapshot(e), &o, &out), 0);
	return out.buf;
}

/*
 * Read through a buffer far smaller than it, a body is the whole
 * exposition, the same every time, in each format; gzipped at every level
 * it inflates to the same text.
 */
TEST(bodies_stream_whole_in_every_variant)
{
	static char plain[1 << 20];
	unsigned counted = 3;
	struct exposition *e = exposition_of_cgroups(&counted);
	char *text1, *text2, *om, *gz, *want;
	size_t len1, len2, om_len, gz_len;

	text1 = read_body(e, RENDER_TEXT, 0, &len1);
	text2 = read_body(e, RENDER_TEXT, 0, &len2);
	ASSERT_TRUE(len1 == len2 && len1 == strlen(text1) && strcmp(text1, text2) == 0);
	want = rendered(e, RENDER_TEXT, &counted);
	ASSERT_STREQ(text1, want);
	free(want);
	ASSERT_TRUE(strstr(text1, "cgroup_memory_usage_bytes{cgroup=\"/cg0299\"} 1224704\n"));
	ASSERT_TRUE(strstr(text1, "\ncgacct_things_total 3\n") != NULL);
	om = read_body(e, RENDER_OPENMETRICS, 0, &om_len);
	ASSERT_TRUE(om_len > 6 && strcmp(om + om_len - 6, "# EOF\n") == 0);
	want = rendered(e, RENDER_OPENMETRICS, &counted);
	ASSERT_STREQ(om, want);
	free(want);
	for (unsigned level = 1; level <= GZIP_LEVEL_MAX; level++) {
		gz = read_body(e, RENDER_TEXT, level, &gz_len);
		ASSERT_TRUE(gz_len > 2 && (unsigned char)gz[0] == 0x1f &&
			    (unsigned char)gz[1] == 0x8b);
		ASSERT_TRUE(gz_len < len1 / 4);
		ASSERT_EQ(gunzip_whole(gz, gz_len, plain, sizeof(plain)), len1);
		ASSERT_TRUE(memcmp(plain, text1, len1) == 0);
		free(gz);
	}
	free(text1);
	free(text2);
	free(om);
	exposition_unref(e);
}

/* Every body of one collection is the same, however late it is rendered. */
TEST(extra_self_metrics_are_those_of_the_collections_end)
{
	unsigned counted = 1;
	struct exposition *e = exposition_of_cgroups(&counted);
	char *text, *om;
	size_t len;

	counted = 5;
	text = read_body(e, RENDER_TEXT, 0, &len);
	om = read_body(e, RENDER_OPENMETRICS, 0, &len);
	ASSERT_TRUE(strstr(text, "\n# TYPE cgacct_things_total counter\ncgacct_things_total 1\n"));
	ASSERT_TRUE(strstr(om, "\n# TYPE cgacct_things counter\ncgacct_things_total 1\n# EOF\n"));
	ASSERT_TRUE(strstr(text, "cgacct_things_total 5") == NULL);
	free(text);
	free(om);
	exposition_unref(e);
}

/*
 * exposition_new() takes the snapshot over and leaves the caller's empty;
 * a body holds a reference of its own, so it is read whole after the last
 * other reference is gone (the sanitizers see any use after free). A body
 * that cannot be made takes none.
 */
TEST(snapshot_is_taken_over_and_kept_by_its_bodies)
{
	const struct render_options o = {.version = "9.9"};
	struct snapshot s = cgroups();
	struct exposition_body *b;
	struct exposition *e;
	char buf[4096], *want;
	struct strbuf got = {0};
	ssize_t n;

	ASSERT_EQ(exposition_new(&s, &o, &e), 0);
	ASSERT_EQ(s.n_records, 0);
	ASSERT_TRUE(s.records == NULL);
	ASSERT_EQ(exposition_snapshot(e)->n_records, CGROUPS);
	ASSERT_STREQ(exposition_snapshot(e)->records[CGROUPS - 1].path, "/cg0299");
	ASSERT_EQ(exposition_body_new(e, RENDER_TEXT, GZIP_LEVEL_MAX + 1, &b), -EINVAL);

	want = rendered(e, RENDER_TEXT, NULL);
	ASSERT_TRUE(exposition_ref(e) == e);
	exposition_unref(e);
	ASSERT_EQ(exposition_body_new(e, RENDER_TEXT, 0, &b), 0);
	exposition_unref(e);
	while ((n = exposition_body_read(b, buf, sizeof(buf))) > 0)
		strbuf_append(&got, buf, (size_t)n);
	ASSERT_EQ(n, 0);
	ASSERT_EQ(exposition_body_read(b, buf, sizeof(buf)), 0);
	exposition_body_free(b);
	ASSERT_STREQ(got.buf, want);
	strbuf_done(&got);
	free(want);
}
