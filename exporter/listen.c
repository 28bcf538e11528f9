/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Socket setup: SO_REUSEADDR so a restart does not wait for TIME_WAIT, and
 * IPV6_V6ONLY set explicitly (the sysctl default varies) — off only for the
 * wildcard ":port", which serves IPv4 too.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "base/util.h"
#include "exporter/listen.h"

static int open_one(const struct sockaddr *sa, socklen_t len, bool v6only)
{
	_cleanup_close_ int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_TCP);
	int on = 1, v6 = v6only;

	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) < 0)
		return -errno;
	if (sa->sa_family == AF_INET6 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6, sizeof(v6)) < 0)
		return -errno;
	if (bind(fd, sa, len) < 0 || listen(fd, LISTEN_BACKLOG) < 0)
		return -errno;
	return TAKE_FD(fd);
}

static int open_wildcard(uint16_t port)
{
	struct sockaddr_in6 any6 = {.sin6_family = AF_INET6, .sin6_port = htons(port)};
	struct sockaddr_in any4 = {.sin_family = AF_INET, .sin_port = htons(port)};
	int fd;

	fd = open_one((const struct sockaddr *)&any6, sizeof(any6), false);
	if (fd == -EAFNOSUPPORT || fd == -EADDRNOTAVAIL)
		fd = open_one((const struct sockaddr *)&any4, sizeof(any4), false);
	return fd;
}

static void close_all(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		close(fds[i]);
}

static int append(int **fds, size_t *n, int fd)
{
	int *grown = realloc(*fds, (*n + 1) * sizeof(**fds));

	if (!grown)
		return -ENOMEM;
	*fds = grown;
	(*fds)[(*n)++] = fd;
	return 0;
}

/* The addresses a named or literal host stands for, as a server binds them. */
static int resolve(const struct listen_address *a, struct addrinfo **ret, const char **ret_why)
{
	const struct addrinfo hints = {
	    .ai_family = a->family,
	    .ai_socktype = SOCK_STREAM,
	    .ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	};
	char port[8];
	int r;

	snprintf(port, sizeof(port), "%u", a->port);
	r = getaddrinfo(a->host, port, &hints, ret);
	if (r == 0)
		return 0;
	*ret_why = gai_strerror(r);
	return r == EAI_SYSTEM	 ? -errno
	       : r == EAI_MEMORY ? -ENOMEM
	       : r == EAI_AGAIN	 ? -EAGAIN
				 : -EADDRNOTAVAIL;
}

int listen_resolve(const struct listen_address *a, const char **ret_why)
{
	struct addrinfo *res = NULL;
	int r;

	*ret_why = NULL;
	if (!a->host)
		return 0;
	r = resolve(a, &res, ret_why);
	if (res)
		freeaddrinfo(res);
	return r;
}

int listen_open(const struct listen_address *a, int **fds, size_t *n_fds)
{
	struct addrinfo *res = NULL;
	size_t first = *n_fds;
	const char *why;
	int fd, r;

	if (!a->host) {
		fd = open_wildcard(a->port);
		if (fd < 0)
			return fd;
		r = append(fds, n_fds, fd);
		if (r < 0)
			close(fd);
		return r;
	}
	r = resolve(a, &res, &why);
	if (r < 0)
		return r;
	for (const struct addrinfo *ai = res; ai && r >= 0; ai = ai->ai_next) {
		fd = open_one(ai->ai_addr, ai->ai_addrlen, true);
		r = fd < 0 ? fd : append(fds, n_fds, fd);
		if (r < 0 && fd >= 0)
			close(fd);
	}
	freeaddrinfo(res);
	if (r < 0) {
		close_all(*fds + first, *n_fds - first);
		*n_fds = first;
	}
	return r;
}
