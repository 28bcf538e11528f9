/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz targets for what the HTTP side parses from clients (see fuzz.h):
 * the Accept and Accept-Encoding headers (http_headers), and the
 * Authorization header (basic_auth). MHD hands headers over
 * NUL-terminated, so negotiation gets the input as a string; the
 * Authorization parser takes (buf, len). Whatever the header, negotiation picks a format
 * we render, and accepted credentials split at the first ':'.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exporter/auth.h"
#include "exporter/negotiate.h"
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

FUZZ_MAIN()
