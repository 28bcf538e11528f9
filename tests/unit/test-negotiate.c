/* SPDX-License-Identifier: GPL-2.0-only */
/* Content negotiation from Accept and Accept-Encoding, and gzip framing. */

#include <errno.h>

#include "exporter/gzip.h"
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

/* The text fed in pieces and read out through a small buffer, as HTTP does. */
static void round_trip(unsigned level)
{
	static const char text[] = "cgroup_cpu_usage_seconds_total{cgroup=\"/\"} 1\n";
	char z[256], out[256];
	size_t zlen = 0;
	struct gzip *g;

	ASSERT_EQ(gzip_new(level, &g), 0);
	for (size_t fed = 0; fed < sizeof(text) - 1; fed += 10) {
		const char *in = text + fed;
		size_t left = sizeof(text) - 1 - fed < 10 ? sizeof(text) - 1 - fed : 10;

		while (left > 0) {
			ssize_t n = gzip_deflate(g, &in, &left, false, z + zlen, 8);

			ASSERT_TRUE(n >= 0);
			zlen += (size_t)n;
		}
	}
	while (!gzip_done(g)) {
		const char *in = "";
		size_t left = 0;
		ssize_t n = gzip_deflate(g, &in, &left, true, z + zlen, 8);

		ASSERT_TRUE(n >= 0 && zlen + (size_t)n < sizeof(z));
		zlen += (size_t)n;
	}
	gzip_free(g);
	/* RFC 1952 magic and deflate method */
	ASSERT_TRUE(zlen > 18 && (unsigned char)z[0] == 0x1f && (unsigned char)z[1] == 0x8b &&
		    z[2] == 8);
	ASSERT_EQ(gunzip_whole(z, zlen, out, sizeof(out)), sizeof(text) - 1);
	ASSERT_TRUE(memcmp(out, text, sizeof(text) - 1) == 0);
}

/* Level 1 is igzip's, the others zlib's: each makes gzip that zlib inflates. */
TEST(gzip_output_round_trips_at_every_level)
{
	struct gzip *g;

	for (unsigned level = 1; level <= GZIP_LEVEL_MAX; level++)
		round_trip(level);
	ASSERT_EQ(gzip_new(0, &g), -EINVAL);
	ASSERT_EQ(gzip_new(GZIP_LEVEL_MAX + 1, &g), -EINVAL);
}
