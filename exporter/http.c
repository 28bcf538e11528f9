/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Request handling. Order of checks as in exporter-toolkit: the request's
 * framing (reqhead.h), client certificate, then basic auth (so nothing, not
 * even which paths exist, is told to an unauthenticated client), then
 * method, then path. Every response carries the web-config's extra headers
 * and is counted.
 *
 * A request with a body, which no route takes, is answered before its
 * body is read (handle() says when), its connection closed after.
 *
 * The daemons are generations: one serves, and a new TLS setup starts a
 * new one, to which new connections go while the old one drains: it is
 * stopped once none of its connections has a request head or a request in
 * progress, so that a reload never cuts a scrape short.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/util.h"
#include "exporter/acceptor.h"
#include "exporter/auth.h"
#include "exporter/conntrack.h"
#include "exporter/http.h"
#include "exporter/landing.h"
#include "exporter/negotiate.h"
#include "exporter/reqhead.h"
#include "exporter/tls.h"

/* How long a retired generation may drain before it is stopped whatever it serves. */
#define DRAIN_USEC (60 * USEC_PER_SEC)
/* Retired generations past this many are stopped once their heads' time is up. */
#define RETIRED_MAX 8

/*
 * One MHD daemon of a generation, on a thread of its own. A request runs
 * its collection on its daemon's thread, which serves nothing else
 * meanwhile: a new connection goes to the worker with the fewest requests
 * in progress, as MHD's own threads would take it from a shared socket.
 */
struct worker {
	struct MHD_Daemon *daemon;
	struct http_server *server;
	atomic_uint active; /* requests in progress */
};

struct generation {
	struct worker *workers;
	unsigned n_workers;
	unsigned next_worker; /* where a tie goes: round robin */
	struct tls_setup tls;
	uint64_t retired; /* 0 while it serves new connections */
	struct generation *next;
};

struct http_server {
	struct scrape *scrape;
	const char *version;
	struct http_options options;
	pthread_rwlock_t lock; /* guards options.web against a reload */
	pthread_mutex_t generations_lock;
	struct generation *current;
	struct generation *retired; /* newest first */
	unsigned n_retired;
	struct conntrack *conns;
	struct auth_gate *auth;
	struct acceptor *acceptor;
};

#define REALM "cgacct"

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
	/* a refused request may have a body nobody read: the connection ends with the answer */
	if (code >= 400 && code != MHD_HTTP_NOT_FOUND && code != MHD_HTTP_UNAUTHORIZED &&
	    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close") != MHD_YES) {
		MHD_destroy_response(resp);
		return MHD_NO;
	}
	if (code == MHD_HTTP_TOO_MANY_REQUESTS &&
	    MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "1") != MHD_YES) {
		MHD_destroy_response(resp);
		return MHD_NO;
	}
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

/* Bytes MHD asks for per read_body() call: one rendered piece is about this big. */
#define BODY_BLOCK_SIZE (64 * 1024)

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

/*
 * HEAD gets the headers GET would and no body. libmicrohttpd 0.9.75 sends
 * the end of a chunked body even to HEAD, so its body is made whole for
 * its length, and its response made from the buffer, which MHD only
 * measures for a HEAD.
 */
static struct MHD_Response *whole_body(struct exposition_body *body)
{
	struct strbuf text = {0};
	struct MHD_Response *resp;
	ssize_t n;

	do {
		char *p = strbuf_space(&text, BODY_BLOCK_SIZE);

		n = p ? exposition_body_read(body, p, BODY_BLOCK_SIZE) : -ENOMEM;
		if (n > 0)
			strbuf_commit(&text, p + n);
	} while (n > 0);
	exposition_body_free(body);
	if (n < 0) {
		strbuf_done(&text);
		return NULL;
	}
	resp = MHD_create_response_from_buffer(text.len, text.buf, MHD_RESPMEM_MUST_FREE);
	if (!resp)
		strbuf_done(&text);
	return resp;
}

static enum MHD_Result serve_metrics(struct http_server *h, struct MHD_Connection *c, bool head)
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
	if (head)
		resp = whole_body(body);
	else if (!(resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, BODY_BLOCK_SIZE,
							    read_body, body, free_body)))
		exposition_body_free(body);
	if (!resp)
		return MHD_NO;
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

