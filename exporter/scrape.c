/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The single-flight cache. One mutex guards the state; the collection
 * itself runs unlocked in the thread of the scrape that started it, and
 * every scrape waiting for it is woken by one broadcast. A failed
 * collection is shared with its waiters but never cached: the next scrape
 * tries again.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "base/clock.h"
#include "base/util.h"
#include "exporter/gzip.h"
#include "exporter/scrape.h"

struct scrape {
	scrape_collect_fn collect;
	void *userdata;
	const char *version;
	struct scrape_stats stats;

	pthread_mutex_t lock;
	pthread_cond_t done;
	struct scrape_settings settings;
	bool collecting;
	uint64_t generation; /* collections finished, failed ones included */
	int last_error;	     /* of the collection that finished last */
	struct exposition *current;
	uint64_t current_start_usec;
};

int scrape_new(scrape_collect_fn collect, void *userdata, const char *version, struct scrape **ret)
{
	struct scrape *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->collect = collect;
	s->userdata = userdata;
	s->version = version;
	s->settings.gzip_level = GZIP_LEVEL_DEFAULT;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->done, NULL);
	*ret = s;
	return 0;
}

void scrape_free(struct scrape *s)
{
	if (!s)
		return;
	exposition_unref(s->current);
	pthread_cond_destroy(&s->done);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

void scrape_configure(struct scrape *s, const struct scrape_settings *settings)
{
	pthread_mutex_lock(&s->lock);
	s->settings = *settings;
	pthread_mutex_unlock(&s->lock);
}

unsigned scrape_gzip_level(struct scrape *s)
{
	unsigned level;

	pthread_mutex_lock(&s->lock);
	level = s->settings.gzip_level;
	pthread_mutex_unlock(&s->lock);
	return level;
}

struct scrape_stats *scrape_stats(struct scrape *s)
{
	return &s->stats;
}

/* Runs the collection; called unlocked by the scrape that leads the flight. */
static int collect_exposition(struct scrape *s, const struct scrape_settings *settings,
			      struct exposition **ret)
{
	const struct render_options o = {
	    .naming = settings->naming,
	    .version = s->version,
	    .max_series = settings->max_series,
	    .extra = scrape_stats_render,
	    .extra_userdata = &s->stats,
	};
	struct snapshot snap = {0};
	int r;

	atomic_fetch_add(&s->stats.collections, 1);
	r = s->collect(s->userdata, &snap);
	if (r >= 0)
		r = exposition_new(&snap, &o, ret);
	snapshot_free(&snap);
	if (r < 0)
		atomic_fetch_add(&s->stats.collection_failures, 1);
	return r;
}

/* With s->lock held: the fresh-enough current exposition, or NULL. */
static struct exposition *cached(struct scrape *s)
{
	if (!s->current || s->settings.min_interval_usec == 0 ||
	    now_usec() - s->current_start_usec >= s->settings.min_interval_usec)
		return NULL;
	return exposition_ref(s->current);
}

/*
 * With s->lock held: an exposition this scrape need not collect itself,
 * from the flight under way or the cache (1, *ret set), that flight's
 * error, or 0 when this scrape must lead the next flight.
 */
static int join_flight(struct scrape *s, struct exposition **ret)
{
	while (s->collecting) {
		uint64_t joined = s->generation;

		while (s->generation == joined)
			pthread_cond_wait(&s->done, &s->lock);
		if (s->last_error < 0)
			return s->last_error;
		/*
		 * Between the broadcast and this wake-up a new scrape may have
		 * let the flight's exposition go to lead the next flight: then
		 * there is no current one, and this scrape joins that flight.
		 */
		if (s->current) {
			*ret = exposition_ref(s->current);
			return 1;
		}
	}
	*ret = cached(s);
	return *ret ? 1 : 0;
}

/*
 * Collects for this scrape and every one that joins the flight. Called
 * with s->lock held, which it lets go while collecting, as
 * pthread_cond_wait() does while waiting.
 */
static int lead_flight(struct scrape *s, struct exposition **ret)
{
	const struct scrape_settings settings = s->settings;
	struct exposition *old;
	uint64_t start;
	int r;

	s->collecting = true;
	/*
	 * The last exposition is stale now and no scrape will be served from
	 * it again: let it go before collecting, so that two snapshots of a
	 * large tree are not held at once (bodies still being sent keep theirs).
	 */
	old = TAKE_PTR(s->current);
	pthread_mutex_unlock(&s->lock);
	exposition_unref(old);
	start = now_usec();
	r = collect_exposition(s, &settings, ret);
	pthread_mutex_lock(&s->lock);

	s->collecting = false;
	s->generation++;
	s->last_error = r;
	/* Nobody leads while this scrape does: s->current is still the NULL left above. */
	if (r >= 0) {
		s->current = exposition_ref(*ret);
		s->current_start_usec = start;
	}
	pthread_cond_broadcast(&s->done);
	return r;
}

int scrape_get(struct scrape *s, struct exposition **ret)
{
	struct exposition *e = NULL;
	int r;

	pthread_mutex_lock(&s->lock);
	r = join_flight(s, &e);
	if (r == 0)
		r = lead_flight(s, &e);
	pthread_mutex_unlock(&s->lock);
	if (r < 0)
		return r;
	*ret = e;
	return 0;
}
