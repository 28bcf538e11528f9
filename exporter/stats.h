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
#define SCRAPE_STATS_CODES 7

struct scrape_stats {
	atomic_uint_fast64_t collections;
	atomic_uint_fast64_t collection_failures;
	atomic_uint_fast64_t responses[SCRAPE_STATS_CODES];
};

void scrape_stats_count_response(struct scrape_stats *s, unsigned code);
/* For render_options.extra; userdata is the struct scrape_stats. */
void scrape_stats_render(struct strbuf *b, enum render_format f, const void *userdata);