/* Counts what reqhead_judge() needs of a head MHD parsed. */
static enum MHD_Result count_field(void *cls, enum MHD_ValueKind kind, const char *key,
				   const char *value)
{
	struct reqhead_fields *f = cls;
	size_t len = value ? strlen(value) : 0;

	if (kind == MHD_GET_ARGUMENT_KIND) {
		f->parameters++;
		f->target_len += strlen(key) + len + 2;
		return MHD_YES;
	}
	if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0)
		f->hosts++;
	else if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
		f->lengths++;
		f->length_invalid =
		    f->length_invalid || len == 0 || strspn(value, "0123456789") < len;
	} else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
		const char *last = strrchr(value, ',');

		last = last ? last + 1 : value;
		last += strspn(last, " \t");
		f->encodings++;
		f->chunked_last = strncasecmp(last, "chunked", 7) == 0 &&
				  last[7 + strspn(last + 7, " \t")] == '\0';
		f->other_coding = f->other_coding || strchr(value, ',') || !f->chunked_last;
	}
	/* the head's size, field by field, as the plain-HTTP check counts it */
	f->head_len += strlen(key) + len + 4;
	return MHD_YES;
}

/*
 * The framing of a request MHD parsed: the one on a plain connection's
 * first request was checked before MHD saw it, but not a TLS one's, nor a
 * later one on a kept-alive connection. 0, or the status to answer.
 */
static unsigned judge(struct MHD_Connection *c, const char *url, const char *version,
		      const char **ret_why)
{
	struct reqhead_fields f = {.http11 = strcmp(version, MHD_HTTP_VERSION_1_0) != 0};

	MHD_get_connection_values(c, MHD_HEADER_KIND, count_field, &f);
	MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, count_field, &f);
	f.target_len += strlen(url);
	if (f.head_len + f.target_len > REQHEAD_MAX) {
		*ret_why = "request head too large";
		return 431;
	}
	return reqhead_judge(&f, ret_why);
}

static enum MHD_Result route(struct http_server *h, struct MHD_Connection *c, const char *url,
			     const char *method)
{
	const struct web_config *wc = h->options.web;

	if (!tls_client_allowed(c, wc))
		return respond_text(h, c, MHD_HTTP_FORBIDDEN, "client certificate required\n");
	switch (auth_gate_check(
	    h->auth, wc,
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION))) {
	case AUTH_ALLOWED:
		break;
	case AUTH_BUSY:
		return respond_text(h, c, MHD_HTTP_TOO_MANY_REQUESTS,
				    "too many password checks at once; retry\n");
	default:
		return respond_text(h, c, MHD_HTTP_UNAUTHORIZED, "unauthorized\n");
	}
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
		return serve_metrics(h, c, strcmp(method, MHD_HTTP_METHOD_HEAD) == 0);
	if (strcmp(url, "/") == 0)
		return serve_landing(h, c);
	return respond_text(h, c, MHD_HTTP_NOT_FOUND, "not found; metrics are at /metrics\n");
}

static int connection_fd(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *info =
	    MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);

	return info ? info->connect_fd : -1;
}

/* Whether the request has a body: a length above 0, or a transfer coding. */
static bool has_body(struct MHD_Connection *c)
{
	const char *length =
	    MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);

	return (length && strspn(length, "0") < strlen(length)) ||
	       MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);
}

/*
 * MHD calls this when a request's head is in, again per piece of its body,
 * and once more at its end. A request is answered at that end, as MHD
 * 0.9.75 serves the next pipelined request only then; one badly framed or
 * with a body (no route takes one) is answered at once, so that no body is
 * ever waited for, and the answer closes its connection.
 */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **con_cls)
{
	static int headed, answered; /* markers: only their addresses are used */
	struct worker *w = cls;
	struct http_server *h = w->server;
	enum MHD_Result ret = MHD_YES;
	const char *why;
	unsigned status;

	if (*con_cls == &answered) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	pthread_rwlock_rdlock(&h->lock);
	if (!*con_cls) {
		*con_cls = &headed;
		atomic_fetch_add(&w->active, 1);
		conntrack_set_state(h->conns, connection_fd(c), CONN_ACTIVE, now_usec());
		status = judge(c, url, version, &why);
		if (status) {
			char text[256];

			snprintf(text, sizeof(text), "%s\n", why);
			ret = respond_text(h, c, status, text);
			*con_cls = &answered;
		} else if (has_body(c)) {
			ret = route(h, c, url, method);
			*con_cls = &answered;
		}
	} else if (*upload_data_size == 0) {
		ret = route(h, c, url, method);
		*con_cls = &answered;
	}
	pthread_rwlock_unlock(&h->lock);
	return ret;
}

/* A request's answer is sent: the connection waits for its next request head. */
static void completed(void *cls, struct MHD_Connection *c, void **con_cls,
		      enum MHD_RequestTerminationCode toe)
{
	struct worker *w = cls;

