/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Streaming gzip of an exposition: the body is compressed piece by piece as
 * it is rendered and sent, so neither the text nor the compressed body of a
 * 10,000-cgroup scrape (tens of MiB) is ever held whole.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

#include "exporter/gzip.h"

/* windowBits 15 plus 16: zlib writes a gzip header and trailer instead of its own. */
#define GZIP_WINDOW_BITS (15 + 16)
/* Level 6 is zlib's default trade-off; expositions shrink about 15 times. */
#define GZIP_LEVEL 6

struct gzip {
	z_stream z;
	bool done;
};

int gzip_new(struct gzip **ret)
{
	struct gzip *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	if (deflateInit2(&g->z, GZIP_LEVEL, Z_DEFLATED, GZIP_WINDOW_BITS, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK) {
		free(g);
		return -ENOMEM;
	}
	*ret = g;
	return 0;
}

ssize_t gzip_deflate(struct gzip *g, const char **in, size_t *in_len, bool last, char *out,
		     size_t cap)
{
	uInt given = *in_len > UINT_MAX ? UINT_MAX : (uInt)*in_len;
	int r;

	if (g->done)
		return 0;
	g->z.next_in = (Bytef *)(uintptr_t)*in;
	g->z.avail_in = given;
	g->z.next_out = (Bytef *)out;
	g->z.avail_out = cap > UINT_MAX ? UINT_MAX : (uInt)cap;
	r = deflate(&g->z, last && given == *in_len ? Z_FINISH : Z_NO_FLUSH);
	if (r == Z_STREAM_END)
		g->done = true;
	else if (r != Z_OK && r != Z_BUF_ERROR)
		return -ENOBUFS;
	*in += given - g->z.avail_in;
	*in_len -= given - g->z.avail_in;
	return (ssize_t)((Bytef *)g->z.next_out - (Bytef *)out);
}

bool gzip_done(const struct gzip *g)
{
	return g->done;
}

void gzip_free(struct gzip *g)
{
	if (!g)
		return;
	deflateEnd(&g->z);
	free(g);
}
