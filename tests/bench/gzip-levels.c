/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One gzip level of cgacctd's body compression over an exposition file:
 *
 *   gzip-levels FILE LEVEL
 *
 * feeds FILE through exporter/gzip.c as a scrape does (rendered pieces of
 * BODY_PIECE bytes in, the HTTP layer's blocks out), then inflates the result
 * with zlib and checks that it is FILE again. Prints "gzip LEVEL IN OUT".
 * Run under callgrind with --toggle-collect=compress_body, the count is the
 * compression alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "exporter/gzip.h"

#define BODY_PIECE (64 * 1024)
#define OUT_BLOCK  (64 * 1024)

static char *slurp(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = realloc(buf, cap);
			if (!buf)
				exit(1);
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	fclose(f);
	*ret_len = len;
	return buf;
}

/* The compressed body, appended to *out; 0 or -errno. */
__attribute__((noinline)) static int compress_body(unsigned level, const char *in, size_t len,
						   char **out, size_t *out_len)
{
	struct gzip *g;
	size_t fed = 0, cap = 0;
	int r = gzip_new(level, &g);

	if (r < 0)
		return r;
	*out_len = 0;
	while (!gzip_done(g)) {
		size_t piece = len - fed < BODY_PIECE ? len - fed : BODY_PIECE;
		const char *p = in + fed;
		size_t left = piece;
		bool last = fed + piece == len;

		do {
			ssize_t n;

			if (cap - *out_len < OUT_BLOCK) {
				cap = cap ? 2 * cap : 4 * OUT_BLOCK;
				*out = realloc(*out, cap);
				if (!*out)
					return -ENOMEM;
			}
			n = gzip_deflate(g, &p, &left, last, *out + *out_len, OUT_BLOCK);
			if (n < 0) {
				gzip_free(g);
				return (int)n;
			}
			*out_len += (size_t)n;
		} while (left > 0 || (last && !gzip_done(g)));
		fed += piece;
	}
	gzip_free(g);
	return 0;
}

static bool inflates_to(const char *gz, size_t gz_len, const char *want, size_t want_len)
{
	char *buf = malloc(want_len + 1);
	z_stream z = {0};
	bool ok;

	if (!buf || inflateInit2(&z, 15 + 16) != Z_OK)
		return false;
	z.next_in = (Bytef *)gz;
	z.avail_in = (uInt)gz_len;
	z.next_out = (Bytef *)buf;
	z.avail_out = (uInt)want_len + 1;
	ok = inflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out == want_len && z.avail_in == 0 &&
	     memcmp(buf, want, want_len) == 0;
	inflateEnd(&z);
	free(buf);
	return ok;
}

int main(int argc, char **argv)
{
	char *in, *out = NULL;
	size_t len, out_len;
	unsigned level;
	int r;

	if (argc != 3) {
		fprintf(stderr, "usage: gzip-levels FILE LEVEL\n");
		return 2;
	}
	in = slurp(argv[1], &len);
	level = (unsigned)strtoul(argv[2], NULL, 10);
	if (!in) {
		fprintf(stderr, "gzip-levels: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	r = compress_body(level, in, len, &out, &out_len);
	if (r < 0) {
		fprintf(stderr, "gzip-levels: level %u: %s\n", level, strerror(-r));
		return 1;
	}
	if (!inflates_to(out, out_len, in, len)) {
		fprintf(stderr, "gzip-levels: level %u does not inflate to the input\n", level);
		return 1;
	}
	printf("gzip %u %zu %zu\n", level, len, out_len);
	free(in);
	free(out);
	return 0;
}
