/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One thread polls the listening sockets, the connections whose heads it
 * holds and an eventfd that wakes it when the sockets or the owner side
 * change. A head is looked at with MSG_PEEK, which leaves it in the socket
 * for libmicrohttpd to read as if nobody had; the look is repeated only
 * when more has come, and a head that comes in too many pieces is refused
 * rather than looked at without end.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/util.h"
#include "exporter/acceptor.h"
#include "exporter/handshakes.h"
#include "exporter/reqhead.h"

/* Looks at one head at most this many times: a client sends its head in a piece or two. */
#define HEAD_LOOKS_MAX 64
/* Connections taken from one listening socket per round, so that none starves the others. */
#define ACCEPTS_PER_ROUND 64
/* How long a socket rests after accept() ran out of descriptors, so as not to spin. */
#define ACCEPT_BACKOFF_USEC (100 * USEC_PER_MSEC)
/*
 * A dropped socket waits for its handshakes under way at most this long,
 * looking again this often; where the kernel cannot say how many there
 * are, until none has completed for this long.
 */
#define CLOSE_WAIT_MAX_MSEC 200
#define CLOSE_STEP_MSEC	    1
#define CLOSE_QUIET_MSEC    20

struct head {
	int fd;
	void *owner;
	struct sockaddr_storage addr;
	socklen_t addr_len;
	uint64_t accepted;
	size_t seen; /* bytes the last look found */
	unsigned looks;
};

struct listener {
	int fd;
	void *owner; /* whose its connections are */
	bool tls;
	uint64_t resting_until; /* after EMFILE */
};

struct acceptor {
	struct conntrack *conns;
	uint64_t head_usec;
	const struct acceptor_ops *ops;
	void *userdata;
	int wake_fd;
	pthread_t thread;

	pthread_mutex_t lock; /* guards the five below */
	pthread_cond_t taken; /* next_fds became NULL */
	int *next_fds;	      /* the sockets to take, NULL: no change */
	size_t n_next;
	void *next_owner;
	bool next_tls;
	bool stopping;

	/* the thread's own */
	struct listener *listeners;
	size_t n_listeners;
	struct head *heads;
	size_t n_heads, cap_heads;
	char buf[REQHEAD_MAX];
};

static void drop(struct acceptor *a, size_t i)
{
	conntrack_remove(a->conns, a->heads[i].fd);
	close(a->heads[i].fd);
	a->heads[i] = a->heads[--a->n_heads];
}

/*
 * Answers a head with status and closes its connection. What the client
 * sent is read first: closing with unread data would reset the connection
 * and could take the answer with it.
 */
