/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Whether a request head frames its request the way RFC 9112 says, before
 * anything acts on it: one Host header in HTTP/1.1, at most one in 1.0; a
 * body length that only one of Content-Length and Transfer-Encoding gives,
 * once, and a chunked coding last; a head and target of bounded size.
 * libmicrohttpd 0.9.75 serves the next request after a duplicated or
 * conflicting length (a request-smuggling shape in front of a proxy),
 * waits forever for a body it cannot frame, and writes its own answer to a
 * malformed length twice: so the server reads plain-HTTP heads itself
 * (reqhead_check()) before handing the connection to it, and judges the
 * fields libmicrohttpd parsed over TLS (reqhead_judge()).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* The largest request head accepted, request line and fields, in bytes (431 beyond). */
#define REQHEAD_MAX (16 * 1024)
/* The longest request target, and the most query parameters in it (414 beyond). */
#define REQHEAD_TARGET_MAX     2048
#define REQHEAD_PARAMETERS_MAX 64

/* The framing fields of a head, as they came. */
struct reqhead_fields {
	bool http11;	     /* HTTP/1.1, not 1.0 */
	unsigned hosts;	     /* Host fields */
	unsigned lengths;    /* Content-Length fields */
	bool length_invalid; /* one that is not a decimal number */
	unsigned encodings;  /* Transfer-Encoding fields */
	bool chunked_last;   /* the last coding of the last one is chunked */
	bool other_coding;   /* a coding other than chunked anywhere */
	size_t target_len;   /* the request target's */
	size_t head_len;     /* the fields', as libmicrohttpd parsed them */
	unsigned parameters; /* in the target's query */
};

/* 0 if f frames a request as RFC 9112 demands; else the status to answer, and why. */
unsigned reqhead_judge(const struct reqhead_fields *f, const char **ret_why);

/*
 * Reads the request head at the start of buf[0, len): 0 while it is not
 * complete and may still be; its length when it is whole and acceptable;
 * otherwise a negative status (-400, -414, -431, -501, -505) with the
 * reason in *ret_why.
 */
long reqhead_check(const char *buf, size_t len, const char **ret_why);

/* The status line and reason of an answer to a refused head, for a response of our own. */
const char *reqhead_reason(unsigned status);
