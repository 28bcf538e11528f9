/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Listening sockets (exporter/listen.c): one per literal address, bound
 * there, listening, close-on-exec and reusable at once; ":port" is one
 * dual-stack socket; IPv6 literals are IPv6 only; fds are appended, and a
 * failure appends nothing.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "exporter/listen.h"
#include "test.h"

/* A port nothing listens on now, from the kernel's ephemeral range. */
static unsigned free_port(void)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ASSERT_EQ(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	close(fd);
	return ntohs(sa.sin_port);
}

/* Opens host:port ("" for all of the host's addresses), appending to *fds. */
static int open_address(const char *host, unsigned port, int **fds, size_t *n_fds)
{
	struct listen_address a;
	char spec[64];
	int r;

	snprintf(spec, sizeof(spec), "%s:%u", host, port);
	ASSERT_EQ(listen_address_parse(spec, &a, NULL), 0);
	r = listen_open(&a, fds, n_fds);
	listen_address_done(&a);
	return r;
}

static int sockopt(int fd, int level, int name)
{
	int v = -1;
	socklen_t len = sizeof(v);

	ASSERT_EQ(getsockopt(fd, level, name, &v, &len), 0);
	return v;
}

/*
 * Opens the address and checks that its one new socket listens on port,
 * is close-on-exec and may be bound again while connections linger; the
 * socket.
 */
static int open_one(const char *host, unsigned port, int family, int **fds, size_t *n)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	size_t before = *n;
	int fd;

	ASSERT_EQ(open_address(host, port, fds, n), 0);
	ASSERT_EQ(*n, before + 1);
	fd = (*fds)[before];
	ASSERT_EQ(getsockname(fd, (struct sockaddr *)&ss, &len), 0);
	ASSERT_EQ(ss.ss_family, family);
	ASSERT_EQ(ntohs(family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
					  : ((struct sockaddr_in6 *)&ss)->sin6_port),
		  port);
	ASSERT_EQ(sockopt(fd, SOL_SOCKET, SO_ACCEPTCONN), 1);
	ASSERT_TRUE(sockopt(fd, SOL_SOCKET, SO_REUSEADDR) != 0);
	ASSERT_EQ(sockopt(fd, SOL_SOCKET, SO_TYPE), SOCK_STREAM);
	ASSERT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	return fd;
}

/* A client of 127.0.0.1:port gets through (the kernel completes the handshake). */
static bool accepts_ipv4(unsigned port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	ASSERT_TRUE(fd >= 0);
	ok = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return ok;
}

static void close_fds(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
}

TEST(literal_addresses_are_one_socket_each_appended_in_order)
{
	unsigned p4 = free_port(), p6 = free_port();
	int *fds = NULL, fd4, fd6;
	size_t n = 0;

	fd4 = open_one("127.0.0.1", p4, AF_INET, &fds, &n);
	ASSERT_TRUE(accepts_ipv4(p4));
	fd6 = open_one("[::1]", p6, AF_INET6, &fds, &n);
	ASSERT_EQ(sockopt(fd6, IPPROTO_IPV6, IPV6_V6ONLY), 1);
	ASSERT_TRUE(!accepts_ipv4(p6));
	ASSERT_EQ(fds[0], fd4);
	close_fds(fds, n);
}

/* ":port" serves IPv4 and IPv6 on one socket, whatever the sysctl's default. */
TEST(wildcard_is_one_dual_stack_socket)
{
	unsigned port = free_port();
	struct sockaddr_in6 sa;
	socklen_t len = sizeof(sa);
	int *fds = NULL, fd;
	size_t n = 0;

	fd = open_one("", port, AF_INET6, &fds, &n);
	ASSERT_EQ(sockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY), 0);
	ASSERT_EQ(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	ASSERT_TRUE(memcmp(&sa.sin6_addr, &in6addr_any, sizeof(in6addr_any)) == 0);
	ASSERT_TRUE(accepts_ipv4(port));
	close_fds(fds, n);
}

/*
 * A port in use is the bind's error, and what the call opened before it
 * failed (localhost may be ::1 and 127.0.0.1) is closed again: the array
 * keeps what it had.
 */
TEST(a_failure_appends_nothing)
{
	unsigned port = free_port();
	int *fds = NULL, taken;
	size_t n = 0, before;

	taken = open_one("127.0.0.1", port, AF_INET, &fds, &n);
	open_one("[::1]", free_port(), AF_INET6, &fds, &n);
	before = open_fds();
	ASSERT_EQ(open_address("127.0.0.1", port, &fds, &n), -EADDRINUSE);
	ASSERT_EQ(open_address("localhost", port, &fds, &n), -EADDRINUSE);
	ASSERT_EQ(open_address("", port, &fds, &n), -EADDRINUSE);
	ASSERT_EQ(n, 2);
	ASSERT_EQ(fds[0], taken);
	ASSERT_EQ(open_fds(), before);
	close_fds(fds, n);
}
