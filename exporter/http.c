/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Request handling. Order of checks as in exporter-toolkit: client
 * certificate, then basic auth (so nothing, not even which paths exist, is
 * told to an unauthenticated client), then method, then path. Every
 * response carries the web-config's extra headers and is counted.
 *
 * A request is handled on MHD's second call of the handler: the first only
 * says the headers are in. Request bodies are read and dropped; GET and
 * HEAD have none, and the rest get 405 once the body is in.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/util.h"
#include "exporter/auth.h"
#include "exporter/http.h"
#include "exporter/landing.h"
#include "exporter/negotiate.h"
#include "exporter/tls.h"

#define REALM "cgacct"

struct http_server {
	struct scrape *scrape;
	const char *version;
	struct http_options options;
	pthread_rwlock_t lock; /* guards options.web against a reload */
	struct MHD_Daemon **daemons;
	size_t n_daemons;
};

static int add_headers(struct MHD_Response *resp, const struct web_config *wc)
{
	for (size_t i = 0; wc && i < wc->n_headers; i++)
		if (MHD_add_response_header(resp, wc->headers[i].name, wc->headers[i].value) !=
		    MHD_YES)
			return -ENOMEM;
	return 0;
}

/* Queues resp with the configured headers and counts it; drops our reference. */
static enum MHD_Result respond(struct http_server *h, struct MHD_Connection *c, unsigned code,
			       struct MHD_Response *resp)
{
	enum MHD_Result ret = MHD_NO;

	if (!resp)
		return MHD_NO;
	if (add_headers(resp, h->options.web) >= 0) {
		if (code == MHD_HTTP_UNAUTHORIZED)
			ret = MHD_queue_basic_auth_fail_response(c, REALM, resp);
		else
			ret = MHD_queue_response(c, code, resp);
	}
	MHD_destroy_response(resp);
	if (ret == MHD_YES)
		scrape_stats_count_response(scrape_stats(h->scrape), code);
	return ret;
}

static enum MHD_Result respond_text(struct http_server *h, struct MHD_Connection *c, unsigned code,
				    const char *text)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(
	    strlen(text), (void *)(uintptr_t)text, MHD_RESPMEM_MUST_COPY);

	if (resp && MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
					    "text/plain; charset=utf-8") != MHD_YES) {
		MHD_destroy_response(resp);
		return MHD_NO;
	}
	return respond(h, c, code, resp);
}

static enum MHD_Result respond_error(struct http_server *h, struct MHD_Connection *c,
				     const char *what, int r)
{
	char text[256];

	snprintf(text, sizeof(text), "%s: %s\n", what, strerror(-r));
	return respond_text(h, c, MHD_HTTP_INTERNAL_SERVER_ERROR, text);
}

/* The reader of a streamed body; MHD calls it whenever the socket takes more. */
static ssize_t read_body(void *stream, uint64_t pos, char *buf, size_t max)
{
	ssize_t n = exposition_body_read(stream, buf, max);

	if (n < 0)
		return MHD_CONTENT_READER_END_WITH_ERROR;
	return n == 0 ? MHD_CONTENT_READER_END_OF_STREAM : n;
}

static void free_body(void *stream)
{
	exposition_body_free(stream);
}

/* Bytes MHD asks for per read_body() call: one rendered piece is about this big. */
#define BODY_BLOCK_SIZE (64 * 1024)

static enum MHD_Result serve_metrics(struct http_server *h, struct MHD_Connection *c)
{
	enum render_format f = negotiate_format(
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	const char *encodings =
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT_ENCODING);
	unsigned gzip_level = negotiate_gzip(encodings) ? scrape_gzip_level(h->scrape) : 0;
	struct MHD_Response *resp;
	struct exposition_body *body;
	struct exposition *e;
	int r;

	r = scrape_get(h->scrape, &e);
	if (r < 0)
		return respond_error(h, c, "collection failed", r);
	r = exposition_body_new(e, f, gzip_level, &body);
	exposition_unref(e);
	if (r < 0)
		return respond_error(h, c, "rendering failed", r);
	/* Rendered while sent, so the length is unknown: HTTP/1.1 gets it chunked. */
	resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, BODY_BLOCK_SIZE, read_body, body,
						 free_body);
	if (!resp) {
		exposition_body_free(body);
		return MHD_NO;
	}
	if (MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
				    textformat_content_type(f)) != MHD_YES ||
	    MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept, Accept-Encoding") !=
		MHD_YES ||
	    (gzip_level > 0 &&
	     MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip") != MHD_YES)) {
		MHD_destroy_response(resp);
		return MHD_NO;
	}
	return respond(h, c, MHD_HTTP_OK, resp);
}

static enum MHD_Result serve_landing(struct http_server *h, struct MHD_Connection *c)
{
	struct MHD_Response *resp;
	struct exposition *e;
	struct strbuf page = {0};
	int r;

	r = scrape_get(h->scrape, &e);
	if (r < 0)
		return respond_error(h, c, "collection failed", r);
	r = landing_render(exposition_snapshot(e), h->version, &page);
	exposition_unref(e);
	if (r < 0) {
		strbuf_done(&page);
		return respond_error(h, c, "rendering failed", r);
	}
	resp = MHD_create_response_from_buffer(page.len, page.buf, MHD_RESPMEM_MUST_FREE);
	if (!resp) {
		strbuf_done(&page);
		return MHD_NO;
	}
	if (MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, LANDING_CONTENT_TYPE) !=
	    MHD_YES) {
		MHD_destroy_response(resp);
		return MHD_NO;
	}
	return respond(h, c, MHD_HTTP_OK, resp);
}

static enum MHD_Result count_host(void *cls, enum MHD_ValueKind kind, const char *key,
				  const char *value)
{
	unsigned *n = cls;

	*n += strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0;
	return MHD_YES;
}

