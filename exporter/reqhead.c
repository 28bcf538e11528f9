/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RFC 9112 sections 3 (request line), 5 (field lines) and 6 (message body
 * length). A line ends in CRLF, or in a bare LF, which the RFC lets a
 * server accept (section 2.2) and libmicrohttpd accepts; a bare CR, a
 * field line folded onto the next, and blanks before a field's colon are
 * refused, as each can make two parsers see two different heads.
 */
#include <string.h>
#include <strings.h>

#include "exporter/reqhead.h"

/* RFC 9110 section 5.6.2's tchar. */
static bool token_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

static bool token(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!token_char(s[i]))
			return false;
	return true;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

unsigned reqhead_judge(const struct reqhead_fields *f, const char **ret_why)
{
	if (f->target_len > REQHEAD_TARGET_MAX || f->parameters > REQHEAD_PARAMETERS_MAX) {
		*ret_why = "request target too long (RFC 9110 section 15.5.15)";
		return 414;
	}
	if (f->hosts > 1 || (f->http11 && f->hosts == 0)) {
		*ret_why = "a request needs one Host header (RFC 9112 section 3.2)";
		return 400;
	}
	if (f->lengths > 0 && f->encodings > 0) {
		*ret_why = "Content-Length with Transfer-Encoding (RFC 9112 section 6.1)";
		return 400;
	}
	if (f->lengths > 1 || f->length_invalid) {
		*ret_why = "Content-Length given more than once or not a number (RFC 9112 "
			   "section 6.3)";
		return 400;
	}
	if (f->encodings > 0 && !f->chunked_last) {
		*ret_why = "a Transfer-Encoding whose last coding is not chunked (RFC 9112 section "
			   "6.1)";
		return 400;
	}
	if (f->other_coding) {
		*ret_why = "a transfer coding other than chunked (RFC 9112 section 6.1)";
		return 501;
	}
	return 0;
}

/* The codings of one Transfer-Encoding value, comma-separated, into f. */
static void codings(const char *v, size_t len, struct reqhead_fields *f)
{
	f->encodings++;
	f->chunked_last = false;
	for (size_t i = 0; i < len;) {
		size_t start, end;

		while (i < len && (blank(v[i]) || v[i] == ','))
			i++;
		start = i;
		while (i < len && v[i] != ',')
			i++;
		end = i;
		while (end > start && blank(v[end - 1]))
			end--;
		if (end == start)
			continue;
		f->chunked_last = end - start == 7 && strncasecmp(v + start, "chunked", 7) == 0;
		if (!f->chunked_last)
			f->other_coding = true;
	}
}

static void field(const char *name, size_t name_len, const char *v, size_t len,
		  struct reqhead_fields *f)
{
	if (name_len == 4 && strncasecmp(name, "Host", 4) == 0)
		f->hosts++;
	else if (name_len == 14 && strncasecmp(name, "Content-Length", 14) == 0) {
		f->lengths++;
		bool digits = len > 0 && len <= 19;

		for (size_t i = 0; digits && i < len; i++)
			digits = v[i] >= '0' && v[i] <= '9';
		f->length_invalid = f->length_invalid || !digits;
	} else if (name_len == 17 && strncasecmp(name, "Transfer-Encoding", 17) == 0)
		codings(v, len, f);
}

/* The target's length and its query parameters, into f. */
static void target(const char *t, size_t len, struct reqhead_fields *f)
{
	const char *q = memchr(t, '?', len);

	f->target_len = len;
	if (!q)
		return;
	f->parameters = 1;
	for (const char *p = q + 1; p < t + len; p++)
		f->parameters += *p == '&' || *p == ';';
}

/* The end of the line at s (its terminator excluded), and where the next begins; NULL if none yet.
 */
static const char *line_end(const char *s, const char *end, const char **ret_next, bool *ret_bad)
{
	const char *lf = memchr(s, '\n', (size_t)(end - s));
	const char *cr = memchr(s, '\r', (size_t)((lf ? lf : end) - s));

	*ret_bad = false;
	if (cr && cr + 1 < end && cr[1] != '\n') {
		*ret_bad = true; /* a bare CR */
		return NULL;
	}
	if (!lf)
		return NULL;
	*ret_next = lf + 1;
	return lf > s && lf[-1] == '\r' ? lf - 1 : lf;
}

