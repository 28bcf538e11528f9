/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scrape statistics: collections run and failed, and HTTP responses by
 * status code. Updated from any HTTP thread without a lock, and rendered
 * as cgacct_ self-metrics after the collection's own.
 */
#pragma once

#include <stdatomic.h>
#include <stdint.h>

#include "exporter/render.h"

/* The status codes cgacctd answers with; MHD's own protocol errors are not seen. */
#define SCRAPE_STATS_CODES 14

struct scrape_stats {
	atomic_uint_fast64_t collections;
	atomic_uint_fast64_t collection_failures;
	atomic_uint_fast64_t responses[SCRAPE_STATS_CODES];
	/* the HTTP server's connection table, as it last said (conntrack.h) */
	atomic_uint_fast64_t connections_open, connections_refused, connections_shed,
	    connections_timed_out;
};

void scrape_stats_count_response(struct scrape_stats *s, unsigned code);
void scrape_stats_set_connections(struct scrape_stats *s, uint64_t open, uint64_t refused,
				  uint64_t shed, uint64_t timed_out);
/* For render_options.extra; userdata is the struct scrape_stats. */
void scrape_stats_render(struct strbuf *b, enum render_format f, const void *userdata);
