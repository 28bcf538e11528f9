/* SPDX-License-Identifier: GPL-2.0-only */
/* Content negotiation (exporter/negotiate.c) from Accept and Accept-Encoding. */
#include "exporter/negotiate.h"
#include "test.h"

/* prom@v2.42.0 scrape/scrape.go: the header every Prometheus 2.42 scrape sends. */
#define PROMETHEUS_2_42_ACCEPT                                                                     \
	"application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"   \
	"q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"

TEST(prometheus_accept_header_gets_openmetrics)
{
	ASSERT_EQ(negotiate_format(PROMETHEUS_2_42_ACCEPT), RENDER_OPENMETRICS);
	ASSERT_EQ(negotiate_format("application/openmetrics-text"), RENDER_OPENMETRICS);
	ASSERT_EQ(negotiate_format("Application/OpenMetrics-Text; Version=\"1.0.0\""),
		  RENDER_OPENMETRICS);
	ASSERT_EQ(negotiate_format("text/plain;q=0.2, application/openmetrics-text;q=0.3"),
		  RENDER_OPENMETRICS);
}

TEST(text_format_is_the_default_and_wins_ties)
{
	ASSERT_EQ(negotiate_format(NULL), RENDER_TEXT);
	ASSERT_EQ(negotiate_format(""), RENDER_TEXT);
	ASSERT_EQ(negotiate_format("*/*"), RENDER_TEXT);
	ASSERT_EQ(negotiate_format("text/plain"), RENDER_TEXT);
	ASSERT_EQ(negotiate_format("text/plain;version=0.0.4;q=0.5,*/*;q=0.1"), RENDER_TEXT);
	ASSERT_EQ(negotiate_format("application/json"), RENDER_TEXT);
	/* a version we do not produce is not acceptable, whatever its weight */
	ASSERT_EQ(negotiate_format("application/openmetrics-text;version=2.0.0,text/plain;q=0.1"),
		  RENDER_TEXT);
	/* q=0 refuses; the more specific range overrides the wildcard */
	ASSERT_EQ(negotiate_format("application/openmetrics-text;q=0,*/*"), RENDER_TEXT);
	ASSERT_EQ(negotiate_format("text/plain;q=0,application/*;q=0.5"), RENDER_OPENMETRICS);
	/* malformed weights count as 0 */
	ASSERT_EQ(negotiate_format("application/openmetrics-text;q=2,text/plain;q=0.1"),
		  RENDER_TEXT);
}

TEST(gzip_when_accepted_with_nonzero_weight)
{
	ASSERT_TRUE(negotiate_gzip("gzip"));
	ASSERT_TRUE(negotiate_gzip("deflate, GZIP;q=0.5"));
	ASSERT_TRUE(negotiate_gzip("br, *"));
	ASSERT_TRUE(!negotiate_gzip(NULL));
	ASSERT_TRUE(!negotiate_gzip("identity"));
	ASSERT_TRUE(!negotiate_gzip("gzip;q=0"));
	ASSERT_TRUE(!negotiate_gzip("gzip;q=0.000, *"));
	ASSERT_TRUE(!negotiate_gzip("gzipped"));
}