static long refuse(unsigned status, const char *why, const char **ret_why)
{
	*ret_why = why;
	return -(long)status;
}

static long request_line(const char *s, const char *eol, struct reqhead_fields *f,
			 const char **ret_why)
{
	const char *sp1 = memchr(s, ' ', (size_t)(eol - s)), *sp2, *version;

	if (!sp1 || !token(s, (size_t)(sp1 - s)))
		return refuse(400, "malformed request line (RFC 9112 section 3)", ret_why);
	sp2 = memchr(sp1 + 1, ' ', (size_t)(eol - sp1 - 1));
	if (!sp2 || sp2 == sp1 + 1)
		return refuse(400, "malformed request line (RFC 9112 section 3)", ret_why);
	for (const char *p = sp1 + 1; p < sp2; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return refuse(400, "malformed request target (RFC 9112 section 3.2)",
				      ret_why);
	target(sp1 + 1, (size_t)(sp2 - sp1 - 1), f);
	version = sp2 + 1;
	if (eol - version == 8 && memcmp(version, "HTTP/1.1", 8) == 0)
		f->http11 = true;
	else if (eol - version == 8 && memcmp(version, "HTTP/1.0", 8) == 0)
		f->http11 = false;
	else if (eol - version == 8 && memcmp(version, "HTTP/", 5) == 0 && version[6] == '.')
		return refuse(505, "HTTP version not supported", ret_why);
	else
		return refuse(400, "malformed HTTP version (RFC 9112 section 2.3)", ret_why);
	return 0;
}

long reqhead_check(const char *buf, size_t len, const char **ret_why)
{
	struct reqhead_fields f = {0};
	const char *s = buf, *end = buf + len, *next, *eol;
	bool bad;
	long r;
	unsigned status;

	*ret_why = NULL;
	/* RFC 9112 section 2.2: empty lines before the request line are ignored */
	while (s < end && (*s == '\r' || *s == '\n'))
		s++;
	eol = line_end(s, end, &next, &bad);
	if (!eol)
		goto incomplete;
	r = request_line(s, eol, &f, ret_why);
	if (r < 0)
		return r;
	for (s = next;; s = next) {
		const char *colon;

		eol = line_end(s, end, &next, &bad);
		if (!eol)
			goto incomplete;
		if (eol == s)
			break; /* the empty line: the head is whole */
		if (blank(*s))
			return refuse(400,
				      "a field line folded onto the one before (RFC 9112 "
				      "section 5.2)",
				      ret_why);
		colon = memchr(s, ':', (size_t)(eol - s));
		if (!colon || !token(s, (size_t)(colon - s)))
			return refuse(400, "malformed field line (RFC 9112 section 5)", ret_why);
		{
			const char *v = colon + 1, *ve = eol;

			while (v < ve && blank(*v))
				v++;
			while (ve > v && blank(ve[-1]))
				ve--;
			field(s, (size_t)(colon - s), v, (size_t)(ve - v), &f);
		}
	}
	if ((size_t)(next - buf) > REQHEAD_MAX)
		return refuse(431, "request head too large", ret_why);
	status = reqhead_judge(&f, ret_why);
	if (status)
		return -(long)status;
	return (long)(next - buf);
incomplete:
	if (bad)
		return refuse(400, "a bare CR in the request head (RFC 9112 section 2.2)", ret_why);
	if (len >= REQHEAD_MAX && !memchr(buf, '\n', len))
		return refuse(414, "request line too long (RFC 9112 section 3)", ret_why);
	if (len >= REQHEAD_MAX)
		return refuse(431, "request head too large", ret_why);
	return 0;
}

const char *reqhead_reason(unsigned status)
{
	switch (status) {
	case 400:
		return "400 Bad Request";
	case 408:
		return "408 Request Timeout";
	case 414:
		return "414 URI Too Long";
	case 431:
		return "431 Request Header Fields Too Large";
	case 501:
		return "501 Not Implemented";
	case 505:
		return "505 HTTP Version Not Supported";
	default:
		return "400 Bad Request";
	}
}