static void refuse(struct acceptor *a, size_t i, unsigned status, const char *why)
{
	char text[512];
	int n, fd = a->heads[i].fd;

	while (recv(fd, a->buf, sizeof(a->buf), MSG_DONTWAIT) > 0)
		;
	n = snprintf(text, sizeof(text),
		     "HTTP/1.1 %s\r\nContent-Type: text/plain; charset=utf-8\r\n"
		     "Content-Length: %zu\r\nConnection: close\r\n\r\n%s\n",
		     reqhead_reason(status), strlen(why) + 1, why);
	/* counted first, so that whoever reads the answer finds it counted */
	if (a->ops->answered)
		a->ops->answered(a->userdata, status);
	if (n > 0 && (size_t)n < sizeof(text))
		(void)send(fd, text, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
	(void)shutdown(fd, SHUT_WR);
	drop(a, i);
}

static void handoff(struct acceptor *a, void *owner, int fd, const struct sockaddr *addr,
		    socklen_t len)
{
	/* the owner closed fd if it failed: forget it, no other thread reuses a number meanwhile */
	if (a->ops->handoff(a->userdata, owner, fd, addr, len) < 0)
		conntrack_remove(a->conns, fd);
}

/* Looks at head i again; false if it is gone (answered, handed off or closed). */
static bool look(struct acceptor *a, size_t i)
{
	struct head *h = &a->heads[i];
	const char *why;
	ssize_t n;
	long r;

	n = recv(h->fd, a->buf, sizeof(a->buf), MSG_PEEK | MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return true;
	if (n <= 0) { /* closed, or an error: nobody to answer */
		drop(a, i);
		return false;
	}
	if ((size_t)n == h->seen)
		return true;
	h->seen = (size_t)n;
	r = reqhead_check(a->buf, (size_t)n, &why);
	if (r == 0 && ++h->looks <= HEAD_LOOKS_MAX)
		return true;
	if (r == 0) {
		refuse(a, i, 400, "request head sent in too many pieces");
		return false;
	}
	if (r < 0) {
		refuse(a, i, (unsigned)-r, why);
		return false;
	}
	{
		struct head taken = *h;

		a->heads[i] = a->heads[--a->n_heads];
		handoff(a, taken.owner, taken.fd, (const struct sockaddr *)&taken.addr,
			taken.addr_len);
	}
	return false;
}

static void take(struct acceptor *a, const struct listener *l, int fd,
		 const struct sockaddr_storage *addr, socklen_t len, uint64_t now)
{
	void *owner = l->owner;
	bool tls = l->tls;

	if (conntrack_admit(a->conns, fd, (const struct sockaddr *)addr, len, owner, now) < 0) {
		close(fd);
		return;
	}
	if (tls) {
		handoff(a, owner, fd, (const struct sockaddr *)addr, len);
		return;
	}
	if (array_grow((void **)&a->heads, &a->cap_heads, a->n_heads + 1, sizeof(*a->heads), 16) <
	    0) {
		conntrack_remove(a->conns, fd);
		close(fd);
		return;
	}
	a->heads[a->n_heads++] = (struct head){
	    .fd = fd, .owner = owner, .addr = *addr, .addr_len = len, .accepted = now};
}

/* Takes up to max connections waiting on l; whether it took all there were. */
static bool accept_some(struct acceptor *a, struct listener *l, unsigned max, uint64_t now)
{
	for (unsigned i = 0; i < max; i++) {
		struct sockaddr_storage addr;
		socklen_t len = sizeof(addr);
		int fd =
		    accept4(l->fd, (struct sockaddr *)&addr, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM)
				l->resting_until = now + ACCEPT_BACKOFF_USEC;
			return errno != EINTR && errno != ECONNABORTED;
		}
		take(a, l, fd, &addr, len, now);
	}
	return false;
}

/*
 * Closes a socket a reload drops. Closing resets the connections in its
 * backlog, which their clients count as made, so those are taken first;
 * and so that none completes between the last accept() and close(), a
 * filter first drops the handshakes that would start: a SYN without ACK
 * (a socket filter on TCP sees the segment from its TCP header, whose
 * flags are byte 13). Their clients try again a second later and find the
 * port closed. The handshakes the filter came too late for still
 * complete, moments later: the socket closes once the kernel has none
 * under way, or none has completed for a quiet spell where it cannot
 * tell. Either wait is bounded: a SYN flood or a backlog that accept()
 * cannot take for want of descriptors never ends. Every moment the filter
 * is on drops SYNs, so the wait is no longer than it must be.
 */
static void close_listener(struct acceptor *a, struct listener *l)
{
	static struct sock_filter no_syn[] = {
	    BPF_STMT(BPF_LD | BPF_B | BPF_ABS, 13),
	    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, TH_ACK, 1, 0),
	    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, TH_SYN, 1, 0),
	    BPF_STMT(BPF_RET | BPF_K, UINT32_MAX),
	    BPF_STMT(BPF_RET | BPF_K, 0),
	};
	const struct sock_fprog prog = {.len = ELEMENTSOF(no_syn), .filter = no_syn};
	const uint64_t until = now_usec() + CLOSE_WAIT_MAX_MSEC * USEC_PER_MSEC;
	struct pollfd pfd = {.fd = l->fd, .events = POLLIN};

	(void)setsockopt(l->fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
	for (;;) {
		/* asked first: what completed before the answer is in the backlog now */
		int pending = handshakes_pending(l->fd);

		while (!accept_some(a, l, ACCEPTS_PER_ROUND, now_usec()))
			;
		if (pending == 0 || now_usec() >= until)
			break;
		if (poll(&pfd, 1, pending > 0 ? CLOSE_STEP_MSEC : CLOSE_QUIET_MSEC) == 0 &&
		    pending < 0)
			break;
	}
	close(l->fd);
}

/* Takes the sockets acceptor_set_sockets() left, closing the ones it drops; whether to stop. */
static bool take_sockets(struct acceptor *a)
{
	struct listener *next = NULL;
	bool stopping;

	pthread_mutex_lock(&a->lock);
	stopping = a->stopping;
	if (!a->next_fds)
		goto out;
	next = calloc(a->n_next ? a->n_next : 1, sizeof(*next));
	if (!next) /* keep serving the sockets it has: try again next round */
		goto out;
	for (size_t i = 0; i < a->n_next; i++) {
		int fd = a->next_fds[i];

		next[i] = (struct listener){.fd = fd, .owner = a->next_owner, .tls = a->next_tls};
		/* accept_some() takes until there is nothing left, not until it blocks */
		(void)fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	}
	for (size_t j = 0; j < a->n_listeners; j++) {
		bool kept = false;

		for (size_t i = 0; i < a->n_next; i++)
			kept = kept || a->next_fds[i] == a->listeners[j].fd;
		if (!kept)
			close_listener(a, &a->listeners[j]);
	}
	free(a->listeners);
	a->listeners = next;
	a->n_listeners = a->n_next;
	free(a->next_fds);
	a->next_fds = NULL;
	pthread_cond_broadcast(&a->taken);
out:
	pthread_mutex_unlock(&a->lock);
	return stopping;
}

/* Answers 408 to the heads whose time is up; the earliest deadline of the others. */
static uint64_t time_heads(struct acceptor *a, uint64_t now)
{
	uint64_t next = UINT64_MAX;

	for (size_t i = 0; i < a->n_heads;) {
		uint64_t due = a->heads[i].accepted + a->head_usec;

		if (due <= now) {
			refuse(a, i, 408, "request head not complete in time");
			continue;
		}
		if (due < next)
			next = due;
		i++;
	}
	return next;
}

