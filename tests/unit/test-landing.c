/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The landing page: every cgroup in tree order with its own name, paths
 * and names escaped for HTML, a link to /metrics, memory against its limit
 * as a bar, and a cap on the rows a browser is sent.
 */
#include "base/strbuf.h"
#include "exporter/landing.h"
#include "model/snapshot.h"
#include "test.h"

#define MIB (UINT64_C(1) << 20)

static void add(struct cgroup_record *r, enum metric m, uint64_t v)
{
	ASSERT_EQ(record_add(r, m, NULL, v), 0);
}

static void take(struct snapshot *s, const char *path, struct cgroup_record *r)
{
	ASSERT_EQ(snapshot_take_record(s, path, r), 0);
}

/* The row of the cgroup whose full path is title_path, from "<tr>" to "</tr>". */
static char *row_of(const char *page, const char *title_path)
{
	char needle[256];
	const char *title, *start, *end;

	snprintf(needle, sizeof(needle), "title=\"%s\">", title_path);
	title = strstr(page, needle);
	if (!title)
		fprintf(stderr, "no row titled %s in:\n%s\n", title_path, page);
	ASSERT_TRUE(title != NULL);
	for (start = title; start > page && strncmp(start, "<tr>", 4) != 0; start--)
		;
	end = strstr(title, "</tr>");
	ASSERT_TRUE(strncmp(start, "<tr>", 4) == 0 && end != NULL);
	return strndup(start, (size_t)(end + 5 - start));
}

static char *render(const struct snapshot *s, const char *version)
{
	struct strbuf page = {0};

	ASSERT_EQ(landing_render(s, version, &page), 0);
	return page.buf;
}

/*
 * A small tree: the root, a service near its memory limit, one over it
 * (v1 can charge past the limit), one under it, and a child with a name a
 * browser would read as markup.
 */
static struct snapshot sample_tree(void)
{
	struct snapshot s = {0};
	struct cgroup_record r = {0};

	add(&r, METRIC_CPU_USAGE, 2500000000);
	add(&r, METRIC_MEMORY_USAGE, 3 * 1024 * MIB);
	take(&s, "/", &r);

	add(&r, METRIC_CPU_USAGE, 130000000);
	add(&r, METRIC_CPU_LOAD, 150);
	add(&r, METRIC_MEMORY_USAGE, 512 * MIB);
	add(&r, METRIC_MEMORY_LIMIT, 1024 * MIB);
	add(&r, METRIC_MEMORY_LIMIT_FAILURES, 0);
	take(&s, "/system.slice", &r);

	add(&r, METRIC_MEMORY_USAGE, 95 * MIB);
	add(&r, METRIC_MEMORY_LIMIT, 100 * MIB);
	add(&r, METRIC_MEMORY_LIMIT_FAILURES, 7);
	add(&r, METRIC_CPU_PERIODS, 10);
	add(&r, METRIC_CPU_THROTTLED_PERIODS, 3);
	add(&r, METRIC_CPU_THROTTLED_TIME, 500000000);
	take(&s, "/system.slice/hot.service", &r);

	add(&r, METRIC_MEMORY_USAGE, 300 * MIB);
	add(&r, METRIC_MEMORY_LIMIT, 200 * MIB);
	add(&r, METRIC_MEMORY_LIMIT_FAILURES, 1234567);
	add(&r, METRIC_CPU_PERIODS, 0);
	add(&r, METRIC_CPU_THROTTLED_PERIODS, 0);
	take(&s, "/system.slice/over.service", &r);

	add(&r, METRIC_MEMORY_USAGE, 1000);
	take(&s, "/system.slice/<b>&\"x'", &r);

	/* Sorts between "/system.slice" and its children by bytes, not in the tree. */
	add(&r, METRIC_MEMORY_USAGE, 1);
	take(&s, "/system.slice-other", &r);

	record_done(&r);
	s.duration_ns = 2500000;
	ASSERT_EQ(snapshot_finalize(&s), 0);
	return s;
}

TEST(page_links_metrics_and_escapes_every_name)
{
	struct snapshot s = sample_tree();
	char *page = render(&s, "1.0<beta>");

	ASSERT_TRUE(strncmp(page, "<!DOCTYPE html>\n", 16) == 0);
	ASSERT_TRUE(strstr(page, "<a href=\"/metrics\">/metrics</a>") != NULL);
	ASSERT_TRUE(
	    strstr(page, "<p>cgacctd 1.0&lt;beta&gt;: 6 cgroups collected in 2.5 ms.</p>") != NULL);
	/* The path in full as the title, the last component as the name, both escaped. */
	ASSERT_TRUE(strstr(page, "title=\"/system.slice/&lt;b&gt;&amp;&quot;x&#39;\">"
				 "&lt;b&gt;&amp;&quot;x&#39;</td>") != NULL);
	ASSERT_TRUE(strstr(page, "<b>&") == NULL && strstr(page, "\"x'") == NULL);
	ASSERT_TRUE(strstr(page, "1.0<beta>") == NULL);
	ASSERT_TRUE(strlen(page) > 16 &&
		    strcmp(page + strlen(page) - 16, "</body>\n</html>\n") == 0);
	free(page);
	snapshot_free(&s);
}

