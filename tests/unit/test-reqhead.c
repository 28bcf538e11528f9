/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Request heads judged before libmicrohttpd sees them (exporter/reqhead.c):
 * RFC 9112's framing rules, each case a shape that a server and a proxy in
 * front of it could read two ways.
 */
#include "base/strbuf.h"
#include "exporter/reqhead.h"
#include "test.h"

static long check(const char *head, const char **why)
{
	return reqhead_check(head, strlen(head), why);
}

#define ASSERT_REFUSED(head, status)                                                               \
	do {                                                                                       \
		const char *_why;                                                                  \
		ASSERT_EQ(check(head, &_why), -(status));                                          \
		ASSERT_TRUE(_why != NULL && _why[0]);                                              \
	} while (0)

TEST(a_whole_well_framed_head_gives_its_length)
{
	static const char get[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\nNEXT";
	const char *why;

	ASSERT_EQ(check(get, &why), (long)(sizeof(get) - 1 - 4));
	static const char *const whole[] = {
	    "GET / HTTP/1.0\r\n\r\n",
	    "GET / HTTP/1.1\nHost: x\n\n", /* bare LF, RFC 9112 section 2.2 */
	    "\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n",
	    "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n",
	    "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
	    "GET /metrics?a=1&b=2 HTTP/1.1\r\nhost:x\r\nX-Empty:\r\n\r\n",
	};

	for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); i++)
		ASSERT_EQ(check(whole[i], &why), (long)strlen(whole[i]));
}

TEST(an_unfinished_head_waits_for_more)
{
	const char *why;

	ASSERT_EQ(check("", &why), 0);
	ASSERT_EQ(check("GET /metr", &why), 0);
	ASSERT_EQ(check("GET /metrics HTTP/1.1\r\nHost: x\r\n", &why), 0);
	ASSERT_EQ(check("GET /metrics HTTP/1.1\r\nHost: x\r\n\r", &why), 0);
}

TEST(lengths_that_conflict_or_repeat_are_400)
{
	ASSERT_REFUSED(
	    "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\n", 400);
	ASSERT_REFUSED(
	    "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", 400);
	ASSERT_REFUSED("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 5\r\n\r\n", 400);
	ASSERT_REFUSED("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 400);
	ASSERT_REFUSED("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", 400);
	ASSERT_REFUSED("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
		       400);
	ASSERT_REFUSED("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
		       "Transfer-Encoding: chunked\r\n\r\n",
		       400);
}

TEST(transfer_codings_other_than_a_final_chunked_are_refused)
{
	/* chunked not last: the length cannot be known, 400 */
	ASSERT_REFUSED("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 400);
	ASSERT_REFUSED("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
		       400);
	ASSERT_REFUSED("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
		       "Transfer-Encoding: gzip\r\n\r\n",
		       400);
	/* chunked last after a coding this server does not do: 501 */
	ASSERT_REFUSED("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
		       501);
}

TEST(host_once_in_http_11_and_at_most_once_in_10)
{
	const char *why;

	ASSERT_REFUSED("GET / HTTP/1.1\r\n\r\n", 400);
	ASSERT_REFUSED("GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400);
	ASSERT_REFUSED("GET / HTTP/1.0\r\nHost: x\r\nhost: x\r\n\r\n", 400);
	ASSERT_TRUE(check("GET / HTTP/1.0\r\nHost: x\r\n\r\n", &why) > 0);
}

TEST(malformed_lines_are_400_and_other_versions_505)
{
	ASSERT_REFUSED("BLAH\r\n\r\n", 400);
	ASSERT_REFUSED("GET /metrics\r\n\r\n", 400);
	ASSERT_REFUSED("GET  /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 400);
	ASSERT_REFUSED("G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400);
	ASSERT_REFUSED("GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400);	     /* blank before ':' */
	ASSERT_REFUSED("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400); /* obs-fold */
	ASSERT_REFUSED("GET / HTTP/1.1\r\nHost: x\r\nNo colon\r\n\r\n", 400);
	ASSERT_REFUSED("GET / HTTP/1.1\r\nHost: x\rX: y\r\n\r\n", 400); /* a bare CR */
	ASSERT_REFUSED("GET / http/1.1\r\nHost: x\r\n\r\n", 400);
	ASSERT_REFUSED("GET / HTTP/9.9\r\nHost: x\r\n\r\n", 505);
	ASSERT_REFUSED("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505);
}

TEST(heads_and_targets_beyond_their_bounds)
{
	struct strbuf b = {0};
	const char *why;

	/* a request line that does not end within the bound: 414 */
	strbuf_puts(&b, "GET /");
	for (int i = 0; i < REQHEAD_MAX; i++)
		strbuf_putc(&b, 'a');
	ASSERT_EQ(reqhead_check(b.buf, b.len, &why), -414);
	/* a target within the head's bound but past its own */
	strbuf_truncate(&b, 0);
	strbuf_puts(&b, "GET /");
	for (int i = 0; i < REQHEAD_TARGET_MAX; i++)
		strbuf_putc(&b, 'a');
	strbuf_puts(&b, " HTTP/1.1\r\nHost: x\r\n\r\n");
	ASSERT_EQ(reqhead_check(b.buf, b.len, &why), -414);
	/* too many query parameters, each short */
	strbuf_truncate(&b, 0);
	strbuf_puts(&b, "GET /metrics?");
	for (int i = 0; i <= REQHEAD_PARAMETERS_MAX; i++)
		strbuf_puts(&b, "a&");
	strbuf_puts(&b, " HTTP/1.1\r\nHost: x\r\n\r\n");
	ASSERT_EQ(reqhead_check(b.buf, b.len, &why), -414);
	/* fields past the head's bound: 431, whole or still coming */
	strbuf_truncate(&b, 0);
	strbuf_puts(&b, "GET / HTTP/1.1\r\nHost: x\r\n");
	while (b.len <= REQHEAD_MAX)
		strbuf_puts(&b, "X-Filler: 0123456789012345678901234567890123456789\r\n");
	ASSERT_EQ(reqhead_check(b.buf, b.len, &why), -431);
	strbuf_puts(&b, "\r\n");
	ASSERT_EQ(reqhead_check(b.buf, b.len, &why), -431);
	strbuf_done(&b);
}

TEST(answers_name_their_status)
{
	ASSERT_STREQ(reqhead_reason(400), "400 Bad Request");
	ASSERT_STREQ(reqhead_reason(408), "408 Request Timeout");
	ASSERT_STREQ(reqhead_reason(414), "414 URI Too Long");
	ASSERT_STREQ(reqhead_reason(431), "431 Request Header Fields Too Large");
	ASSERT_STREQ(reqhead_reason(501), "501 Not Implemented");
	ASSERT_STREQ(reqhead_reason(505), "505 HTTP Version Not Supported");
}
