/* SPDX-License-Identifier: GPL-2.0-only */
/* One-shot gzip compression of a rendered exposition. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <zlib.h>

#include "gzip.h"
#include "util.h"

/* windowBits 15 plus 16: zlib writes a gzip header and trailer instead of its own. */
#define GZIP_WINDOW_BITS (15 + 16)
/* Level 6 is zlib's default trade-off; expositions shrink about 7 times. */
#define GZIP_LEVEL 6

int gzip_compress(const char *buf, size_t len, char **ret, size_t *ret_len)
{
	z_stream z = {0};
	_cleanup_free_ char *out = NULL;
	uLong bound;
	int r;

	/* zlib counts in uInt; an exposition is far smaller, so refuse rather than loop. */
	if (len > UINT_MAX / 2)
		return -EFBIG;
	if (deflateInit2(&z, GZIP_LEVEL, Z_DEFLATED, GZIP_WINDOW_BITS, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK)
		return -ENOMEM;
	/* deflateBound() does not count the gzip wrapper: 18 bytes of header and trailer. */
	bound = deflateBound(&z, (uLong)len) + 18;
	out = malloc(bound);
	if (!out) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_in = (Bytef *)(uintptr_t)buf;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out;
	z.avail_out = (uInt)bound;
	r = deflate(&z, Z_FINISH);
	deflateEnd(&z);
	if (r != Z_STREAM_END)
		return -ENOBUFS;
	*ret_len = z.total_out;
	*ret = TAKE_PTR(out);
	return 0;
}
