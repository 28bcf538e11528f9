/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Streaming gzip of an exposition: the body is compressed piece by piece as
 * it is rendered and sent, so neither the text nor the compressed body of a
 * large host's scrape is ever held whole.
 */
#include <errno.h>
#include <isa-l/igzip_lib.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

#include "exporter/gzip.h"

/* windowBits 15 plus 16: zlib writes a gzip header and trailer instead of its own. */
#define ZLIB_WINDOW_BITS (15 + 16)
/*
 * igzip's level 1 works in a buffer of its hash table and of tokens it
 * collects before coding them; its own default size for the level.
 */
#define ISAL_LEVEL_BUF_SIZE ISAL_DEF_LVL1_DEFAULT

struct gzip {
	bool isal; /* level 1: igzip; else zlib */
	bool done;
	union {
		struct isal_zstream s;
		z_stream z;
	};
	uint8_t level_buf[]; /* igzip's, ISAL_LEVEL_BUF_SIZE bytes */
};

int gzip_new(unsigned level, struct gzip **ret)
{
	bool isal = level == 1;
	struct gzip *g;

	if (level < 1 || level > GZIP_LEVEL_MAX)
		return -EINVAL;
	g = calloc(1, sizeof(*g) + (isal ? ISAL_LEVEL_BUF_SIZE : 0));
	if (!g)
		return -ENOMEM;
	g->isal = isal;
	if (isal) {
		isal_deflate_init(&g->s);
		g->s.gzip_flag = IGZIP_GZIP;
		g->s.level = 1;
		g->s.level_buf = g->level_buf;
		g->s.level_buf_size = ISAL_LEVEL_BUF_SIZE;
	} else if (deflateInit2(&g->z, (int)level, Z_DEFLATED, ZLIB_WINDOW_BITS, 8,
				Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		return -ENOMEM;
	}
	*ret = g;
	return 0;
}

/* One step of igzip over at most UINT32_MAX bytes of input; false on error. */
static bool isal_step(struct gzip *g, const uint8_t *in, uint32_t *in_len, bool end, uint8_t *out,
		      uint32_t *out_len)
{
	g->s.next_in = (uint8_t *)(uintptr_t)in;
	g->s.avail_in = *in_len;
	g->s.end_of_stream = end;
	g->s.flush = NO_FLUSH;
	g->s.next_out = out;
	g->s.avail_out = *out_len;
	if (isal_deflate(&g->s) != COMP_OK)
		return false;
	*in_len = g->s.avail_in;
	*out_len = g->s.avail_out;
	g->done = g->s.internal_state.state == ZSTATE_END;
	return true;
}

static bool zlib_step(struct gzip *g, const uint8_t *in, uint32_t *in_len, bool end, uint8_t *out,
		      uint32_t *out_len)
{
	int r;

	g->z.next_in = (Bytef *)(uintptr_t)in;
	g->z.avail_in = *in_len;
	g->z.next_out = out;
	g->z.avail_out = *out_len;
	r = deflate(&g->z, end ? Z_FINISH : Z_NO_FLUSH);
	if (r != Z_OK && r != Z_BUF_ERROR && r != Z_STREAM_END)
		return false;
	*in_len = g->z.avail_in;
	*out_len = g->z.avail_out;
	g->done = r == Z_STREAM_END;
	return true;
}

ssize_t gzip_deflate(struct gzip *g, const char **in, size_t *in_len, bool last, char *out,
		     size_t cap)
{
	uint32_t given = *in_len > UINT32_MAX ? UINT32_MAX : (uint32_t)*in_len, left = given;
	uint32_t room = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap, free_out = room;
	bool end = last && given == *in_len;

	if (g->done)
		return 0;
	if (!(g->isal ? isal_step : zlib_step)(g, (const uint8_t *)*in, &left, end, (uint8_t *)out,
					       &free_out))
		return -ENOBUFS;
	*in += given - left;
	*in_len -= given - left;
	return (ssize_t)(room - free_out);
}

bool gzip_done(const struct gzip *g)
{
	return g->done;
}

void gzip_free(struct gzip *g)
{
	if (!g)
		return;
	if (!g->isal)
		deflateEnd(&g->z);
	free(g);
}
