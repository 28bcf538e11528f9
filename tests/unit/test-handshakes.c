/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Handshakes under way (exporter/handshakes.c): a listener whose clients'
 * ACKs a filter drops keeps their handshakes half done, in SYN_RECV, and
 * each counts on the socket it came to and on no other; a dual-stack
 * socket counts its IPv4 clients; finished ones do not count.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/util.h"
#include "exporter/handshakes.h"
#include "test.h"

/* A listener on family's loopback (or wildcard) address and a port of the kernel's choice. */
static int listener(int family, bool wildcard)
{
	struct sockaddr_in in = {.sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(wildcard ? INADDR_ANY : INADDR_LOOPBACK)};
	struct sockaddr_in6 in6 = {.sin6_family = AF_INET6,
				   .sin6_addr = wildcard ? in6addr_any : in6addr_loopback};
	int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0), off = 0;

	ASSERT_TRUE(fd >= 0);
	if (family == AF_INET6) {
		ASSERT_EQ(setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off)), 0);
		ASSERT_EQ(bind(fd, (struct sockaddr *)&in6, sizeof(in6)), 0);
	} else
		ASSERT_EQ(bind(fd, (struct sockaddr *)&in, sizeof(in)), 0);
	ASSERT_EQ(listen(fd, 16), 0);
	return fd;
}

static uint16_t port_of(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	ASSERT_EQ(getsockname(fd, (struct sockaddr *)&ss, &len), 0);
	return ntohs(ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
					     : ((struct sockaddr_in6 *)&ss)->sin6_port);
}

/* Lets SYNs in and drops every other segment: the client's ACK never arrives. */
static void drop_acks(int fd)
{
	static struct sock_filter syn_only[] = {
	    BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 13),
	    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, TH_SYN, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, UINT32_MAX),
	    BPF_STMT(BPF_RET | BPF_K, 0),
	};
	const struct sock_fprog prog = {.len = ELEMENTSOF(syn_only), .filter = syn_only};

	ASSERT_EQ(setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)), 0);
}

/* An IPv4 client of 127.0.0.1:port; its side of the handshake is done when this returns. */
static int client(uint16_t port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	return fd;
}

TEST(a_listener_without_clients_has_none)
{
	int fd = listener(AF_INET, false);

	ASSERT_EQ(handshakes_pending(fd), 0);
	close(fd);
}

TEST(half_done_handshakes_count_on_their_listener_alone)
{
	int fd = listener(AF_INET, false), other = listener(AF_INET, false), c1, c2;

	drop_acks(fd);
	drop_acks(other);
	c1 = client(port_of(fd));
	c2 = client(port_of(fd));
	ASSERT_EQ(handshakes_pending(fd), 2);
	ASSERT_EQ(handshakes_pending(other), 0);
	close(c1);
	close(c2);
	close(fd);
	close(other);
}

TEST(a_finished_handshake_does_not_count)
{
	int fd = listener(AF_INET, false), c = client(port_of(fd));

	/* the kernel completed it: it waits in the accept queue */
	ASSERT_EQ(handshakes_pending(fd), 0);
	close(c);
	close(fd);
}

TEST(a_dual_stack_listener_counts_its_ipv4_clients)
{
	int fd = listener(AF_INET6, true), c;

	drop_acks(fd);
	c = client(port_of(fd));
	ASSERT_EQ(handshakes_pending(fd), 1);
	close(c);
	close(fd);
}

TEST(a_socket_that_does_not_listen_is_an_error)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	ASSERT_TRUE(handshakes_pending(fd) < 0);
	close(fd);
	ASSERT_EQ(handshakes_pending(fd), -EBADF);
}
