/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz targets for what the HTTP side parses from clients (see fuzz.h):
 * the Accept and Accept-Encoding headers (http_headers), and the
 * Authorization header (basic_auth). MHD hands headers over
 * NUL-terminated, so negotiation gets the input as a string; the
 * Authorization parser takes (buf, len). And what every label value of an
 * exposition goes through (label_value), and the request heads the server
 * reads itself before libmicrohttpd does (request_head). Whatever the header, negotiation picks a
 * format we render, and accepted credentials split at the first ':'.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exporter/auth.h"
#include "exporter/negotiate.h"
#include "exporter/reqhead.h"
#include "exporter/textformat.h"
#include "fuzz.h"

TARGET fuzz_http_headers(const char *buf, size_t len)
{
	char *header = fuzz_string(buf, len);
	enum render_format f;

	if (!header)
		return;
	f = negotiate_format(header);
	if (f != RENDER_TEXT && f != RENDER_OPENMETRICS)
		abort();
	(void)negotiate_gzip(header);
	free(header);
}

TARGET fuzz_basic_auth(const char *buf, size_t len)
{
	char *user, *password;

	if (auth_parse_basic(buf, len, &user, &password) < 0)
		return;
	if (strchr(user, ':'))
		abort();
	free(user);
	auth_erase_password(password);
}

/*
 * A request head as a client sends it, bytes before it is whole: waiting
 * for more, whole (its length within what came, ending in an empty line),
 * or refused with one of the statuses the server answers.
 */
TARGET fuzz_request_head(const char *buf, size_t len)
{
	const char *why = NULL;
	long r = reqhead_check(buf, len, &why);

	if (r > 0) {
		/* whole: within what came, ending in an empty line (a line ends in LF or CRLF) */
		size_t n = (size_t)r;

		if (n > len || n < 2 || buf[n - 1] != '\n' ||
		    (buf[n - 2] != '\n' && (n < 3 || buf[n - 2] != '\r' || buf[n - 3] != '\n')))
			abort();
	} else if (r < 0) {
		if (!why || (r != -400 && r != -414 && r != -431 && r != -501 && r != -505))
			abort();
	} else if (len >= REQHEAD_MAX) {
		abort(); /* waiting past the bound */
	}
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * Any bytes as a label value (a cgroup's name, a runtime's answer): the
 * text is valid UTF-8 with no raw quote or newline, and undoing its escapes
 * gives the bytes back, so two values never share a text.
 */
TARGET fuzz_label_value(const char *buf, size_t len)
{
	char *value = fuzz_string(buf, len), *text, *back;
	size_t n, m = 0;

	if (!value)
		return;
	len = strlen(value);
	text = malloc(TEXTFORMAT_LABEL_VALUE_MAX(len) + 1);
	back = malloc(len + 1);
	if (!text || !back)
		abort();
	n = (size_t)(textformat_write_label_value(text, value, len) - text);
	for (size_t i = 0, c; i < n; i += c) {
		c = utf8_char_len(text + i, n - i);
		if (c == 0 || text[i] == '\n')
			abort();
		if (text[i] == '\\') { /* \\ \" \n */
			if (i + 1 == n || !strchr("\\\"n", text[i + 1]))
				abort();
			back[m++] = text[i + 1] == 'n' ? '\n' : text[i + 1];
			c = 2;
		} else if (text[i] == '"') {
			abort();
		} else if (n - i >= 5 && memcmp(text + i, UTF8_REPLACEMENT, 3) == 0) {
			if (hex_digit(text[i + 3]) < 0 || hex_digit(text[i + 4]) < 0)
				abort();
			back[m++] = (char)(hex_digit(text[i + 3]) * 16 + hex_digit(text[i + 4]));
			c = 5;
		} else {
			memcpy(back + m, text + i, c);
			m += c;
		}
	}
	if (m != len || memcmp(back, value, len) != 0)
		abort();
	free(text);
	free(back);
	free(value);
}

FUZZ_MAIN()
