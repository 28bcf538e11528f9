/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cache behind containers.h: per socket, the last list the runtime
 * returned, sorted by ID. The thread asks every socket once a minute,
 * which also forgets removed containers, and sooner, at most once a
 * second, when a collection met a container ID no list has: one created
 * since. An ID is worth that once: one no runtime listed when asked, such
 * as a containerd container on a host whose Docker is asked, waits for
 * the minute, so it does not have the runtimes asked every second. A
 * socket that fails keeps its last list, and its failure is reported when
 * it starts and when it ends, not at every attempt.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/strv.h"
#include "base/util.h"
#include "collector/runtime/containers.h"
#include "collector/runtime/dockerapi.h"
#include "model/identity.h"

#define REFRESH_PERIOD_USEC (60 * USEC_PER_SEC)
#define REFRESH_GAP_USEC    USEC_PER_SEC

struct source {
	char *socket;
	struct runtime_container *list; /* sorted by id; under lock */
	size_t n;
	int error; /* of the last attempt, 0 after a success; the thread's */
	bool up;   /* its last attempt gave a list; under lock, for collections */
};

/* Container IDs, as the cgroup paths spell them. */
struct id_list {
	char (*v)[DOCKERAPI_ID_LEN + 1];
	size_t n, cap;
};

struct containers {
	containers_report_fn report;
	void *userdata;
	uint64_t timeout_usec;
	struct source *sources;
	size_t n_sources;
	pthread_mutex_t lock;
	pthread_cond_t wake;	 /* on the monotonic clock */
	pthread_cond_t answered; /* asked_once became true */
	/* Under lock: unknown IDs met since the last ask, and those asked about (sorted). */
	struct id_list pending, asked;
	bool stopping;	 /* under lock */
	bool asked_once; /* under lock: every socket answered or failed once */
	pthread_t thread;
};

static int by_id(const void *a, const void *b)
{
	return strcmp(((const struct runtime_container *)a)->id,
		      ((const struct runtime_container *)b)->id);
}

static int id_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static bool id_in(const struct id_list *l, const char *id, bool sorted)
{
	if (sorted)
		return l->n > 0 && bsearch(id, l->v, l->n, sizeof(*l->v), id_cmp);
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], id) == 0)
			return true;
	return false;
}

static int id_add(struct id_list *l, const char *id)
{
	if (array_grow((void **)&l->v, &l->cap, l->n + 1, sizeof(*l->v), 16) < 0)
		return -ENOMEM;
	memcpy(l->v[l->n++], id, sizeof(*l->v));
	return 0;
}

/*
 * Before an ask, under lock: the pending IDs become asked ones; a full
 * refresh starts them afresh. Out of memory, an ID stays pending, to be
 * asked about again.
 */
static void take_pending(struct containers *c, bool full)
{
	size_t kept = 0;

	if (full)
		c->asked.n = 0;
	for (size_t i = 0; i < c->pending.n; i++)
		if (id_add(&c->asked, c->pending.v[i]) < 0)
			memcpy(c->pending.v[kept++], c->pending.v[i], sizeof(*c->pending.v));
	c->pending.n = kept;
	if (c->asked.n > 0)
		qsort(c->asked.v, c->asked.n, sizeof(*c->asked.v), id_cmp);
}

static void report_change(struct containers *c, struct source *src, int r, size_t n)
{
	if ((r < 0 && r != src->error) || (r >= 0 && src->error))
		c->report(c->userdata, src->socket, r < 0 ? r : 0, n);
	src->error = r < 0 ? r : 0;
}

static void refresh(struct containers *c)
{
	for (size_t i = 0; i < c->n_sources; i++) {
		struct source *src = &c->sources[i];
		struct runtime_container *list = NULL;
		size_t n = 0;
		int r;

		r = dockerapi_list(src->socket, c->timeout_usec, &list, &n);
		report_change(c, src, r, n);
		if (r >= 0)
			qsort(list, n, sizeof(*list), by_id);
		pthread_mutex_lock(&c->lock);
		src->up = r >= 0;
		if (r >= 0) { /* the new list in, the old one out; a failing runtime's stays */
			struct runtime_container *old = src->list;
			size_t n_old = src->n;

			src->list = list;
			src->n = n;
			list = old;
			n = n_old;
		}
		pthread_mutex_unlock(&c->lock);
		runtime_containers_free(list, n);
	}
}

