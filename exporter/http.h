/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The HTTP service: /metrics (negotiated format and encoding, collected
 * through the scrape cache), the landing page at "/", 404 and 405 for the
 * rest; TLS and basic auth per the web-config. One MHD daemon per listening
 * socket, each with a small pool of epoll threads, so a scrape that waits
 * for a collection does not stop other connections from being served.
 */
#pragma once

#include <stdarg.h>
#include <stddef.h>

#include "config/webconfig.h"
#include "exporter/scrape.h"

/*
 * Defaults for struct http_options. A scrape holds one connection, and
 * Prometheus keeps it open between scrapes. Connections past the limit wait
 * unaccepted, so the limit is what idle or slow clients must fill to keep
 * Prometheus out: it is set to take the idle clients tests/reliability/load.sh
 * holds open besides a crowd of scrapers, and to stay under the 1024 open
 * files a service gets by default. Each costs at most the memory limit below,
 * and only a connection streaming a body fills more than a page or two of
 * it. MHD's per-connection pool bounds the request line and headers, and a
 * streamed body goes out in chunks of what the pool has free: the larger
 * the pool, the fewer send() calls a body takes, each waking the scraper
 * (tests/bench/README.md has the counts). The timeout is on inactivity.
 */
#define HTTP_THREADS_DEFAULT	      4
#define HTTP_CONNECTION_LIMIT_DEFAULT 768
#define HTTP_MEMORY_LIMIT_DEFAULT     (64 * 1024)
#define HTTP_TIMEOUT_SEC_DEFAULT      30

struct http_options {
	const struct web_config *web; /* NULL: plain HTTP, no auth; must outlive the server */
	unsigned threads;
	unsigned connection_limit;
	size_t memory_limit;
	unsigned timeout_sec;
	/* MHD's messages (bind errors, TLS failures); may be NULL. */
	void (*log)(void *userdata, const char *fmt, va_list ap);
	void *log_userdata;
};

struct http_server;

int http_server_new(struct scrape *scrape, const char *version, const struct http_options *o,
		    struct http_server **ret);
/* Starts serving on a listening socket, which the server then owns (and closes). */
int http_server_add_socket(struct http_server *h, int fd);
/*
 * Swaps in a web-config with the same TLS setup (tls_same_setup()): new
 * users and headers apply to the next request. Returns once no request
 * uses the old one, so the caller may free it.
 */
void http_server_set_web_config(struct http_server *h, const struct web_config *web);
void http_server_free(struct http_server *h);
