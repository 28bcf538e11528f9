/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The HTTP and collection counters. The writing-exporters guide discourages
 * scrape counters that duplicate Prometheus's own series; these say what
 * Prometheus cannot see: how many scrapes shared a collection or were
 * served from the last one, and how many requests were refused.
 */
#include <inttypes.h>

#include "exporter/stats.h"
#include "exporter/textformat.h"

static const unsigned codes[SCRAPE_STATS_CODES] = {200, 400, 401, 403, 404, 405, 408,
						   414, 429, 431, 500, 501, 503, 505};

void scrape_stats_count_response(struct scrape_stats *s, unsigned code)
{
	for (unsigned i = 0; i < SCRAPE_STATS_CODES; i++)
		if (codes[i] == code)
			atomic_fetch_add_explicit(&s->responses[i], 1, memory_order_relaxed);
}

void scrape_stats_set_connections(struct scrape_stats *s, uint64_t open, uint64_t refused,
				  uint64_t shed, uint64_t timed_out)
{
	atomic_store_explicit(&s->connections_open, open, memory_order_relaxed);
	atomic_store_explicit(&s->connections_refused, refused, memory_order_relaxed);
	atomic_store_explicit(&s->connections_shed, shed, memory_order_relaxed);
	atomic_store_explicit(&s->connections_timed_out, timed_out, memory_order_relaxed);
}

static uint64_t load(const atomic_uint_fast64_t *v)
{
	return atomic_load_explicit(v, memory_order_relaxed);
}

/* A family of one series without labels. */
static void single(struct strbuf *b, enum render_format f, const char *name, const char *help,
		   enum family_type type, uint64_t value)
{
	textformat_header(b, f, name, help, type);
	strbuf_printf(b, "%s %" PRIu64 "\n", name, value);
}

void scrape_stats_render(struct strbuf *b, enum render_format f, const void *userdata)
{
	const struct scrape_stats *s = userdata;

	single(b, f, "cgacct_collections_total",
	       "Collections run; concurrent scrapes and those within min_interval share one.",
	       FAMILY_COUNTER, load(&s->collections));
	single(b, f, "cgacct_collection_failures_total",
	       "Collections that failed as a whole (the scrape got HTTP 500).", FAMILY_COUNTER,
	       load(&s->collection_failures));
	textformat_header(
	    b, f, "cgacct_http_requests_total",
	    "HTTP requests answered, by status code, up to this exposition's rendering.",
	    FAMILY_COUNTER);
	for (unsigned i = 0; i < SCRAPE_STATS_CODES; i++)
		strbuf_printf(b, "cgacct_http_requests_total{code=\"%u\"} %" PRIu64 "\n", codes[i],
			      load(&s->responses[i]));
	single(b, f, "cgacct_http_connections",
	       "HTTP connections held, their request heads coming or requests served.",
	       FAMILY_GAUGE, load(&s->connections_open));
	single(b, f, "cgacct_http_connections_refused_total",
	       "Connections closed at once: every place held a request in progress.",
	       FAMILY_COUNTER, load(&s->connections_refused));
	single(b, f, "cgacct_http_connections_shed_total",
	       "Waiting connections closed to make room for a new one (the client's own first).",
	       FAMILY_COUNTER, load(&s->connections_shed));
	single(b, f, "cgacct_http_connections_timed_out_total",
	       "Connections closed because a request head did not come in time.", FAMILY_COUNTER,
	       load(&s->connections_timed_out));
}
