/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The listening sockets and a thread that accepts on them, so that what
 * comes in is the server's to judge before libmicrohttpd serves it: each
 * connection is admitted by the connection table (conntrack.h), and a
 * plain-HTTP one is held until its request head is whole and well framed
 * (reqhead.h), answered at once if it is not and 408 if it does not come
 * in time. Then it goes to the owner the server names, which libmicrohttpd
 * serves; TLS connections go at once, their heads are only readable there.
 *
 * Listening sockets are the acceptor's, never libmicrohttpd's: a reload
 * that keeps an address keeps its socket, a socket from systemd is never
 * shut down for the next activation, and nothing waits on the old
 * daemons' teardown to accept again.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "exporter/conntrack.h"

struct acceptor_ops {
	/* Hands fd (its head whole, or TLS) to owner, which closes it in any case; -errno. */
	int (*handoff)(void *userdata, void *owner, int fd, const struct sockaddr *addr,
		       socklen_t addr_len);
	/* An answer of the acceptor's own, by status: for the counters. */
	void (*answered)(void *userdata, unsigned status);
	/* The owner side's housekeeping, each round: returns when it wants the next. */
	uint64_t (*tick)(void *userdata, uint64_t now_usec);
};

struct acceptor;

/* Starts the thread; ops and userdata and the table must outlive it. */
int acceptor_new(struct conntrack *conns, uint64_t head_usec, const struct acceptor_ops *ops,
		 void *userdata, struct acceptor **ret);
/*
 * From now on accepts on fds (listening sockets, which it takes) for owner,
 * whose connections are TLS (no head to read) or not: the sockets it had
 * and fds does not list are closed, after what waits in their backlog is
 * taken for their owner, and those it lists again kept, now for owner.
 * Returns once the thread has taken them, all at once.
 */
int acceptor_set_sockets(struct acceptor *a, const int *fds, size_t n, void *owner, bool tls);
/* Has the thread run its housekeeping now (the owner side changed). */
void acceptor_wake(struct acceptor *a);
/* Stops the thread; closes the listening sockets and the connections it holds. */
void acceptor_free(struct acceptor *a);
