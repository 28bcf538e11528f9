/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gzip (RFC 1952) framing, one member per body. Prometheus decodes a body
 * only when Content-Encoding is exactly "gzip", so a raw "deflate" stream
 * is of no use to it. A body is one gzip member, streamed, never several
 * members: curl --compressed shows only the first member of a stream.
 *
 * Level 1, the default, is ISA-L's igzip: it compresses an exposition at
 * about the ratio of zlib's level 1 for a fraction of its instructions
 * (tests/bench/README.md, "gzip levels"). Levels 2 to 9 are zlib's, for
 * operators who pay for bytes on the wire more than for CPU.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define GZIP_LEVEL_DEFAULT 1
#define GZIP_LEVEL_MAX	   9

struct gzip;

/* level: 1 to GZIP_LEVEL_MAX; -EINVAL for others. */
int gzip_new(unsigned level, struct gzip **ret);
/*
 * Compresses from *in (advanced past what was taken) into out, up to cap
 * bytes; returns the bytes written or -errno. With last, *in is the end of
 * the data, and once all of it is taken the gzip trailer follows (over as
 * many calls as out needs) until gzip_done().
 */
ssize_t gzip_deflate(struct gzip *g, const char **in, size_t *in_len, bool last, char *out,
		     size_t cap);
bool gzip_done(const struct gzip *g);
void gzip_free(struct gzip *g);
