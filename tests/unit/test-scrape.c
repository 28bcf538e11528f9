/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scrape cache: concurrent scrapes share one collection, min_interval
 * serves the last one, failures are shared but not cached; each
 * exposition carries the counters. Its bodies are test-exposition.c's.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "exporter/scrape.h"
#include "helpers-exporter.h"

struct fake {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned calls;
	bool started, release;
	int result;
};

/* Blocks until released, so a test decides exactly when a collection ends. */
static int fake_collect(void *userdata, struct snapshot *ret)
{
	struct fake *f = userdata;
	int r;

	pthread_mutex_lock(&f->lock);
	f->calls++;
	f->started = true;
	pthread_cond_broadcast(&f->cond);
	while (!f->release)
		pthread_cond_wait(&f->cond, &f->lock);
	r = f->result;
	pthread_mutex_unlock(&f->lock);
	*ret = (struct snapshot){.duration_ns = f->calls};
	return r;
}

struct scraper {
	pthread_t thread;
	struct scrape *scrape;
	struct exposition *e;
	int r;
};

static void *scrape_thread(void *userdata)
{
	struct scraper *s = userdata;

	s->r = scrape_get(s->scrape, &s->e);
	return NULL;
}

static void release(struct fake *f)
{
	pthread_mutex_lock(&f->lock);
	f->release = true;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

static void wait_started(struct fake *f)
{
	pthread_mutex_lock(&f->lock);
	while (!f->started)
		pthread_cond_wait(&f->cond, &f->lock);
	pthread_mutex_unlock(&f->lock);
}

static void concurrent_scrapes(struct fake *f, struct scrape *s, struct scraper *a,
			       struct scraper *b)
{
	*a = (struct scraper){.scrape = s};
	*b = (struct scraper){.scrape = s};
	ASSERT_EQ(pthread_create(&a->thread, NULL, scrape_thread, a), 0);
	wait_started(f);
	ASSERT_EQ(pthread_create(&b->thread, NULL, scrape_thread, b), 0);
	/* b cannot finish before the release; give it time to join the flight */
	usleep(100 * 1000);
	release(f);
	ASSERT_EQ(pthread_join(a->thread, NULL), 0);
	ASSERT_EQ(pthread_join(b->thread, NULL), 0);
}

TEST(concurrent_scrapes_share_one_collection)
{
	struct fake f = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};
	struct scraper a, b;
	struct scrape *s;
	struct exposition *third;

	ASSERT_EQ(scrape_new(fake_collect, &f, "1", &s), 0);
	concurrent_scrapes(&f, s, &a, &b);
	ASSERT_EQ(a.r, 0);
	ASSERT_EQ(b.r, 0);
	ASSERT_EQ(f.calls, 1);
	ASSERT_TRUE(a.e == b.e);
	ASSERT_EQ(atomic_load(&scrape_stats(s)->collections), 1);
	/* without min_interval, the next scrape collects again */
	ASSERT_EQ(scrape_get(s, &third), 0);
	ASSERT_EQ(f.calls, 2);
	ASSERT_TRUE(third != a.e);
	exposition_unref(a.e);
	exposition_unref(b.e);
	exposition_unref(third);
	scrape_free(s);
}

TEST(min_interval_serves_the_last_collection)
{
	struct fake f = {
	    .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER, .release = true};
	const struct scrape_settings settings = {.min_interval_usec = 60 * 1000000ull};
	struct exposition *e1, *e2;
	struct scrape *s;

	ASSERT_EQ(scrape_new(fake_collect, &f, "1", &s), 0);
	scrape_configure(s, &settings);
	ASSERT_EQ(scrape_get(s, &e1), 0);
	ASSERT_EQ(scrape_get(s, &e2), 0);
	ASSERT_EQ(f.calls, 1);
	ASSERT_TRUE(e1 == e2);
	ASSERT_EQ(exposition_snapshot(e2)->duration_ns, 1);
	exposition_unref(e1);
	exposition_unref(e2);
	scrape_free(s);
}

TEST(failed_collection_is_shared_but_not_cached)
{
	struct fake f = {
	    .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER, .result = -EIO};
	const struct scrape_settings settings = {.min_interval_usec = 60 * 1000000ull};
	struct scraper a, b;
	struct exposition *e;
	struct scrape *s;

	ASSERT_EQ(scrape_new(fake_collect, &f, "1", &s), 0);
	scrape_configure(s, &settings);
	concurrent_scrapes(&f, s, &a, &b);
	ASSERT_EQ(a.r, -EIO);
	ASSERT_EQ(b.r, -EIO);
	ASSERT_EQ(f.calls, 1);
	f.result = 0;
	ASSERT_EQ(scrape_get(s, &e), 0);
	ASSERT_EQ(f.calls, 2);
	ASSERT_EQ(atomic_load(&scrape_stats(s)->collection_failures), 1);
	exposition_unref(e);
	scrape_free(s);
}

static void *scrape_many(void *userdata)
{
	struct scraper *sc = userdata;

	for (int i = 0; i < 2000 && sc->r == 0; i++) {
		sc->r = scrape_get(sc->scrape, &sc->e);
		if (sc->r == 0 && !sc->e)
			sc->r = -EFAULT;
		exposition_unref(sc->e);
	}
	return NULL;
}

/*
 * Scrapes back to back from many threads, without min_interval: a waiter
 * woken after a newer scrape already took the last exposition to start
 * the next flight must join that flight, not take a missing exposition.
 * The race needs no luck here; wrk found it in a second.
 */
TEST(back_to_back_scrapes_always_get_an_exposition)
{
	struct fake f = {
	    .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER, .release = true};
	struct scraper sc[8];
	struct scrape *s;

	ASSERT_EQ(scrape_new(fake_collect, &f, "1", &s), 0);
	for (size_t i = 0; i < ELEMENTSOF(sc); i++) {
		sc[i] = (struct scraper){.scrape = s};
		ASSERT_EQ(pthread_create(&sc[i].thread, NULL, scrape_many, &sc[i]), 0);
	}
	for (size_t i = 0; i < ELEMENTSOF(sc); i++) {
		ASSERT_EQ(pthread_join(sc[i].thread, NULL), 0);
		ASSERT_EQ(sc[i].r, 0);
	}
	scrape_free(s);
}

/* The scrape's exposition carries its counters, as they were when the collection ended. */
TEST(expositions_carry_the_scrape_counters)
{
	struct fake f = {
	    .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER, .release = true};
	struct exposition *e1, *e2;
	char *text1, *text2;
	size_t len1, len2;
	struct scrape *s;

	ASSERT_EQ(scrape_new(fake_collect, &f, "1", &s), 0);
	ASSERT_EQ(scrape_get(s, &e1), 0);
	ASSERT_EQ(scrape_get(s, &e2), 0);
	text1 = read_body(e1, RENDER_TEXT, 0, &len1);
	text2 = read_body(e2, RENDER_TEXT, 0, &len2);
	ASSERT_TRUE(strstr(text1, "\ncgacct_collections_total 1\n") != NULL);
	ASSERT_TRUE(strstr(text2, "\ncgacct_collections_total 2\n") != NULL);
	ASSERT_TRUE(strstr(text2, "\ncgacct_collection_failures_total 0\n") != NULL);
	free(text1);
	free(text2);
	exposition_unref(e1);
	exposition_unref(e2);
	scrape_free(s);
}