static int poll_timeout(uint64_t next, uint64_t now)
{
	if (next == UINT64_MAX)
		return -1;
	if (next <= now)
		return 0;
	return (int)((next - now + USEC_PER_MSEC - 1) / USEC_PER_MSEC);
}

static void *run(void *userdata)
{
	struct acceptor *a = userdata;
	struct pollfd *pfds = NULL;
	size_t cap = 0;

	while (!take_sockets(a)) {
		uint64_t now = now_usec(), next, t;
		size_t n = 1, first_head;
		int r;

		next = time_heads(a, now);
		conntrack_expire(a->conns, now);
		t = conntrack_next_deadline(a->conns);
		next = t < next ? t : next;
		t = a->ops->tick(a->userdata, now);
		next = t < next ? t : next;
		if (array_grow((void **)&pfds, &cap, 1 + a->n_listeners + a->n_heads, sizeof(*pfds),
			       16) < 0) {
			usleep(10000);
			continue;
		}
		pfds[0] = (struct pollfd){.fd = a->wake_fd, .events = POLLIN};
		for (size_t i = 0; i < a->n_listeners; i++) {
			bool resting = a->listeners[i].resting_until > now;

			pfds[n++] = (struct pollfd){.fd = resting ? -1 : a->listeners[i].fd,
						    .events = POLLIN};
			if (resting && a->listeners[i].resting_until < next)
				next = a->listeners[i].resting_until;
		}
		first_head = n;
		for (size_t i = 0; i < a->n_heads; i++)
			pfds[n++] = (struct pollfd){.fd = a->heads[i].fd, .events = POLLIN};
		r = poll(pfds, n, poll_timeout(next, now));
		if (r <= 0)
			continue;
		if (pfds[0].revents) {
			uint64_t v;

			(void)!read(a->wake_fd, &v, sizeof(v));
		}
		now = now_usec();
		/* heads first: the new ones the listeners add do not have a poll result */
		for (size_t k = n; k-- > first_head;) {
			size_t i = k - first_head;

			if (pfds[k].revents && i < a->n_heads && a->heads[i].fd == pfds[k].fd)
				(void)look(a, i);
		}
		for (size_t i = 0; i < a->n_listeners; i++)
			if (pfds[1 + i].revents & POLLIN)
				(void)accept_some(a, &a->listeners[i], ACCEPTS_PER_ROUND, now);
	}
	free(pfds);
	return NULL;
}

int acceptor_new(struct conntrack *conns, uint64_t head_usec, const struct acceptor_ops *ops,
		 void *userdata, struct acceptor **ret)
{
	struct acceptor *a = calloc(1, sizeof(*a));
	int r;

	if (!a)
		return -ENOMEM;
	*a = (struct acceptor){
	    .conns = conns, .head_usec = head_usec, .ops = ops, .userdata = userdata};
	a->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (a->wake_fd < 0) {
		r = -errno;
		free(a);
		return r;
	}
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->taken, NULL);
	r = -pthread_create(&a->thread, NULL, run, a);
	if (r < 0) {
		pthread_cond_destroy(&a->taken);
		pthread_mutex_destroy(&a->lock);
		close(a->wake_fd);
		free(a);
		return r;
	}
	*ret = a;
	return 0;
}

void acceptor_wake(struct acceptor *a)
{
	uint64_t one = 1;

	(void)!write(a->wake_fd, &one, sizeof(one));
}

int acceptor_set_sockets(struct acceptor *a, const int *fds, size_t n, void *owner, bool tls)
{
	int *copy = malloc((n ? n : 1) * sizeof(*copy));

	if (!copy)
		return -ENOMEM;
	memcpy(copy, fds, n * sizeof(*copy));
	pthread_mutex_lock(&a->lock);
	/* one set at a time: a caller waits for the one before to be taken */
	while (a->next_fds && !a->stopping)
		pthread_cond_wait(&a->taken, &a->lock);
	a->next_fds = copy;
	a->n_next = n;
	a->next_owner = owner;
	a->next_tls = tls;
	acceptor_wake(a);
	while (a->next_fds == copy && !a->stopping)
		pthread_cond_wait(&a->taken, &a->lock);
	pthread_mutex_unlock(&a->lock);
	return 0;
}

void acceptor_free(struct acceptor *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stopping = true;
	pthread_cond_broadcast(&a->taken);
	pthread_mutex_unlock(&a->lock);
	acceptor_wake(a);
	pthread_join(a->thread, NULL);
	while (a->n_heads > 0)
		drop(a, a->n_heads - 1);
	for (size_t i = 0; i < a->n_listeners; i++)
		close(a->listeners[i].fd);
	if (a->next_fds)
		for (size_t i = 0; i < a->n_next; i++)
			close(a->next_fds[i]);
	free(a->next_fds);
	free(a->listeners);
	free(a->heads);
	pthread_cond_destroy(&a->taken);
	pthread_mutex_destroy(&a->lock);
	close(a->wake_fd);
	free(a);
}
