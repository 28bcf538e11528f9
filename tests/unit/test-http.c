/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The HTTP service, spoken to in raw HTTP/1.1 over loopback: /metrics in
 * the negotiated format and encoding, the landing page, 404 and 405, HEAD,
 * basic auth before anything else is told, the web-config's headers on
 * every response, and each response counted. The server runs in this
 * process on a socket made here; collections come from a callback that
 * builds a small snapshot.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "base/strbuf.h"
#include "config/error.h"
#include "exporter/gzip.h"
#include "exporter/http.h"
#include "exporter/landing.h"
#include "exporter/scrape.h"
#include "helpers-config.h"
#include "helpers-exporter.h"

/* prom@v2.42.0 scrape/scrape.go: the header every Prometheus 2.42 scrape sends. */
#define PROMETHEUS_2_42_ACCEPT                                                                     \
	"application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"   \
	"q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"

#define ROOT_CPU_SAMPLE	    "cgroup_cpu_usage_seconds_total{cgroup=\"/\"} 2.5\n"
#define CHILD_MEMORY_SAMPLE "cgroup_memory_usage_bytes{cgroup=\"/test.slice\"} 4096\n"

/* bob's password is "hunter2" (tests/fixtures/config/web-full.yml). */
#define WEB_CONFIG_WITH_BOB                                                                        \
	"http_server_config:\n"                                                                    \
	"  headers:\n"                                                                             \
	"    X-Frame-Options: deny\n"                                                              \
	"basic_auth_users:\n"                                                                      \
	"  bob: $2y$04$V/XGzg9EPlnsZyUbvutQXu/iqvao6V5e26S9JTMxUmS61ujmycNfm\n"

struct server {
	int collect_result; /* what the collection returns: 0 or -errno */
	struct scrape *scrape;
	struct http_server *http;
	int port;
	int fd; /* the listening socket, the server's */
};

static int collect(void *userdata, struct snapshot *ret)
{
	const struct server *srv = userdata;
	struct snapshot s = {0};
	struct cgroup_record r = {0};

	if (srv->collect_result < 0)
		return srv->collect_result;
	ASSERT_EQ(record_add(&r, METRIC_CPU_USAGE, NULL, 2500000000), 0);
	ASSERT_EQ(snapshot_take_record(&s, "/", &r), 0);
	ASSERT_EQ(record_add(&r, METRIC_MEMORY_USAGE, NULL, 4096), 0);
	ASSERT_EQ(snapshot_take_record(&s, "/test.slice", &r), 0);
	record_done(&r);
	ASSERT_EQ(snapshot_finalize(&s), 0);
	*ret = s;
	return 0;
}

