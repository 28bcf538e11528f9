/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The connection table (exporter/conntrack.c) over real sockets: a
 * connection leaves by shutdown(2), which its peer sees as the end, so each
 * case reads the peers to tell which connections were let go.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "exporter/conntrack.h"
#include "test.h"

#define SEC 1000000ull

struct pair {
	int ours, peer;
};

static struct pair pair(void)
{
	int sv[2];

	ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	return (struct pair){sv[0], sv[1]};
}

/* Whether our side was shut down: the peer reads the end. */
static bool let_go(struct pair p)
{
	char c;

	return recv(p.peer, &c, 1, MSG_DONTWAIT) == 0;
}

static void pair_close(struct pair p)
{
	close(p.ours);
	close(p.peer);
}

static struct sockaddr_in from(const char *ip)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};

	ASSERT_EQ(inet_pton(AF_INET, ip, &sa.sin_addr), 1);
	return sa;
}

static int admit(struct conntrack *t, struct pair p, const char *ip, uint64_t now)
{
	struct sockaddr_in sa = from(ip);

	return conntrack_admit(t, p.ours, (struct sockaddr *)&sa, sizeof(sa), NULL, now);
}

/*
 * One address holds at most per_address places: a new connection from it
 * takes the place of its own oldest waiting one, heads before idle ones,
 * never one with a request in progress; another address is not touched.
 */
TEST(an_address_makes_room_from_its_own_waiting_connections)
{
	const struct conntrack_limits limits = {
	    .total = 10, .per_address = 3, .head_usec = 10 * SEC, .idle_usec = 40 * SEC};
	struct pair a[5], other = pair();
	struct conntrack *t;
	struct conntrack_counts counts;

	ASSERT_EQ(conntrack_new(&limits, &t), 0);
	for (int i = 0; i < 5; i++)
		a[i] = pair();
	ASSERT_EQ(admit(t, other, "10.0.0.2", 0), 0);
	ASSERT_EQ(admit(t, a[0], "10.0.0.1", 1), 0);
	ASSERT_EQ(admit(t, a[1], "10.0.0.1", 2), 0);
	ASSERT_EQ(admit(t, a[2], "10.0.0.1", 3), 0);
	conntrack_set_state(t, a[0].ours, CONN_ACTIVE, 4); /* a request in progress */
	conntrack_set_state(t, a[1].ours, CONN_IDLE, 5);   /* kept alive after one */
	/* a[2] still sends its head: the first to go */
	ASSERT_EQ(admit(t, a[3], "10.0.0.1", 6), 0);
	ASSERT_TRUE(let_go(a[2]) && !let_go(a[0]) && !let_go(a[1]) && !let_go(other));
	conntrack_remove(t, a[2].ours);
	conntrack_set_state(t, a[3].ours, CONN_ACTIVE, 7);
	/* then the idle one */
	ASSERT_EQ(admit(t, a[4], "10.0.0.1", 8), 0);
	ASSERT_TRUE(let_go(a[1]) && !let_go(a[0]) && !let_go(a[3]));
	conntrack_remove(t, a[1].ours);
	conntrack_set_state(t, a[4].ours, CONN_ACTIVE, 9);
	/* every place of the address has a request in progress: refused, nobody let go */
	{
		struct pair more = pair();

		ASSERT_EQ(admit(t, more, "10.0.0.1", 10), -EBUSY);
		ASSERT_TRUE(!let_go(a[0]) && !let_go(a[3]) && !let_go(a[4]));
		pair_close(more);
	}
	conntrack_counts(t, &counts);
	ASSERT_EQ(counts.open, 4);
	ASSERT_EQ_U64(counts.admitted, 6);
	ASSERT_EQ_U64(counts.evicted, 2);
	ASSERT_EQ_U64(counts.refused, 1);
	conntrack_free(t);
	for (int i = 0; i < 5; i++)
		pair_close(a[i]);
	pair_close(other);
}

/* The total is kept the same way, across addresses, the oldest head first. */
TEST(a_full_table_makes_room_from_the_oldest_waiting_connection)
{
	const struct conntrack_limits limits = {
	    .total = 2, .per_address = 2, .head_usec = 10 * SEC, .idle_usec = 40 * SEC};
	struct pair x = pair(), y = pair(), z = pair();
	struct conntrack *t;

	ASSERT_EQ(conntrack_new(&limits, &t), 0);
	ASSERT_EQ(admit(t, x, "10.0.0.1", 1), 0);
	ASSERT_EQ(admit(t, y, "192.168.1.1", 2), 0);
	ASSERT_EQ(admit(t, z, "10.0.0.3", 3), 0);
	ASSERT_TRUE(let_go(x) && !let_go(y));
	conntrack_free(t);
	pair_close(x);
	pair_close(y);
	pair_close(z);
}

/*
 * A head is due head_usec after the accept and the next one idle_usec
 * after a response, whatever trickles in meanwhile; a request in progress
 * has no deadline here (libmicrohttpd's inactivity timeout has it).
 */
TEST(deadlines_are_not_extended_by_activity)
{
	const struct conntrack_limits limits = {
	    .total = 10, .per_address = 10, .head_usec = 10 * SEC, .idle_usec = 40 * SEC};
	struct pair head = pair(), idle = pair(), busy = pair();
	struct conntrack *t;

	ASSERT_EQ(conntrack_new(&limits, &t), 0);
	ASSERT_EQ(admit(t, head, "10.0.0.1", 0), 0);
	ASSERT_EQ(admit(t, idle, "10.0.0.1", 0), 0);
	ASSERT_EQ(admit(t, busy, "10.0.0.1", 0), 0);
	conntrack_set_state(t, idle.ours, CONN_IDLE, 5 * SEC);
	conntrack_set_state(t, busy.ours, CONN_ACTIVE, 5 * SEC);
	ASSERT_EQ_U64(conntrack_next_deadline(t), 10 * SEC);
	ASSERT_EQ(conntrack_expire(t, 10 * SEC - 1), 0);
	ASSERT_EQ(conntrack_expire(t, 10 * SEC), 1);
	ASSERT_TRUE(let_go(head) && !let_go(idle) && !let_go(busy));
	/* going: no longer due, nor a place, but still in the table until removed */
	ASSERT_EQ_U64(conntrack_next_deadline(t), 45 * SEC);
	ASSERT_EQ(conntrack_busy(t, NULL), 2);
	conntrack_remove(t, head.ours);
	ASSERT_EQ(conntrack_busy(t, NULL), 1);
	ASSERT_EQ(conntrack_expire(t, 45 * SEC), 1);
	ASSERT_TRUE(let_go(idle) && !let_go(busy));
	ASSERT_EQ(conntrack_expire(t, 1000 * SEC), 0);
	conntrack_remove(t, idle.ours);
	conntrack_remove(t, busy.ours);
	ASSERT_EQ_U64(conntrack_next_deadline(t), UINT64_MAX);
	conntrack_free(t);
	pair_close(head);
	pair_close(idle);
	pair_close(busy);
}