static void *run(void *userdata)
{
	struct containers *c = userdata;
	uint64_t last = 0;
	bool first = true;

	pthread_mutex_lock(&c->lock);
	while (!c->stopping) {
		uint64_t due = last + (c->pending.n ? REFRESH_GAP_USEC : REFRESH_PERIOD_USEC);
		uint64_t now = now_usec();

		if (!first && now < due) {
			struct timespec ts = {.tv_sec = (time_t)(due / USEC_PER_SEC),
					      .tv_nsec =
						  (long)(due % USEC_PER_SEC * NSEC_PER_USEC)};

			pthread_cond_timedwait(&c->wake, &c->lock, &ts);
			continue;
		}
		take_pending(c, first || now >= last + REFRESH_PERIOD_USEC);
		first = false;
		pthread_mutex_unlock(&c->lock);
		refresh(c);
		last = now_usec();
		pthread_mutex_lock(&c->lock);
		c->asked_once = true;
		pthread_cond_broadcast(&c->answered);
	}
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

static void sources_free(struct containers *c)
{
	for (size_t i = 0; i < c->n_sources; i++) {
		free(c->sources[i].socket);
		runtime_containers_free(c->sources[i].list, c->sources[i].n);
	}
	free(c->sources);
	free(c->pending.v);
	free(c->asked.v);
}

int containers_new(char *const *sockets, uint64_t timeout_usec, containers_report_fn report,
		   void *userdata, struct containers **ret)
{
	struct containers *c = calloc(1, sizeof(*c));
	pthread_condattr_t attr;
	size_t n = strv_length(sockets);
	int r;

	if (!c)
		return -ENOMEM;
	c->report = report;
	c->userdata = userdata;
	c->timeout_usec = timeout_usec;
	c->sources = calloc(n, sizeof(*c->sources));
	for (size_t i = 0; c->sources && i < n; i++, c->n_sources++)
		if (!(c->sources[i].socket = strdup(sockets[i])))
			break;
	if (!c->sources || c->n_sources < n) {
		r = -ENOMEM;
		goto fail;
	}
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&c->wake, &attr);
	pthread_condattr_destroy(&attr);
	pthread_cond_init(&c->answered, NULL);
	r = -pthread_create(&c->thread, NULL, run, c);
	if (r < 0) {
		pthread_cond_destroy(&c->answered);
		pthread_cond_destroy(&c->wake);
		pthread_mutex_destroy(&c->lock);
		goto fail;
	}
	*ret = c;
	return 0;
fail:
	sources_free(c);
	free(c);
	return r;
}

void containers_free(struct containers *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&c->lock);
	c->stopping = true;
	pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->lock);
	pthread_join(c->thread, NULL);
	pthread_cond_destroy(&c->answered);
	pthread_cond_destroy(&c->wake);
	pthread_mutex_destroy(&c->lock);
	sources_free(c);
	free(c);
}

void containers_wait_first(struct containers *c)
{
	pthread_mutex_lock(&c->lock);
	while (!c->asked_once)
		pthread_cond_wait(&c->answered, &c->lock);
	pthread_mutex_unlock(&c->lock);
}

bool containers_same(const struct containers *c, char *const *sockets, uint64_t timeout_usec)
{
	if (c->timeout_usec != timeout_usec || strv_length(sockets) != c->n_sources)
		return false;
	for (size_t i = 0; i < c->n_sources; i++)
		if (strcmp(c->sources[i].socket, sockets[i]) != 0)
			return false;
	return true;
}

/* The container with this ID in any source's list; under lock. */
static const struct runtime_container *lookup(const struct containers *c, const char *id)
{
	struct runtime_container key;

	memcpy(key.id, id, sizeof(key.id));
	for (size_t i = 0; i < c->n_sources; i++) {
		const struct runtime_container *hit;

		if (c->sources[i].n == 0) /* and list NULL: no answer yet */
			continue;
		hit = bsearch(&key, c->sources[i].list, c->sources[i].n, sizeof(key), by_id);
		if (hit)
			return hit;
	}
	return NULL;
}

/*
 * The runtime's entry for record r's container. An ID in no list that
 * has not been asked about yet is noted for the thread, and *ret_wake set.
 */
static const struct runtime_container *
record_container(struct containers *c, const struct cgroup_record *r, bool *ret_wake)
{
	char value[IDENTITY_VALUE_MAX + 1];
	const struct runtime_container *hit;

	if (r->identity.container_id.len != DOCKERAPI_ID_LEN)
		return NULL;
	identity_value(r->path, &r->identity.container_id, value);
	hit = lookup(c, value);
	if (!hit && !id_in(&c->asked, value, true) && !id_in(&c->pending, value, false) &&
	    id_add(&c->pending, value) >= 0)
		*ret_wake = true;
	return hit;
}

/* Each socket's last answer, for the self-metrics; under lock. */
static int runtimes_status(const struct containers *c, struct snapshot *s)
{
	s->runtimes = calloc(c->n_sources, sizeof(*s->runtimes));
	if (!s->runtimes)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_sources; i++, s->n_runtimes++) {
		s->runtimes[i] = (struct runtime_status){.socket = strdup(c->sources[i].socket),
							 .up = c->sources[i].up,
							 .containers = c->sources[i].n};
		if (!s->runtimes[i].socket)
			return -ENOMEM;
	}
	return 0;
}

int containers_annotate(struct containers *c, struct snapshot *s)
{
	const struct runtime_container **hits;
	bool wake = false;
	size_t n = 0;
	int r = 0;

	assert(!s->finalized);
	hits = calloc(s->n_records ? s->n_records : 1, sizeof(*hits));
	if (!hits)
		return -ENOMEM;
	pthread_mutex_lock(&c->lock);
	for (size_t i = 0; i < s->n_records; i++) {
		hits[i] = record_container(c, &s->records[i], &wake);
		n += hits[i] != NULL;
	}
	s->containers = calloc(n ? n : 1, sizeof(*s->containers));
	for (size_t i = 0; s->containers && i < s->n_records; i++) {
		struct container_names *names = &s->containers[s->n_containers];

		if (!hits[i])
			continue;
		names->name = strdup(hits[i]->name);
		names->image = strdup(hits[i]->image);
		s->n_containers++;
		if (!names->name || !names->image) {
			r = -ENOMEM;
			break;
		}
		s->records[i].container = names;
		if (hits[i]->created && record_add(&s->records[i], METRIC_CONTAINER_CREATED, NULL,
						   hits[i]->created) < 0) {
			r = -ENOMEM;
			break;
		}
	}
	if (!s->containers)
		r = -ENOMEM;
	if (r >= 0)
		r = runtimes_status(c, s);
	if (wake)
		pthread_cond_signal(&c->wake);
	pthread_mutex_unlock(&c->lock);
	free(hits);
	return r;
}
