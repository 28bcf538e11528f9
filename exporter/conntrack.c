/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The table is indexed by descriptor, which the kernel keeps small: one
 * slot per number up to the largest seen. A server holds a few hundred
 * connections at most, so choosing who gives way scans them all.
 */
#include <assert.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "exporter/conntrack.h"

struct conn {
	bool used;
	bool going;	     /* shut down already: no longer holds a place */
	uint8_t state;	     /* enum conn_state */
	uint8_t address[16]; /* the client's; IPv4 as IPv4-mapped IPv6 */
	uint64_t since;	     /* when its state began */
	void *owner;
};

struct conntrack {
	struct conntrack_limits limits;
	pthread_mutex_t lock;
	struct conn *slots; /* by fd */
	size_t n_slots;
	unsigned live; /* used and not going */
	struct conntrack_counts counts;
};

int conntrack_new(const struct conntrack_limits *limits, struct conntrack **ret)
{
	struct conntrack *t;

	assert(limits->total > 0 && limits->per_address > 0);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->limits = *limits;
	pthread_mutex_init(&t->lock, NULL);
	*ret = t;
	return 0;
}

void conntrack_free(struct conntrack *t)
{
	if (!t)
		return;
	pthread_mutex_destroy(&t->lock);
	free(t->slots);
	free(t);
}

static void address_of(const struct sockaddr *sa, socklen_t len, uint8_t out[16])
{
	memset(out, 0, 16);
	if (sa && sa->sa_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		out[10] = out[11] = 0xff;
		memcpy(out + 12, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, 4);
	} else if (sa && sa->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6))
		memcpy(out, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, 16);
}

static bool holds_place(const struct conn *c)
{
	return c->used && !c->going;
}

/* When c's wait is over: a request in progress has none. */
static uint64_t deadline(const struct conntrack *t, const struct conn *c)
{
	if (!holds_place(c) || c->state == CONN_ACTIVE)
		return UINT64_MAX;
	return c->since + (c->state == CONN_HEAD ? t->limits.head_usec : t->limits.idle_usec);
}

/*
 * Who gives way, among the connections from address (all with NULL): the
 * oldest whose request head is still coming, else the oldest kept alive
 * between requests; -1 when every one has a request in progress.
 */
static int who_gives_way(const struct conntrack *t, const uint8_t *address)
{
	int best = -1;

	for (size_t fd = 0; fd < t->n_slots; fd++) {
		const struct conn *c = &t->slots[fd], *b = best >= 0 ? &t->slots[best] : NULL;
		bool head = c->state == CONN_HEAD;

		if (!holds_place(c) || c->state == CONN_ACTIVE ||
		    (address && memcmp(c->address, address, 16) != 0))
			continue;
		if (!b || head > (b->state == CONN_HEAD) ||
		    (head == (b->state == CONN_HEAD) && c->since < b->since))
			best = (int)fd;
	}
	return best;
}

/* Under the lock, so that fd is still the connection the slot describes. */
static void let_go(struct conntrack *t, int fd)
{
	t->slots[fd].going = true;
	t->live--;
	(void)shutdown(fd, SHUT_RDWR);
}

static unsigned from_address(const struct conntrack *t, const uint8_t *address)
{
	unsigned n = 0;

	for (size_t fd = 0; fd < t->n_slots; fd++)
		n += holds_place(&t->slots[fd]) && memcmp(t->slots[fd].address, address, 16) == 0;
	return n;
}

int conntrack_admit(struct conntrack *t, int fd, const struct sockaddr *addr, socklen_t addr_len,
		    void *owner, uint64_t now_usec)
{
	uint8_t address[16];
	int give_way = -1, r = 0;

	assert(fd >= 0);
	address_of(addr, addr_len, address);
	pthread_mutex_lock(&t->lock);
	if ((size_t)fd >= t->n_slots) {
		size_t before = t->n_slots;

		if (array_grow((void **)&t->slots, &t->n_slots, (size_t)fd + 1, sizeof(*t->slots),
			       64) < 0) {
			r = -ENOMEM;
			goto out;
		}
		memset(t->slots + before, 0, (t->n_slots - before) * sizeof(*t->slots));
	}
	assert(!t->slots[fd].used);
	/* the address's own places first, so that one client makes room from its own */
	if (from_address(t, address) >= t->limits.per_address)
		give_way = who_gives_way(t, address);
	else if (t->live >= t->limits.total)
		give_way = who_gives_way(t, NULL);
	else
		give_way = INT32_MAX; /* none needed */
	if (give_way < 0) {
		t->counts.refused++;
		r = -EBUSY;
		goto out;
	}
	if (give_way != INT32_MAX) {
		let_go(t, give_way);
		t->counts.evicted++;
	}
	t->slots[fd] =
	    (struct conn){.used = true, .state = CONN_HEAD, .since = now_usec, .owner = owner};
	memcpy(t->slots[fd].address, address, 16);
	t->live++;
	t->counts.admitted++;
out:
	pthread_mutex_unlock(&t->lock);
	return r;
}

void conntrack_set_state(struct conntrack *t, int fd, enum conn_state state, uint64_t now_usec)
{
	pthread_mutex_lock(&t->lock);
	if (fd >= 0 && (size_t)fd < t->n_slots && t->slots[fd].used) {
		t->slots[fd].state = (uint8_t)state;
		t->slots[fd].since = now_usec;
	}
	pthread_mutex_unlock(&t->lock);
}

void conntrack_remove(struct conntrack *t, int fd)
{
	pthread_mutex_lock(&t->lock);
	if (fd >= 0 && (size_t)fd < t->n_slots && t->slots[fd].used) {
		if (!t->slots[fd].going)
			t->live--;
		t->slots[fd] = (struct conn){0};
	}
	pthread_mutex_unlock(&t->lock);
}

unsigned conntrack_expire(struct conntrack *t, uint64_t now_usec)
{
	unsigned n = 0;

	pthread_mutex_lock(&t->lock);
	for (size_t fd = 0; fd < t->n_slots; fd++)
		if (deadline(t, &t->slots[fd]) <= now_usec) {
			let_go(t, (int)fd);
			n++;
		}
	t->counts.expired += n;
	pthread_mutex_unlock(&t->lock);
	return n;
}

uint64_t conntrack_next_deadline(struct conntrack *t)
{
	uint64_t next = UINT64_MAX;

	pthread_mutex_lock(&t->lock);
	for (size_t fd = 0; fd < t->n_slots; fd++) {
		uint64_t d = deadline(t, &t->slots[fd]);

		if (d < next)
			next = d;
	}
	pthread_mutex_unlock(&t->lock);
	return next;
}

unsigned conntrack_busy(struct conntrack *t, const void *owner)
{
	unsigned n = 0;

	pthread_mutex_lock(&t->lock);
	for (size_t fd = 0; fd < t->n_slots; fd++)
		n += t->slots[fd].used && t->slots[fd].owner == owner &&
		     t->slots[fd].state != CONN_IDLE;
	pthread_mutex_unlock(&t->lock);
	return n;
}

void conntrack_counts(struct conntrack *t, struct conntrack_counts *ret)
{
	pthread_mutex_lock(&t->lock);
	*ret = t->counts;
	ret->open = t->live;
	pthread_mutex_unlock(&t->lock);
}
