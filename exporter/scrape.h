/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Collection at scrape time, single-flight: a scrape that arrives while a
 * collection runs waits for that one instead of starting another, and one
 * that arrives within min_interval of the last collection's start gets its
 * result. Collecting is the caller's callback, so the exporter never opens
 * a cgroup file.
 */
#pragma once

#include <stdint.h>

#include "exporter/exposition.h"
#include "exporter/stats.h"

/* Fills *ret with a finalized snapshot, or returns -errno. Called without locks held. */
typedef int (*scrape_collect_fn)(void *userdata, struct snapshot *ret);

struct scrape_settings {
	uint64_t min_interval_usec; /* 0: every scrape not overlapping another collects */
	uint64_t max_series;	    /* render_options.max_series */
	enum render_naming naming;  /* render_options.naming */
	unsigned gzip_level;	    /* 0: never compress; else gzip_new()'s level */
};

struct scrape;

int scrape_new(scrape_collect_fn collect, void *userdata, const char *version, struct scrape **ret);
void scrape_free(struct scrape *s);

/* Applies to collections started afterwards; safe while scrapes run. */
void scrape_configure(struct scrape *s, const struct scrape_settings *settings);

/* The gzip level a scrape that accepts gzip gets its body in now; 0: plain. */
unsigned scrape_gzip_level(struct scrape *s);

/* A reference to a current exposition; release it with exposition_unref(). */
int scrape_get(struct scrape *s, struct exposition **ret);

/* The counters of s: its collections, and the responses of the server that uses it. */
struct scrape_stats *scrape_stats(struct scrape *s);
