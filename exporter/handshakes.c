/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A half-open connection is a request socket in SYN_RECV until its ACK
 * comes; the ACK turns it into a child that stays in SYN_RECV until it is
 * in the accept queue. So a dump of SYN_RECV sockets on the listener's
 * address, taken before the accept queue is emptied, covers every
 * handshake that could still complete. A dual-stack socket is asked for
 * both families: its IPv4 clients have IPv4 request sockets.
 */
#include <errno.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/util.h"
#include "exporter/handshakes.h"

struct local {
	int family;
	uint16_t port; /* network order */
	bool any;      /* bound to the wildcard address */
	uint32_t addr[4];
};

static int local_of(int fd, struct local *ret)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return -errno;
	*ret = (struct local){.family = ss.ss_family};
	if (ss.ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)&ss;

		ret->port = in->sin_port;
		ret->any = in->sin_addr.s_addr == htonl(INADDR_ANY);
		memcpy(ret->addr, &in->sin_addr, sizeof(in->sin_addr));
	} else if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&ss;

		ret->port = in6->sin6_port;
		ret->any = IN6_IS_ADDR_UNSPECIFIED(&in6->sin6_addr);
		memcpy(ret->addr, &in6->sin6_addr, sizeof(in6->sin6_addr));
	} else
		return -EAFNOSUPPORT;
	return 0;
}

static bool ours(const struct local *l, const struct inet_diag_msg *m)
{
	if (m->id.idiag_sport != l->port)
		return false;
	if (l->any)
		return true;
	return m->idiag_family == l->family &&
	       memcmp(m->id.idiag_src, l->addr, l->family == AF_INET ? 4 : 16) == 0;
}

/* The SYN_RECV sockets of one family on l's address; -errno. */
static int count_family(int nl, const struct local *l, int family)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} ask = {
	    .nlh = {.nlmsg_len = sizeof(ask),
		    .nlmsg_type = SOCK_DIAG_BY_FAMILY,
		    .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP},
	    .req = {.sdiag_family = (uint8_t)family,
		    .sdiag_protocol = IPPROTO_TCP,
		    .idiag_states = 1U << TCP_SYN_RECV},
	};
	long buf[8192 / sizeof(long)];
	int n = 0;

	if (send(nl, &ask, sizeof(ask), 0) < 0)
		return -errno;
	for (;;) {
		ssize_t got = recv(nl, buf, sizeof(buf), 0);
		size_t left;

		if (got < 0)
			return errno == EINTR ? -EAGAIN : -errno;
		left = (size_t)got;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, left);
		     h = NLMSG_NEXT(h, left)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return n;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				return e->error < 0 ? e->error : -EIO;
			}
			if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct inet_diag_msg)))
				n += ours(l, NLMSG_DATA(h));
		}
		if (got == 0)
			return -EIO;
	}
}

int handshakes_pending(int fd)
{
	_cleanup_close_ int nl = -1;
	struct local l;
	int r, v4, v6;

	r = local_of(fd, &l);
	if (r < 0)
		return r;
	nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0)
		return -errno;
	/* IPv4 clients reach an IPv4 socket or a dual-stack one, IPv6 clients an IPv6 socket */
	v4 = l.family == AF_INET || l.any ? count_family(nl, &l, AF_INET) : 0;
	if (v4 < 0 || l.family == AF_INET)
		return v4;
	v6 = count_family(nl, &l, AF_INET6);
	return v6 < 0 ? v6 : v4 + v6;
}
