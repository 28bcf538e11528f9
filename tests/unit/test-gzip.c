/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gzip framing (exporter/gzip.c): one member per body, streamed through
 * small buffers, that zlib inflates to the text fed in, at every level:
 * level 1 is igzip's, the others zlib's.
 */
#include <errno.h>

#include "base/util.h"
#include "exporter/gzip.h"
#include "helpers-exporter.h"

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

/* An exposition-like text of n lines: repetitive, as the real one is. */
static char *exposition_text(size_t lines, size_t *ret_len)
{
	struct strbuf b = {0};

	for (size_t i = 0; i < lines; i++)
		strbuf_printf(
		    &b,
		    "cgroup_memory_usage_bytes{cgroup=\"/system.slice/unit-%zu.service\"} %zu\n", i,
		    i * 4096 + i % 7);
	*ret_len = b.len;
	return b.buf;
}

/*
 * The whole of in at level, fed in pieces of piece bytes and taken out
 * through a buffer of out bytes; malloc'd, its length in *ret_len.
 */
static char *deflate_all(unsigned level, const char *in, size_t len, size_t piece, size_t out,
			 size_t *ret_len)
{
	struct strbuf z = {0};
	char *buf = malloc(out);
	struct gzip *g;
	size_t fed = 0;

	ASSERT_TRUE(buf != NULL);
	ASSERT_EQ(gzip_new(level, &g), 0);
	while (!gzip_done(g)) {
		size_t take = len - fed < piece ? len - fed : piece, left = take;
		const char *p = in + fed;
		ssize_t n = gzip_deflate(g, &p, &left, fed + take == len, buf, out);

		ASSERT_TRUE(n >= 0);
		ASSERT_TRUE(p == in + fed + (take - left));
		fed += take - left;
		strbuf_append(&z, buf, (size_t)n);
	}
	ASSERT_EQ(fed, len);
	/* once done, nothing more comes out */
	{
		const char *p = in;
		size_t left = 0;

		ASSERT_EQ(gzip_deflate(g, &p, &left, true, buf, out), 0);
	}
	gzip_free(g);
	free(buf);
	*ret_len = z.len;
	return z.buf;
}

/*
 * A megabyte fed a page at a time and taken out through a small buffer,
 * as an exposition body is, is one gzip member of the whole text, at
 * igzip's level and at zlib's; so is an empty body.
 */
TEST(a_stream_of_many_pieces_is_one_member)
{
	static const unsigned levels[] = {1, 6, GZIP_LEVEL_MAX};
	static char out[2 << 20];
	size_t len, zlen;
	char *text = exposition_text(16000, &len), *z;

	ASSERT_TRUE(len > (1 << 20));
	for (size_t i = 0; i < ELEMENTSOF(levels); i++) {
		z = deflate_all(levels[i], text, len, 4096, 1000, &zlen);
		ASSERT_EQ(gunzip_whole(z, zlen, out, sizeof(out)), len);
		ASSERT_TRUE(memcmp(out, text, len) == 0);
		free(z);

		z = deflate_all(levels[i], "", 0, 1, 7, &zlen);
		ASSERT_TRUE(zlen >= 20 && (unsigned char)z[0] == 0x1f);
		ASSERT_EQ(gunzip_whole(z, zlen, out, sizeof(out)), 0);
		free(z);
	}
	free(text);
}

/*
 * Level 1 is igzip's, 2 to 9 zlib's at that level: zlib marks its fastest
 * and its best levels in the header's XFL byte (RFC 1952), igzip its own
 * way; and on an exposition the best compresses smaller than the fastest.
 */
TEST(level_1_is_igzip_and_the_others_are_zlibs)
{
	size_t len, z1_len, z2_len, z9_len;
	char *text = exposition_text(4000, &len);
	char *z1 = deflate_all(1, text, len, len, 1 << 20, &z1_len);
	char *z2 = deflate_all(2, text, len, len, 1 << 20, &z2_len);
	char *z9 = deflate_all(9, text, len, len, 1 << 20, &z9_len);

	ASSERT_EQ((unsigned char)z9[8], 2); /* XFL: maximum compression */
	ASSERT_EQ((unsigned char)z2[8], 0);
	ASSERT_TRUE(z1_len != z2_len || memcmp(z1, z2, z1_len) != 0);
	ASSERT_TRUE(z9_len < z1_len);
	ASSERT_TRUE(z9_len <= z2_len);
	ASSERT_TRUE(z1_len < len / 5);
	free(z1);
	free(z2);
	free(z9);
	free(text);
}