TEST(every_cgroup_has_a_row_in_tree_order)
{
	static const char *const order[] = {
	    "title=\"/\">/</td>",
	    "title=\"/system.slice\">system.slice</td>",
	    "title=\"/system.slice/&lt;b&gt;&amp;&quot;x&#39;\">",
	    "title=\"/system.slice/hot.service\">hot.service</td>",
	    "title=\"/system.slice/over.service\">over.service</td>",
	    "title=\"/system.slice-other\">system.slice-other</td>",
	};
	struct snapshot s = sample_tree();
	char *page = render(&s, "9.9");
	const char *at = page;
	size_t rows = 0;

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *next = strstr(at, order[i]);

		if (!next)
			fprintf(stderr, "%s missing or out of order\n", order[i]);
		ASSERT_TRUE(next != NULL);
		at = next;
	}
	for (at = page; (at = strstr(at, "<tr><td")); at++)
		rows++;
	ASSERT_EQ(rows, 6);
	/* Children are indented one step further than their parent. */
	ASSERT_TRUE(strstr(page, "<tr><td style=\"padding-left:0.4em\" title=\"/\">") != NULL);
	ASSERT_TRUE(strstr(page, "<tr><td style=\"padding-left:1.6em\" title=\"/system.slice\">") !=
		    NULL);
	ASSERT_TRUE(strstr(page, "<tr><td style=\"padding-left:2.8em\" "
				 "title=\"/system.slice/hot.service\">") != NULL);
	ASSERT_TRUE(strstr(page, "more cgroups are not shown") == NULL);
	free(page);
	snapshot_free(&s);
}

TEST(memory_is_shown_against_its_limit)
{
	struct snapshot s = sample_tree();
	char *page = render(&s, "9.9");
	char *row;

	/* Half the limit: a plain bar half full; CPU in seconds and in CPUs. */
	row = row_of(page, "/system.slice");
	ASSERT_STREQ(row,
		     "<tr><td style=\"padding-left:1.6em\" title=\"/system.slice\">system.slice"
		     "</td><td class=n>0.13 s</td><td class=n>1.50</td>"
		     "<td class=n>512.0 MiB</td><td class=n>1.0 GiB</td>"
		     "<td class=n>50.0% <div class=bar><div class=\"fill\" "
		     "style=\"width:50.0%\"></div></div></td>"
		     "<td class=n>0</td><td class=n></td></tr>");
	free(row);

	/* From 90% the bar is hot; limit failures stand out; throttling as a share of periods. */
	row = row_of(page, "/system.slice/hot.service");
	ASSERT_TRUE(strstr(row, "<td class=n>95.0 MiB</td><td class=n>100.0 MiB</td>"
				"<td class=n>95.0% <div class=bar><div class=\"fill hot\" "
				"style=\"width:95.0%\"></div></div></td>") != NULL);
	ASSERT_TRUE(strstr(row, "<td class=n><b>7</b></td><td class=n>3 / 10 (0.50 s)</td>") !=
		    NULL);
	free(row);

	/*
	 * Over the limit: the text tells how far, the bar stops full. Counts in
	 * groups of three digits; no quota, so no periods: "-", not "0 / 0".
	 */
	row = row_of(page, "/system.slice/over.service");
	ASSERT_TRUE(strstr(row, "<td class=n>150.0% <div class=bar><div class=\"fill hot\" "
				"style=\"width:100.0%\"></div></div></td>") != NULL);
	ASSERT_TRUE(strstr(row, "<td class=n><b>1,234,567</b></td><td class=n>-</td>") != NULL);
	free(row);

	/* No limit: usage alone, no bar, empty cells for what was not read. */
	row = row_of(page, "/");
	ASSERT_STREQ(row, "<tr><td style=\"padding-left:0.4em\" title=\"/\">/</td>"
			  "<td class=n>2.50 s</td><td class=n></td>"
			  "<td class=n>3.0 GiB</td><td class=n></td><td class=n></td>"
			  "<td class=n></td><td class=n></td></tr>");
	free(row);
	row = row_of(page, "/system.slice/&lt;b&gt;&amp;&quot;x&#39;");
	ASSERT_TRUE(strstr(row, "<td class=n>1000 B</td>") != NULL);
	free(row);
	free(page);
	snapshot_free(&s);
}

TEST(summary_names_vanished_cgroups_and_failing_collectors)
{
	struct collector_status *collectors = calloc(2, sizeof(*collectors));
	struct snapshot s = {.collectors = collectors, .n_collectors = 2, .vanished = 4};
	char *page;

	ASSERT_TRUE(collectors != NULL);
	collectors[0] = (struct collector_status){"cpu", 0};
	collectors[1] = (struct collector_status){"mem<ory>", 3};
	page = render(&s, "9.9");
	ASSERT_TRUE(strstr(page,
			   "<p>cgacctd 9.9: 0 cgroups collected in 0.0 ms, 4 vanished while "
			   "being read; collector mem&lt;ory&gt; failed 3 times.</p>") != NULL);
	ASSERT_TRUE(strstr(page, "collector cpu") == NULL);
	free(page);
	snapshot_free(&s);
}

/* Past LANDING_ROWS_MAX (5000) rows the page says how many it left to /metrics. */
TEST(rows_are_capped_for_the_browser)
{
	struct snapshot s = {0};
	struct cgroup_record r = {0};
	const char *at;
	size_t rows = 0;
	char *page;

	for (unsigned i = 0; i < 5003; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/c%05u", i);
		take(&s, path, &r);
	}
	record_done(&r);
	ASSERT_EQ(snapshot_finalize(&s), 0);
	page = render(&s, "9.9");
	for (at = page; (at = strstr(at, "<tr><td")); at++)
		rows++;
	ASSERT_EQ(rows, 5000);
	ASSERT_TRUE(strstr(page, "title=\"/c04999\"") != NULL);
	ASSERT_TRUE(strstr(page, "title=\"/c05000\"") == NULL);
	ASSERT_TRUE(strstr(page, "<p>3 more cgroups are not shown here; /metrics has them.</p>") !=
		    NULL);
	free(page);
	snapshot_free(&s);
}