/* A server on a loopback port of its own; later scrapes within a minute share one collection. */
static void server_start(struct server *srv, int collect_result)
{
	const struct scrape_settings settings = {.min_interval_usec = 60 * 1000000ull,
						 .gzip_level = GZIP_LEVEL_DEFAULT};
	const struct http_options o = {
	    .threads = 2,
	    .connection_limit = 16,
	    .per_address_limit = 16,
	    .memory_limit = HTTP_MEMORY_LIMIT_DEFAULT,
	    .timeout_sec = 10,
	    .head_timeout_usec = HTTP_HEAD_TIMEOUT_USEC_DEFAULT,
	};
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(sa);
	int fd;

	*srv = (struct server){.collect_result = collect_result};
	ASSERT_EQ(scrape_new(collect, srv, "9.9", &srv->scrape), 0);
	scrape_configure(srv->scrape, &settings);
	ASSERT_EQ(http_server_new(srv->scrape, "9.9", &o, &srv->http), 0);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ASSERT_EQ(listen(fd, 16), 0);
	ASSERT_EQ(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	srv->port = ntohs(sa.sin_port);
	srv->fd = fd;
	ASSERT_EQ(http_server_serve(srv->http, NULL, &fd, 1), 0);
}

static void server_stop(struct server *srv)
{
	http_server_free(srv->http);
	scrape_free(srv->scrape);
}

struct response {
	unsigned status;
	char *head; /* status line and headers, each line ending in "\r\n" */
	char *body; /* de-chunked; NUL-terminated */
	size_t body_len;
};

/* Undoes chunked transfer coding in place; the decoded length. */
static size_t dechunk(char *body, size_t len)
{
	size_t in = 0, out = 0;
	char *size_end, *line_end;
	unsigned long n;

	for (;;) {
		/* The size in hex, maybe extensions, CRLF; then the data and CRLF. */
		n = strtoul(body + in, &size_end, 16);
		line_end = strstr(size_end, "\r\n");
		ASSERT_TRUE(size_end != body + in && line_end != NULL);
		in = (size_t)(line_end + 2 - body);
		if (n == 0)
			break;
		ASSERT_TRUE(in + n + 2 <= len && memcmp(body + in + n, "\r\n", 2) == 0);
		memmove(body + out, body + in, n);
		in += n + 2;
		out += n;
	}
	/* No trailers: the last chunk is followed by the empty line alone. */
	ASSERT_EQ(len - in, 2);
	ASSERT_TRUE(memcmp(body + in, "\r\n", 2) == 0);
	body[out] = '\0';
	return out;
}

/* The value of a response header (case-insensitive name), or NULL; free it. */
static char *header(const struct response *resp, const char *name)
{
	size_t n = strlen(name);

	for (const char *line = strstr(resp->head, "\r\n"); line && line[2];
	     line = strstr(line + 2, "\r\n")) {
		const char *h = line + 2;

		if (strncasecmp(h, name, n) == 0 && h[n] == ':') {
			const char *v = h + n + 1 + strspn(h + n + 1, " ");

			return strndup(v, strcspn(v, "\r"));
		}
	}
	return NULL;
}

static void assert_header(const struct response *resp, const char *name, const char *value)
{
	char *v = header(resp, name);

	if (!v)
		fprintf(stderr, "no %s in:\n%s\n", name, resp->head);
	ASSERT_TRUE(v != NULL);
	ASSERT_STREQ(v, value);
	free(v);
}

static void assert_no_header(const struct response *resp, const char *name)
{
	char *v = header(resp, name);

	if (v)
		fprintf(stderr, "unexpected %s: %s\n", name, v);
	ASSERT_TRUE(v == NULL);
}

/* Sends raw request bytes and reads the response to the server's close. */
static struct response exchange(const struct server *srv, const char *raw)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons((uint16_t)srv->port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	const struct timeval timeout = {.tv_sec = 20};
	struct strbuf in = {0};
	struct response resp = {0};
	char buf[4096], *sep, *te;
	ssize_t n;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	ASSERT_TRUE(fd >= 0);
	ASSERT_EQ(setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)), 0);
	ASSERT_EQ(connect(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	ASSERT_EQ(send(fd, raw, strlen(raw), MSG_NOSIGNAL), (ssize_t)strlen(raw));
	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0)
		strbuf_append(&in, buf, (size_t)n);
	ASSERT_EQ(n, 0);
	close(fd);
	ASSERT_EQ(strbuf_status(&in), 0);

	sep = strstr(in.buf, "\r\n\r\n");
	ASSERT_TRUE(sep != NULL);
	resp.head = strndup(in.buf, (size_t)(sep + 2 - in.buf));
	ASSERT_TRUE(sscanf(resp.head, "HTTP/1.%*[01] %u ", &resp.status) == 1);
	resp.body_len = in.len - (size_t)(sep + 4 - in.buf);
	resp.body = malloc(resp.body_len + 1);
	ASSERT_TRUE(resp.head && resp.body);
	memcpy(resp.body, sep + 4, resp.body_len);
	resp.body[resp.body_len] = '\0';
	strbuf_done(&in);
	te = header(&resp, "Transfer-Encoding");
	if (te && strncmp(raw, "HEAD ", 5) != 0) {
		ASSERT_STREQ(te, "chunked");
		resp.body_len = dechunk(resp.body, resp.body_len);
	}
	free(te);
	return resp;
}

/*
 * Sends one request (the request line, then header lines each ending in
 * "\r\n"; Host and Connection: close are added) and reads the response.
 */
