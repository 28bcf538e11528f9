/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Listen address parsing. Host names are accepted (resolved when the
 * exporter binds) but must be syntactically valid; a name whose last label
 * is all digits is taken to be a mistyped IPv4 address, as URL parsers do,
 * so "10.0.0:80" is an error rather than a DNS lookup.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "base/number.h"
#include "base/util.h"
#include "config/address.h"

#define HOSTNAME_MAX  253
#define LABEL_LEN_MAX 63

static int parse_port(const char *s, uint16_t *ret)
{
	uint64_t v;
	int r;

	/* No leading zero: "08080" is likely a typo. */
	if (s[0] < '1' || s[0] > '9')
		return -EINVAL;
	r = number_parse_u64(s, strlen(s), &v);
	if (r < 0)
		return r;
	if (v > UINT16_MAX)
		return -ERANGE;
	*ret = (uint16_t)v;
	return 0;
}

static bool label_valid(const char *l, size_t len)
{
	if (len == 0 || len > LABEL_LEN_MAX || l[0] == '-' || l[len - 1] == '-')
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = l[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-'))
			return false;
	}
	return true;
}

/* RFC 1123 host name; *ret_numeric tells whether the last label is all digits. */
static bool hostname_valid(const char *s, bool *ret_numeric)
{
	const char *last = s;

	if (strlen(s) > HOSTNAME_MAX)
		return false;
	for (const char *p = s;; p++) {
		if (*p != '.' && *p != '\0')
			continue;
		if (!label_valid(last, (size_t)(p - last)))
			return false;
		if (*p == '\0')
			break;
		last = p + 1;
	}
	*ret_numeric = strspn(last, "0123456789") == strlen(last);
	return true;
}

/* Everything before the port: "[v6]", "v4", "name" or "". Sets *ret_port to what follows ':'. */
static int parse_host(const char *s, char **ret_host, int *ret_family, const char **ret_port,
		      const char **ret_why)
{
	_cleanup_free_ char *host = NULL;
	struct in6_addr a6;
	struct in_addr a4;
	const char *colon;
	bool numeric;

	if (s[0] == '[') {
		const char *end = strchr(s, ']');

		if (!end)
			return *ret_why = "missing ']' after IPv6 address", -EINVAL;
		if (end[1] != ':')
			return *ret_why = "missing ':PORT' after ']'", -EINVAL;
		host = strndup(s + 1, (size_t)(end - s - 1));
		if (!host)
			return -ENOMEM;
		if (inet_pton(AF_INET6, host, &a6) != 1)
			return *ret_why = "invalid IPv6 address", -EINVAL;
		*ret_family = AF_INET6;
		*ret_port = end + 2;
		*ret_host = TAKE_PTR(host);
		return 0;
	}

	colon = strrchr(s, ':');
	if (!colon)
		return *ret_why = "missing ':PORT'", -EINVAL;
	if (memchr(s, ':', (size_t)(colon - s)))
		return *ret_why = "IPv6 addresses need brackets, as in [::1]:19753", -EINVAL;
	*ret_port = colon + 1;
	if (colon == s) {
		*ret_family = AF_UNSPEC;
		*ret_host = NULL;
		return 0;
	}
	host = strndup(s, (size_t)(colon - s));
	if (!host)
		return -ENOMEM;
	if (inet_pton(AF_INET, host, &a4) == 1)
		*ret_family = AF_INET;
	else if (!hostname_valid(host, &numeric))
		return *ret_why = "invalid host name", -EINVAL;
	else if (numeric)
		return *ret_why = "invalid IPv4 address", -EINVAL;
	else
		*ret_family = AF_UNSPEC;
	*ret_host = TAKE_PTR(host);
	return 0;
}

int listen_address_parse(const char *s, struct listen_address *ret, const char **ret_why)
{
	_cleanup_free_ char *host = NULL;
	const char *port, *why = NULL;
	uint16_t p;
	int family, r;

	r = parse_host(s, &host, &family, &port, &why);
	if (r == 0 && parse_port(port, &p) < 0) {
		why = "port must be a number from 1 to 65535";
		r = -EINVAL;
	}
	if (r < 0) {
		if (ret_why)
			*ret_why = why ? why : strerror(-r);
		return r;
	}
	*ret = (struct listen_address){.host = TAKE_PTR(host), .port = p, .family = family};
	return 0;
}

int listen_address_format(const struct listen_address *a, char **ret)
{
	int n;

	if (!a->host)
		n = asprintf(ret, ":%u", a->port);
	else if (a->family == AF_INET6)
		n = asprintf(ret, "[%s]:%u", a->host, a->port);
	else
		n = asprintf(ret, "%s:%u", a->host, a->port);
	return n < 0 ? -ENOMEM : 0;
}

bool listen_address_equal(const struct listen_address *a, const struct listen_address *b)
{
	if (a->port != b->port || a->family != b->family || !a->host != !b->host)
		return false;
	return !a->host || strcmp(a->host, b->host) == 0;
}

void listen_address_done(struct listen_address *a)
{
	free(a->host);
	a->host = NULL;
}