/*
 * RFC 9112 section 3.2: a server must answer 400 to an HTTP/1.1 request
 * without a Host header, and to any request with more than one. MHD
 * 0.9.75 checks neither.
 */
static bool host_valid(struct MHD_Connection *c, const char *version)
{
	unsigned n = 0;

	MHD_get_connection_values(c, MHD_HEADER_KIND, count_host, &n);
	return n == 1 || (n == 0 && strcmp(version, MHD_HTTP_VERSION_1_0) == 0);
}

static enum MHD_Result route(struct http_server *h, struct MHD_Connection *c, const char *url,
			     const char *method, const char *version)
{
	const struct web_config *wc = h->options.web;

	if (!host_valid(c, version))
		return respond_text(h, c, MHD_HTTP_BAD_REQUEST,
				    "a request needs one Host header (RFC 9112 section 3.2)\n");
	if (!tls_client_allowed(c, wc))
		return respond_text(h, c, MHD_HTTP_FORBIDDEN, "client certificate required\n");
	if (!auth_request_allowed(c, wc))
		return respond_text(h, c, MHD_HTTP_UNAUTHORIZED, "unauthorized\n");
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0) {
		struct MHD_Response *resp =
		    MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);

		if (resp &&
		    MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD") != MHD_YES) {
			MHD_destroy_response(resp);
			return MHD_NO;
		}
		return respond(h, c, MHD_HTTP_METHOD_NOT_ALLOWED, resp);
	}
	if (strcmp(url, "/metrics") == 0)
		return serve_metrics(h, c);
	if (strcmp(url, "/") == 0)
		return serve_landing(h, c);
	return respond_text(h, c, MHD_HTTP_NOT_FOUND, "not found; metrics are at /metrics\n");
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **con_cls)
{
	static int headers_seen; /* a marker: only its address is used */
	struct http_server *h = cls;
	enum MHD_Result ret;

	if (!*con_cls) {
		*con_cls = &headers_seen;
		return MHD_YES;
	}
	if (*upload_data_size > 0) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	pthread_rwlock_rdlock(&h->lock);
	ret = route(h, c, url, method, version);
	pthread_rwlock_unlock(&h->lock);
	return ret;
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	struct http_server *h = cls;

	if (h->options.log)
		h->options.log(h->options.log_userdata, fmt, ap);
}

/*
 * MHD decodes the path in place, and a decoded %00 would cut it short:
 * "/metrics%00x" would read as "/metrics". A path with an encoded NUL names
 * nothing here, so it stays encoded and matches no route.
 */
static size_t unescape(void *cls, struct MHD_Connection *c, char *s)
{
	(void)cls;
	(void)c;
	if (strstr(s, "%00"))
		return strlen(s);
	return MHD_http_unescape(s);
}

int http_server_new(struct scrape *scrape, const char *version, const struct http_options *o,
		    struct http_server **ret)
{
	struct http_server *h = calloc(1, sizeof(*h));
	pthread_rwlockattr_t attr;

	if (!h)
		return -ENOMEM;
	h->scrape = scrape;
	h->version = version;
	h->options = *o;
	/* A reload must not wait behind a steady stream of scrapes. */
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(&h->lock, &attr);
	pthread_rwlockattr_destroy(&attr);
	*ret = h;
	return 0;
}

int http_server_add_socket(struct http_server *h, int fd)
{
	_cleanup_close_ int owned = fd;
	unsigned flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG | MHD_USE_ITC;
	struct MHD_OptionItem tls[TLS_OPTIONS_MAX];
	_cleanup_free_ char *priorities = NULL;
	struct MHD_Daemon *d, **grown;
	int r;

	r = tls_daemon_options(h->options.web, tls, &priorities);
	if (r < 0)
		return r;
	if (web_config_tls(h->options.web))
		flags |= MHD_USE_TLS;
	grown = realloc(h->daemons, (h->n_daemons + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	h->daemons = grown;
	/* One option and its values per line. */
	/* clang-format off */
	d = MHD_start_daemon(flags, 0, NULL, NULL, handle, h,
			     /* the logger must come first to see errors of the options after it */
			     MHD_OPTION_EXTERNAL_LOGGER, mhd_log, h,
			     MHD_OPTION_LISTEN_SOCKET, owned,
			     MHD_OPTION_THREAD_POOL_SIZE, h->options.threads,
			     MHD_OPTION_CONNECTION_LIMIT, h->options.connection_limit,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, h->options.memory_limit,
			     MHD_OPTION_CONNECTION_TIMEOUT, h->options.timeout_sec,
			     MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
			     MHD_OPTION_ARRAY, tls,
			     MHD_OPTION_END);
	/* clang-format on */
	if (!d)
		return -EINVAL;
	TAKE_FD(owned);
	h->daemons[h->n_daemons++] = d;
	return 0;
}

void http_server_set_web_config(struct http_server *h, const struct web_config *web)
{
	pthread_rwlock_wrlock(&h->lock);
	h->options.web = web;
	pthread_rwlock_unlock(&h->lock);
}

void http_server_free(struct http_server *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n_daemons; i++) {
		/* MHD_stop_daemon() shuts its listening socket down, and a
		 * socket-activated one is shared with systemd, which would be
		 * left with a dead socket for the next activation.  Quiesced,
		 * the daemon hands the socket back to be merely closed. */
		MHD_socket fd = MHD_quiesce_daemon(h->daemons[i]);

		MHD_stop_daemon(h->daemons[i]);
		if (fd != MHD_INVALID_SOCKET)
			close(fd);
	}
	free(h->daemons);
	pthread_rwlock_destroy(&h->lock);
	free(h);
}
