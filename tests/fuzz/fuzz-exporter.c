/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fuzz targets for what the HTTP side parses from clients, one binary per
 * FUZZ_TARGET as in fuzz-parsers.c: the Accept and Accept-Encoding headers
 * (http_headers), and the Authorization header (basic_auth). MHD hands
 * headers over NUL-terminated, so negotiation gets the input copied into
 * an exact-size terminated buffer; the Authorization parser takes (buf,
 * len) and gets the input as libFuzzer hands it over. Either way ASan sees
 * any read past the end. Whatever the header, negotiation picks a format
 * we render, and accepted credentials split at the first ':'. A cgroup
 * path (cgroup_identity) is read as a NUL-terminated record path: what it
 * names lies within it, and a pod comes with its QoS class.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exporter/auth.h"
#include "model/identity.h"
#include "exporter/negotiate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define TARGET static __attribute__((unused)) void

/* The input as a string of exactly its bytes (the first NUL ends it early), or NULL. */
static __attribute__((unused)) char *terminated(const char *buf, size_t len)
{
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, buf, len);
		s[len] = '\0';
	}
	return s;
}

TARGET fuzz_http_headers(const char *buf, size_t len)
{
	char *header = terminated(buf, len);
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

static void check_span(const char *path, size_t len, const struct identity_span *s)
{
	char value[IDENTITY_VALUE_MAX + 1];

	if ((size_t)s->off + s->len > len)
		abort();
	identity_value(path, s, value);
	if (strlen(value) > s->len)
		abort();
}

TARGET fuzz_cgroup_identity(const char *buf, size_t len)
{
	char *path = terminated(buf, len);
	struct identity id;

	if (!path)
		return;
	len = strlen(path);
	identity_parse(path, &id);
	check_span(path, len, &id.unit);
	check_span(path, len, &id.container_id);
	check_span(path, len, &id.pod_uid);
	if ((id.pod_uid.len > 0) != (id.qos_class != NULL) ||
	    (id.runtime && id.container_id.len == 0))
		abort();
	free(path);
}

#define CONCAT_(a, b) a##b
#define CONCAT(a, b)  CONCAT_(a, b)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	CONCAT(fuzz_, FUZZ_TARGET)((const char *)data, size);
	return 0;
}