	if (*con_cls) /* the handler saw the request */
		atomic_fetch_sub(&w->active, 1);
	conntrack_set_state(w->server->conns, connection_fd(c), CONN_IDLE, now_usec());
}

/* MHD is about to close the connection: it leaves the table before its number is free. */
static void notify_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			      enum MHD_ConnectionNotificationCode toe)
{
	struct worker *w = cls;

	if (toe == MHD_CONNECTION_NOTIFY_CLOSED)
		conntrack_remove(w->server->conns, connection_fd(c));
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

static void generation_free(struct generation *g)
{
	if (!g)
		return;
	for (unsigned i = 0; i < g->n_workers; i++)
		if (g->workers[i].daemon)
			MHD_stop_daemon(g->workers[i].daemon);
	free(g->workers);
	tls_setup_done(&g->tls);
	free(g);
}

static struct MHD_Daemon *worker_start(struct worker *w, unsigned flags,
				       struct MHD_OptionItem tls[TLS_OPTIONS_MAX])
{
	struct http_server *h = w->server;

	/* One option and its values per line. */
	/* clang-format off */
	return MHD_start_daemon(flags, 0, NULL, NULL, handle, w,
			     /* the logger must come first to see errors of the options after it */
			     MHD_OPTION_EXTERNAL_LOGGER, mhd_log, h,
			     /* the acceptor admits; MHD need only never refuse what it admitted */
			     MHD_OPTION_CONNECTION_LIMIT, 2 * h->options.connection_limit,
			     MHD_OPTION_CONNECTION_MEMORY_LIMIT, h->options.memory_limit,
			     MHD_OPTION_CONNECTION_TIMEOUT, h->options.timeout_sec,
			     /* TLS heads reach MHD unchecked: it refuses blanks in targets */
			     MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
			     MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
			     MHD_OPTION_NOTIFY_COMPLETED, completed, w,
			     MHD_OPTION_NOTIFY_CONNECTION, notify_connection, w,
			     MHD_OPTION_ARRAY, tls,
			     MHD_OPTION_END);
	/* clang-format on */
}

/* The daemons for web's TLS setup, fed by the acceptor. */
static int generation_start(struct http_server *h, const struct web_config *web,
			    struct generation **ret)
{
	unsigned flags = MHD_USE_ERROR_LOG | MHD_USE_ITC | MHD_USE_NO_LISTEN_SOCKET;
	struct MHD_OptionItem tls[TLS_OPTIONS_MAX];
	struct generation *g = calloc(1, sizeof(*g));
	int r;

	if (!g)
		return -ENOMEM;
	r = tls_setup_new(web, &g->tls);
	if (r < 0) {
		free(g);
		return r;
	}
	tls_daemon_options(&g->tls, tls);
	/*
	 * TLS connections are polled, not waited for with epoll: libmicrohttpd
	 * 0.9.75 answers a TLS head too large for its memory and then waits for
	 * an edge of writability that never comes, as the socket was writable
	 * all along; the answer never left until the head deadline closed the
	 * connection. poll() asks for the state, not its changes.
	 */
	flags |=
	    g->tls.key ? MHD_USE_TLS | MHD_USE_POLL_INTERNAL_THREAD : MHD_USE_EPOLL_INTERNAL_THREAD;
	g->workers = calloc(h->options.threads, sizeof(*g->workers));
	if (!g->workers) {
		generation_free(g);
		return -ENOMEM;
	}
	for (; g->n_workers < h->options.threads; g->n_workers++) {
		struct worker *w = &g->workers[g->n_workers];

		w->server = h;
		atomic_init(&w->active, 0);
		w->daemon = worker_start(w, flags, tls);
		if (!w->daemon) {
			generation_free(g);
			return -EINVAL;
		}
	}
	*ret = g;
	return 0;
}

/* The acceptor's thread alone hands off, so next_worker needs no lock. */
static int handoff(void *userdata, void *owner, int fd, const struct sockaddr *addr,
		   socklen_t addr_len)
{
	struct generation *g = owner;
	struct worker *least = NULL;

	(void)userdata;
	for (unsigned k = 0; k < g->n_workers; k++) {
		struct worker *w = &g->workers[(g->next_worker + k) % g->n_workers];

		if (!least || atomic_load(&w->active) < atomic_load(&least->active))
			least = w;
	}
	g->next_worker = (g->next_worker + 1) % g->n_workers;
	return MHD_add_connection(least->daemon, fd, addr, addr_len) == MHD_YES ? 0 : -errno;
}

static void answered(void *userdata, unsigned status)
{
	struct http_server *h = userdata;

	scrape_stats_count_response(scrape_stats(h->scrape), status);
}

/*
 * Whether retired generation g has drained: none of its connections has a
 * request head coming or a request in progress (kept-alive idle ones are
 * closed with it, which HTTP allows), or it has waited long enough.
 */
static bool drained(struct http_server *h, const struct generation *g, bool crowded, uint64_t now)
{
	return conntrack_busy(h->conns, g) == 0 || now >= g->retired + DRAIN_USEC ||
	       (crowded && now >= g->retired + h->options.head_timeout_usec + USEC_PER_SEC);
}

/* The acceptor's housekeeping: stops the retired generations that have drained. */
static uint64_t tick(void *userdata, uint64_t now)
{
	struct http_server *h = userdata;
	struct conntrack_counts counts;
	struct generation *done = NULL, **at;
	uint64_t next = UINT64_MAX;

	pthread_mutex_lock(&h->generations_lock);
	for (at = &h->retired; *at;) {
		struct generation *g = *at;

		if (drained(h, g, h->n_retired > RETIRED_MAX && !g->next, now)) {
			*at = g->next;
			g->next = done;
			done = g;
			h->n_retired--;
			continue;
		}
		next = now + 20 * USEC_PER_MSEC;
		at = &g->next;
	}
	pthread_mutex_unlock(&h->generations_lock);
	while (done) {
		struct generation *g = done;

		done = g->next;
		generation_free(g);
	}
	conntrack_counts(h->conns, &counts);
	scrape_stats_set_connections(scrape_stats(h->scrape), counts.open, counts.refused,
				     counts.evicted, counts.expired);
	return next;
}

static const struct acceptor_ops acceptor_ops = {
    .handoff = handoff,
    .answered = answered,
    .tick = tick,
};

void http_server_free(struct http_server *h)
{
	if (!h)
		return;
	/* no connection comes in any more, then every daemon goes */
	acceptor_free(h->acceptor);
	generation_free(h->current);
	while (h->retired) {
		struct generation *g = h->retired;

		h->retired = g->next;
		generation_free(g);
	}
	conntrack_free(h->conns);
	auth_gate_free(h->auth);
	pthread_mutex_destroy(&h->generations_lock);
	pthread_rwlock_destroy(&h->lock);
	free(h);
}

int http_server_new(struct scrape *scrape, const char *version, const struct http_options *o,
		    struct http_server **ret)
{
	const struct conntrack_limits limits = {
	    .total = o->connection_limit,
	    .per_address = o->per_address_limit,
	    .head_usec = o->head_timeout_usec,
	    .idle_usec = o->timeout_sec * USEC_PER_SEC + o->head_timeout_usec,
	};
	struct http_server *h = calloc(1, sizeof(*h));
	pthread_rwlockattr_t attr;
	int r;

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
	pthread_mutex_init(&h->generations_lock, NULL);
	r = conntrack_new(&limits, &h->conns);
	if (r >= 0)
		r = auth_gate_new(&h->auth);
	if (r >= 0)
		r = generation_start(h, o->web, &h->current);
	if (r >= 0)
		r = acceptor_new(h->conns, o->head_timeout_usec, &acceptor_ops, h, &h->acceptor);
	if (r < 0) {
		http_server_free(h);
		return r;
	}
	*ret = h;
	return 0;
}

int http_server_serve(struct http_server *h, const struct web_config *web, const int *fds, size_t n)
{
	struct generation *g = NULL, *old;
	int r;

	if (!tls_same_setup(h->options.web, web)) {
		r = generation_start(h, web, &g);
		if (r < 0)
			return r;
	}
	pthread_rwlock_wrlock(&h->lock);
	h->options.web = web;
	pthread_rwlock_unlock(&h->lock);
	/* the sockets and who serves them change at once: no connection meets the wrong TLS */
	r = acceptor_set_sockets(h->acceptor, fds, n, g ? g : h->current,
				 !!(g ? g : h->current)->tls.key);
	if (r < 0) {
		generation_free(g);
		return r;
	}
	if (!g)
		return 0;
	pthread_mutex_lock(&h->generations_lock);
	old = h->current;
	h->current = g;
	old->retired = now_usec();
	old->next = h->retired;
	h->retired = old;
	h->n_retired++;
	pthread_mutex_unlock(&h->generations_lock);
	/* its housekeeping stops the old one once it has drained */
	acceptor_wake(h->acceptor);
	return 0;
}
