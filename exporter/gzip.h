/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gzip (RFC 1952) framing with zlib. Prometheus decodes a body only when
 * Content-Encoding is exactly "gzip", so zlib's raw "deflate" stream is of
 * no use to it.
 */
#pragma once

#include <stddef.h>

/* Compresses len bytes of buf into a malloc'd *ret of *ret_len bytes. */
int gzip_compress(const char *buf, size_t len, char **ret, size_t *ret_len);