static struct response request(const struct server *srv, const char *line, const char *headers,
			       const char *body)
{
	struct strbuf out = {0};
	struct response resp;

	strbuf_printf(&out, "%s HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n%s", line,
		      headers);
	if (body)
		strbuf_printf(&out, "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
	else
		strbuf_puts(&out, "\r\n");
	ASSERT_EQ(strbuf_status(&out), 0);
	resp = exchange(srv, out.buf);
	strbuf_done(&out);
	return resp;
}

static struct response get(const struct server *srv, const char *path, const char *headers)
{
	char line[256];

	snprintf(line, sizeof(line), "GET %s", path);
	return request(srv, line, headers, NULL);
}

static void response_done(struct response *resp)
{
	free(resp->head);
	free(resp->body);
}

/* Whether s ends with suffix. */
static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

TEST(metrics_default_to_the_text_format)
{
	struct server srv;
	struct response resp;

	server_start(&srv, 0);
	resp = get(&srv, "/metrics", "");
	ASSERT_EQ(resp.status, 200);
	assert_header(&resp, "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	assert_header(&resp, "Vary", "Accept, Accept-Encoding");
	/* Rendered while sent: the length is not known up front. */
	assert_header(&resp, "Transfer-Encoding", "chunked");
	assert_no_header(&resp, "Content-Encoding");
	ASSERT_EQ(resp.body_len, strlen(resp.body));
	ASSERT_TRUE(
	    strstr(resp.body, "# TYPE cgroup_cpu_usage_seconds_total counter\n" ROOT_CPU_SAMPLE) !=
	    NULL);
	ASSERT_TRUE(strstr(resp.body, CHILD_MEMORY_SAMPLE) != NULL);
	ASSERT_TRUE(strstr(resp.body, "cgacct_build_info{version=\"9.9\"} 1\n") != NULL);
	ASSERT_TRUE(strstr(resp.body, "# EOF") == NULL);
	response_done(&resp);
	server_stop(&srv);
}

TEST(prometheus_accept_header_gets_openmetrics)
{
	struct server srv;
	struct response resp;

	server_start(&srv, 0);
	resp = get(&srv, "/metrics", "Accept: " PROMETHEUS_2_42_ACCEPT "\r\n");
	ASSERT_EQ(resp.status, 200);
	assert_header(&resp, "Content-Type",
		      "application/openmetrics-text; version=1.0.0; charset=utf-8");
	ASSERT_TRUE(
	    strstr(resp.body, "# TYPE cgroup_cpu_usage_seconds counter\n" ROOT_CPU_SAMPLE) != NULL);
	ASSERT_TRUE(ends_with(resp.body, resp.body_len, "\n# EOF\n"));
	response_done(&resp);
	server_stop(&srv);
}

TEST(gzip_when_asked_inflates_to_the_plain_body)
{
	struct server srv;
	struct response plain, gz;
	char *inflated;
	size_t len;

	server_start(&srv, 0);
	plain = get(&srv, "/metrics", "");
	gz = get(&srv, "/metrics", "Accept-Encoding: gzip\r\n");
	ASSERT_EQ(gz.status, 200);
	assert_header(&gz, "Content-Encoding", "gzip");
	assert_header(&gz, "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	ASSERT_TRUE(gz.body_len > 2 && (unsigned char)gz.body[0] == 0x1f &&
		    (unsigned char)gz.body[1] == 0x8b);
	inflated = malloc(plain.body_len + 1);
	ASSERT_TRUE(inflated != NULL);
	len = gunzip_whole(gz.body, gz.body_len, inflated, plain.body_len + 1);
	ASSERT_EQ(len, plain.body_len);
	ASSERT_TRUE(memcmp(inflated, plain.body, len) == 0);
	free(inflated);
	response_done(&plain);
	response_done(&gz);
	server_stop(&srv);
}

/* gzip_level 0: Prometheus asks for gzip on every scrape and gets plain text. */
TEST(gzip_level_0_answers_plain)
{
	const struct scrape_settings plain_only = {.min_interval_usec = 60 * 1000000ull};
	struct server srv;
	struct response resp;

	server_start(&srv, 0);
	scrape_configure(srv.scrape, &plain_only);
	resp = get(&srv, "/metrics", "Accept-Encoding: gzip\r\n");
	ASSERT_EQ(resp.status, 200);
	assert_no_header(&resp, "Content-Encoding");
	ASSERT_TRUE(strstr(resp.body, ROOT_CPU_SAMPLE) != NULL);
	response_done(&resp);
	server_stop(&srv);
}

TEST(unknown_paths_are_404)
{
	static const char *const paths[] = {"/nope", "/metrics/", "/metricsx", "/metrics%00x",
					    "/index.html"};
	struct server srv;

	server_start(&srv, 0);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		struct response resp = get(&srv, paths[i], "");

		if (resp.status != 404)
			fprintf(stderr, "%s: %u\n", paths[i], resp.status);
		ASSERT_EQ(resp.status, 404);
		assert_header(&resp, "Content-Type", "text/plain; charset=utf-8");
		ASSERT_STREQ(resp.body, "not found; metrics are at /metrics\n");
		response_done(&resp);
	}
	server_stop(&srv);
}

TEST(other_methods_are_405_with_allow)
{
	static const char *const lines[] = {"POST /metrics", "PUT /", "DELETE /nope"};
	struct server srv;

	server_start(&srv, 0);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct response resp = request(&srv, lines[i], "", "a=1");

		ASSERT_EQ(resp.status, 405);
		assert_header(&resp, "Allow", "GET, HEAD");
		ASSERT_EQ(resp.body_len, 0);
		response_done(&resp);
	}
	server_stop(&srv);
}

