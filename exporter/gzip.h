/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gzip (RFC 1952) framing with zlib. Prometheus decodes a body only when
 * Content-Encoding is exactly "gzip", so zlib's raw "deflate" stream is of
 * no use to it.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct gzip;

int gzip_new(struct gzip **ret);
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
