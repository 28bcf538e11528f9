/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The HTTP service: /metrics (negotiated format and encoding, collected
 * through the scrape cache), the landing page at "/", 404 and 405 for the
 * rest; TLS and basic auth per the web-config. The acceptor (acceptor.h)
 * takes the connections of every listening socket and hands them to one
 * MHD daemon with a small pool of epoll threads, so a scrape that waits for
 * a collection does not stop other connections from being served.
 */
#pragma once

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "config/webconfig.h"
#include "exporter/scrape.h"

/*
 * Defaults for struct http_options. A scrape holds one connection, and
 * Prometheus keeps it open between scrapes. The limits are the acceptor's
 * (conntrack.h): connections in all and from one client address, with a
 * new connection always admitted while some other only waits, and a
 * request head due within the head timeout of its connection's accept
 * however slowly it comes; the inactivity timeout is libmicrohttpd's.
 * The total stays under the 1024 open files a service gets by default.
 * Each connection costs at most the memory limit below, and only one
 * streaming a body fills more than a page or two of it. MHD's
 * per-connection pool bounds a TLS request head, and a streamed body goes
 * out in chunks of what the pool has free: the larger the pool, the fewer
 * send() calls a body takes, each waking the scraper (tests/bench/README.md
 * has the counts).
 */
#define HTTP_THREADS_DEFAULT	       4
#define HTTP_CONNECTION_LIMIT_DEFAULT  768
#define HTTP_PER_ADDRESS_LIMIT_DEFAULT 64
#define HTTP_MEMORY_LIMIT_DEFAULT      (64 * 1024)
#define HTTP_TIMEOUT_SEC_DEFAULT       30
#define HTTP_HEAD_TIMEOUT_USEC_DEFAULT (10 * 1000 * 1000)

struct http_options {
	const struct web_config *web; /* NULL: plain HTTP, no auth; must outlive the server */
	unsigned threads;
	unsigned connection_limit;
	unsigned per_address_limit;
	size_t memory_limit;
	unsigned timeout_sec;	    /* inactivity, once a request head is in */
	uint64_t head_timeout_usec; /* a request head, however it trickles in */
	/* MHD's messages (TLS failures); may be NULL. */
	void (*log)(void *userdata, const char *fmt, va_list ap);
	void *log_userdata;
};

struct http_server;

int http_server_new(struct scrape *scrape, const char *version, const struct http_options *o,
		    struct http_server **ret);
/*
 * Serves web's TLS setup and users on fds (listening sockets, which the
 * server takes) from now on, both at once. The sockets it had that fds
 * does not list again are closed; those it does are kept, so that a reload
 * keeping an address never refuses a connection there. A new TLS setup
 * (tls_same_setup()) starts new daemons, which take the new connections,
 * while the old ones finish what they serve and then stop: a reload cuts
 * no scrape short. Returns once no request uses the old web-config, so the
 * caller may free it; on failure nothing changed and fds are the caller's.
 */
int http_server_serve(struct http_server *h, const struct web_config *web, const int *fds,
		      size_t n);
void http_server_free(struct http_server *h);
