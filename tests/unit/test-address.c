/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Listen addresses (config/address.c) in the forms exporter-toolkit takes,
 * formatted back as they were written, and refused with the reason.
 */
#include <errno.h>
#include <sys/socket.h>

#include "config/address.h"
#include "test.h"

static void assert_address(const char *s, const char *host, unsigned port, int family)
{
	struct listen_address a;
	char *back;

	ASSERT_EQ(listen_address_parse(s, &a, NULL), 0);
	ASSERT_TRUE(host ? a.host && strcmp(a.host, host) == 0 : a.host == NULL);
	ASSERT_EQ(a.port, port);
	ASSERT_EQ(a.family, family);
	ASSERT_EQ(listen_address_format(&a, &back), 0);
	ASSERT_STREQ(back, s);
	free(back);
	listen_address_done(&a);
}

TEST(listen_addresses_parse_in_every_form)
{
	assert_address(":19753", NULL, 19753, AF_UNSPEC);
	assert_address("127.0.0.1:9100", "127.0.0.1", 9100, AF_INET);
	assert_address("[::1]:1", "::1", 1, AF_INET6);
	assert_address("[fe80::1:2]:65535", "fe80::1:2", 65535, AF_INET6);
	assert_address("localhost:80", "localhost", 80, AF_UNSPEC);
	assert_address("exporter-1.example.org:443", "exporter-1.example.org", 443, AF_UNSPEC);
}

static void assert_bad_address(const char *s, const char *why)
{
	struct listen_address a;
	const char *got = NULL;

	ASSERT_EQ(listen_address_parse(s, &a, &got), -EINVAL);
	ASSERT_STREQ(got, why);
}

TEST(listen_addresses_are_strict)
{
	const char *port = "port must be a number from 1 to 65535";

	assert_bad_address("19753", "missing ':PORT'");
	assert_bad_address("127.0.0.1", "missing ':PORT'");
	assert_bad_address(":0", port);
	assert_bad_address(":65536", port);
	assert_bad_address(":09100", port);
	assert_bad_address(":http", port);
	assert_bad_address("127.0.0.1:", port);
	assert_bad_address("::1:9100", "IPv6 addresses need brackets, as in [::1]:19753");
	assert_bad_address("[::1]9100", "missing ':PORT' after ']'");
	assert_bad_address("[::1:9100", "missing ']' after IPv6 address");
	assert_bad_address("[127.0.0.1]:80", "invalid IPv6 address");
	assert_bad_address("[]:80", "invalid IPv6 address");
	assert_bad_address("1.2.3:80", "invalid IPv4 address");
	assert_bad_address("256.1.1.1:80", "invalid IPv4 address");
	assert_bad_address("-host:80", "invalid host name");
	assert_bad_address("a..b:80", "invalid host name");
	assert_bad_address("host_name:80", "invalid host name");
	assert_bad_address(" :80", "invalid host name");
}