TEST(head_has_the_headers_of_get_and_no_body)
{
	struct server srv;
	struct response resp;

	server_start(&srv, 0);
	resp = request(&srv, "HEAD /metrics", "", NULL);
	ASSERT_EQ(resp.status, 200);
	assert_header(&resp, "Content-Type", "text/plain; version=0.0.4; charset=utf-8");
	assert_header(&resp, "Vary", "Accept, Accept-Encoding");
	/* no content at all, and the length GET's would have (RFC 9110 section 9.3.2) */
	ASSERT_EQ(resp.body_len, 0);
	{
		struct response got = get(&srv, "/metrics", "");
		char *length = header(&resp, "Content-Length"), expect[32];

		snprintf(expect, sizeof(expect), "%zu", got.body_len);
		ASSERT_TRUE(length != NULL);
		ASSERT_STREQ(length, expect);
		free(length);
		response_done(&got);
	}
	response_done(&resp);
	server_stop(&srv);
}

TEST(landing_page_is_html_of_the_same_collection)
{
	struct server srv;
	struct response resp;

	server_start(&srv, 0);
	resp = get(&srv, "/", "");
	ASSERT_EQ(resp.status, 200);
	assert_header(&resp, "Content-Type", LANDING_CONTENT_TYPE);
	ASSERT_TRUE(strncmp(resp.body, "<!DOCTYPE html>", 15) == 0);
	ASSERT_TRUE(strstr(resp.body, "<a href=\"/metrics\">/metrics</a>") != NULL);
	ASSERT_TRUE(strstr(resp.body, "cgacctd 9.9: 2 cgroups collected") != NULL);
	ASSERT_TRUE(strstr(resp.body, "title=\"/test.slice\">test.slice</td>") != NULL);
	response_done(&resp);
	server_stop(&srv);
}

TEST(failed_collection_is_500_with_the_reason)
{
	struct server srv;
	struct response resp;

	server_start(&srv, -EIO);
	resp = get(&srv, "/metrics", "");
	ASSERT_EQ(resp.status, 500);
	assert_header(&resp, "Content-Type", "text/plain; charset=utf-8");
	ASSERT_STREQ(resp.body, "collection failed: Input/output error\n");
	response_done(&resp);
	server_stop(&srv);
}

/* 401 with the challenge, and the web-config's headers, whatever was asked for. */
static void assert_unauthorized(const struct server *srv, const char *path, const char *headers)
{
	struct response resp = get(srv, path, headers);

	ASSERT_EQ(resp.status, 401);
	assert_header(&resp, "WWW-Authenticate", "Basic realm=\"cgacct\"");
	assert_header(&resp, "X-Frame-Options", "deny");
	ASSERT_STREQ(resp.body, "unauthorized\n");
	response_done(&resp);
}

