/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The HTTP server's own accounting of its connections, where
 * libmicrohttpd's options do not reach: MHD's timeout is on inactivity,
 * which a client sending a byte every few seconds resets forever, and its
 * connection limit lets such clients fill every place while Prometheus
 * waits unaccepted. Here every connection has a deadline that no byte
 * extends, for its request head after it was accepted and for its next
 * one after a response; one client address holds at most so many places;
 * and a new connection always gets one while some connection only waits
 * (the oldest that has no request in progress gives way). Only one whose
 * every connection has a request in progress is refused.
 *
 * A connection leaves by shutdown(2), never close(2): its descriptor
 * belongs to whoever serves it, which closes it once it sees the end, after
 * conntrack_remove(). The table's lock is held for both, so a number
 * reused by a new connection is never shut down in its predecessor's name.
 */
#pragma once

#include <stdint.h>
#include <sys/socket.h>

enum conn_state {
	CONN_HEAD,   /* accepted; its request head not complete yet */
	CONN_ACTIVE, /* a request in progress */
	CONN_IDLE,   /* kept alive after a response, its next request head not complete */
};

struct conntrack_limits {
	unsigned total;	      /* connections at most */
	unsigned per_address; /* from one client address at most */
	uint64_t head_usec;   /* a request head complete within this of the accept */
	uint64_t idle_usec;   /* the next one within this of the response before */
};

/* What the table did, for the self-metrics. */
struct conntrack_counts {
	uint64_t admitted, refused, evicted, expired;
	unsigned open;
};

struct conntrack;

int conntrack_new(const struct conntrack_limits *limits, struct conntrack **ret);
void conntrack_free(struct conntrack *t);

/*
 * Takes fd, just accepted from addr, in CONN_HEAD for owner: 0, after
 * shutting down a waiting connection where a place had to be made; -EBUSY
 * when every connection there has a request in progress (fd is not taken:
 * close it).
 */
int conntrack_admit(struct conntrack *t, int fd, const struct sockaddr *addr, socklen_t addr_len,
		    void *owner, uint64_t now_usec);
/* Moves fd to state as of now; nothing if fd is not in the table. */
void conntrack_set_state(struct conntrack *t, int fd, enum conn_state state, uint64_t now_usec);
/* Forgets fd, before whoever serves it closes it. */
void conntrack_remove(struct conntrack *t, int fd);
/* Shuts down every connection past its deadline; returns how many. */
unsigned conntrack_expire(struct conntrack *t, uint64_t now_usec);
/* The earliest deadline in the table, UINT64_MAX if none. */
uint64_t conntrack_next_deadline(struct conntrack *t);
/* How many of owner's connections have a request head or a request in progress. */
unsigned conntrack_busy(struct conntrack *t, const void *owner);
void conntrack_counts(struct conntrack *t, struct conntrack_counts *ret);
