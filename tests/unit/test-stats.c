/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scrape counters (exporter/stats.c): responses counted by the status
 * codes cgacctd answers with, others not at all, and all of them rendered
 * as counter families in both formats, every code even at 0.
 */
#include "exporter/stats.h"
#include "test.h"

TEST(responses_are_counted_by_their_code)
{
	struct scrape_stats s = {0};
	struct strbuf b = {0};

	atomic_store(&s.collections, 12);
	atomic_store(&s.collection_failures, 2);
	scrape_stats_count_response(&s, 200);
	scrape_stats_count_response(&s, 200);
	scrape_stats_count_response(&s, 401);
	scrape_stats_count_response(&s, 500);
	scrape_stats_count_response(&s, 429);
	scrape_stats_count_response(&s, 418); /* not one of ours: not counted */
	scrape_stats_count_response(&s, 0);
	scrape_stats_set_connections(&s, 5, 1, 7, 3);
	scrape_stats_render(&b, RENDER_TEXT, &s);
	ASSERT_STREQ(b.buf,
		     "# HELP cgacct_collections_total Collections run; concurrent scrapes "
		     "and those within min_interval share one.\n"
		     "# TYPE cgacct_collections_total counter\n"
		     "cgacct_collections_total 12\n"
		     "# HELP cgacct_collection_failures_total Collections that failed as a "
		     "whole (the scrape got HTTP 500).\n"
		     "# TYPE cgacct_collection_failures_total counter\n"
		     "cgacct_collection_failures_total 2\n"
		     "# HELP cgacct_http_requests_total HTTP requests answered, by status code, "
		     "up to this exposition's rendering.\n"
		     "# TYPE cgacct_http_requests_total counter\n"
		     "cgacct_http_requests_total{code=\"200\"} 2\n"
		     "cgacct_http_requests_total{code=\"400\"} 0\n"
		     "cgacct_http_requests_total{code=\"401\"} 1\n"
		     "cgacct_http_requests_total{code=\"403\"} 0\n"
		     "cgacct_http_requests_total{code=\"404\"} 0\n"
		     "cgacct_http_requests_total{code=\"405\"} 0\n"
		     "cgacct_http_requests_total{code=\"408\"} 0\n"
		     "cgacct_http_requests_total{code=\"414\"} 0\n"
		     "cgacct_http_requests_total{code=\"429\"} 1\n"
		     "cgacct_http_requests_total{code=\"431\"} 0\n"
		     "cgacct_http_requests_total{code=\"500\"} 1\n"
		     "cgacct_http_requests_total{code=\"501\"} 0\n"
		     "cgacct_http_requests_total{code=\"503\"} 0\n"
		     "cgacct_http_requests_total{code=\"505\"} 0\n"
		     "# HELP cgacct_http_connections HTTP connections held, their request "
		     "heads coming or requests served.\n"
		     "# TYPE cgacct_http_connections gauge\n"
		     "cgacct_http_connections 5\n"
		     "# HELP cgacct_http_connections_refused_total Connections closed at once: "
		     "every place held a request in progress.\n"
		     "# TYPE cgacct_http_connections_refused_total counter\n"
		     "cgacct_http_connections_refused_total 1\n"
		     "# HELP cgacct_http_connections_shed_total Waiting connections closed to "
		     "make room for a new one (the client's own first).\n"
		     "# TYPE cgacct_http_connections_shed_total counter\n"
		     "cgacct_http_connections_shed_total 7\n"
		     "# HELP cgacct_http_connections_timed_out_total Connections closed because "
		     "a request head did not come in time.\n"
		     "# TYPE cgacct_http_connections_timed_out_total counter\n"
		     "cgacct_http_connections_timed_out_total 3\n");
	strbuf_done(&b);
}

/* OpenMetrics names the families without _total; the samples keep it. */
TEST(openmetrics_families_drop_total_from_their_names)
{
	struct scrape_stats s = {0};
	struct strbuf b = {0};

	scrape_stats_count_response(&s, 404);
	scrape_stats_render(&b, RENDER_OPENMETRICS, &s);
	ASSERT_TRUE(strstr(b.buf, "# TYPE cgacct_collections counter\n"
				  "cgacct_collections_total 0\n") != NULL);
	ASSERT_TRUE(strstr(b.buf, "# TYPE cgacct_http_requests counter\n") != NULL);
	ASSERT_TRUE(strstr(b.buf, "cgacct_http_requests_total{code=\"404\"} 1\n") != NULL);
	ASSERT_TRUE(strstr(b.buf, "# EOF") == NULL);
	strbuf_done(&b);
}