TEST(basic_auth_guards_every_path)
{
	struct web_config *wc = NULL;
	struct config_error e = {0};
	struct server srv;
	struct response resp;

	ASSERT_EQ(web_config_load_buffer("web.yml", LIT(WEB_CONFIG_WITH_BOB), &wc, &e), 0);
	server_start(&srv, 0);
	ASSERT_EQ(http_server_serve(srv.http, wc, &srv.fd, 1), 0);

	assert_unauthorized(&srv, "/metrics", "");
	/* Nothing, not even which paths exist, is told without credentials. */
	assert_unauthorized(&srv, "/nope", "");
	assert_unauthorized(&srv, "/metrics",
			    "Authorization: Basic Ym9iOndyb25n\r\n"); /* bob:wrong */
	assert_unauthorized(&srv, "/metrics",
			    "Authorization: Basic bWFsbG9yeTpodW50ZXIy\r\n"); /* mallory:hunter2 */
	assert_unauthorized(&srv, "/metrics", "Authorization: Bearer Ym9iOmh1bnRlcjI=\r\n");

	resp = get(&srv, "/metrics", "Authorization: Basic Ym9iOmh1bnRlcjI=\r\n"); /* bob:hunter2 */
	ASSERT_EQ(resp.status, 200);
	assert_header(&resp, "X-Frame-Options", "deny");
	assert_no_header(&resp, "WWW-Authenticate");
	ASSERT_TRUE(strstr(resp.body, ROOT_CPU_SAMPLE) != NULL);
	response_done(&resp);
	resp = get(&srv, "/nope", "Authorization: Basic Ym9iOmh1bnRlcjI=\r\n");
	ASSERT_EQ(resp.status, 404);
	response_done(&resp);

	/* Back to no web-config: open again, and no extra headers. */
	ASSERT_EQ(http_server_serve(srv.http, NULL, &srv.fd, 1), 0);
	web_config_free(wc);
	resp = get(&srv, "/metrics", "");
	ASSERT_EQ(resp.status, 200);
	assert_no_header(&resp, "X-Frame-Options");
	response_done(&resp);
	server_stop(&srv);
}

TEST(host_header_is_required_once)
{
	struct server srv;
	struct response resp;

	server_start(&srv, 0);
	resp = exchange(&srv, "GET /metrics HTTP/1.1\r\nConnection: close\r\n\r\n");
	ASSERT_EQ(resp.status, 400);
	ASSERT_TRUE(strstr(resp.body, "Host") != NULL);
	response_done(&resp);
	resp = exchange(&srv, "GET /metrics HTTP/1.1\r\nHost: a\r\nHost: b\r\n"
			      "Connection: close\r\n\r\n");
	ASSERT_EQ(resp.status, 400);
	response_done(&resp);
	/* The name is case-insensitive: a second "host" is a second Host. */
	resp = exchange(&srv, "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n"
			      "Connection: close\r\n\r\n");
	ASSERT_EQ(resp.status, 400);
	response_done(&resp);
	/* HTTP/1.0 has no Host requirement; two are still one too many. */
	resp = exchange(&srv, "GET /metrics HTTP/1.0\r\n\r\n");
	ASSERT_EQ(resp.status, 200);
	response_done(&resp);
	resp = exchange(&srv, "GET /metrics HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n");
	ASSERT_EQ(resp.status, 400);
	response_done(&resp);
	resp = exchange(&srv, "GET /metrics HTTP/1.1\r\nhOST: a\r\nConnection: close\r\n\r\n");
	ASSERT_EQ(resp.status, 200);
	response_done(&resp);
	server_stop(&srv);
}

TEST(every_response_is_counted_by_status)
{
	struct server srv;
	struct response resp;
	struct strbuf stats = {0};

	server_start(&srv, 0);
	for (int i = 0; i < 2; i++) {
		resp = get(&srv, "/metrics", "");
		response_done(&resp);
	}
	resp = get(&srv, "/", "");
	response_done(&resp);
	resp = get(&srv, "/nope", "");
	response_done(&resp);
	resp = request(&srv, "POST /metrics", "", "");
	response_done(&resp);
	resp = exchange(&srv, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
	response_done(&resp);
	scrape_stats_render(&stats, RENDER_TEXT, scrape_stats(srv.scrape));
	ASSERT_TRUE(strstr(stats.buf, "cgacct_http_requests_total{code=\"200\"} 3\n"
				      "cgacct_http_requests_total{code=\"400\"} 1\n"
				      "cgacct_http_requests_total{code=\"401\"} 0\n"
				      "cgacct_http_requests_total{code=\"403\"} 0\n"
				      "cgacct_http_requests_total{code=\"404\"} 1\n"
				      "cgacct_http_requests_total{code=\"405\"} 1\n"
				      "cgacct_http_requests_total{code=\"408\"} 0\n"
				      "cgacct_http_requests_total{code=\"414\"} 0\n"
				      "cgacct_http_requests_total{code=\"429\"} 0\n"
				      "cgacct_http_requests_total{code=\"431\"} 0\n"
				      "cgacct_http_requests_total{code=\"500\"} 0\n") != NULL);
	/* Three scrapes within min_interval: one collection. */
	ASSERT_TRUE(strstr(stats.buf, "cgacct_collections_total 1\n") != NULL);
	strbuf_done(&stats);
	server_stop(&srv);
}
