/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Listen addresses as written in the config and on the command line:
 * "host:port", "[ipv6]:port" or ":port" (every local address, IPv4 and
 * IPv6). Parsed strictly here so a typo fails at load time, not at bind().
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct listen_address {
	char *host;    /* NULL for ":port"; an IP literal without brackets, or a host name */
	uint16_t port; /* 1..65535 */
	int family;    /* AF_INET or AF_INET6 for literals, AF_UNSPEC for names and ":port" */
};

/* On -EINVAL, *ret_why (if non-NULL) says what is wrong, as a static string. */
int listen_address_parse(const char *s, struct listen_address *ret, const char **ret_why);
/* Writes "host:port", "[v6]:port" or ":port"; -ENOMEM or 0. */
int listen_address_format(const struct listen_address *a, char **ret);
bool listen_address_equal(const struct listen_address *a, const struct listen_address *b);
void listen_address_done(struct listen_address *a);
