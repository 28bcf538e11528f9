/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz targets for what the HTTP side parses from clients, one binary per
 * FUZZ_TARGET as in fuzz-parsers.c: the Accept and Accept-Encoding headers
 * (http_headers), and the Authorization header (basic_auth). MHD hands
 * headers over NUL-terminated, so negotiation gets the input copied into
 * an exact-size terminated buffer; the Authorization parser takes (buf,
 * len) and gets the input as libFuzzer hands it over. Either way ASan sees
 * any read past the end. Whatever the header, negotiation picks a format
 * we render, and accepted credentials split at the first ':'.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exporter/auth.h"
#include "exporter/negotiate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TARGET static __attribute__((unused)) void

TARGET fuzz_http_headers(const char *buf, size_t len)
{
	char *header = malloc(len + 1);
	enum render_format f;

	if (!header)
		return;
	memcpy(header, buf, len);
	header[len] = '\0';
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

#define CONCAT_(a, b) a##b
#define CONCAT(a, b)  CONCAT_(a, b)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	CONCAT(fuzz_, FUZZ_TARGET)((const char *)data, size);
	return 0;
}
