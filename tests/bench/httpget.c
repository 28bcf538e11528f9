// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scrape benchmark's client: GET a path from 127.0.0.1:PORT ROUNDS
 * times, each on a new connection, reading the whole response.
 *
 *   httpget PORT PATH ROUNDS [plain|gzip|prom [FILE]]
 *
 * plain (the default) sends no Accept or Accept-Encoding header; gzip asks
 * for a compressed body; prom sends the request headers of Debian's
 * Prometheus 2.42 at its default scrape_timeout of 10s: its Accept (the
 * OpenMetrics text first, then the text format), Accept-Encoding: gzip,
 * its User-Agent and X-Prometheus-Scrape-Timeout-Seconds.
 *
 * Prints one "ns T body B status S type CT enc CE" line per round: wall
 * time from connect to the last byte, the body's size in bytes as sent
 * (chunk framing included, a few bytes per 64 KiB), the status code, the
 * Content-Type with its spaces removed and the Content-Encoding
 * ("identity" without one); both are read from the header after the clock
 * stops. With FILE, the last round's body, de-chunked but not
 * decompressed, is also written to FILE; keeping it in memory costs that
 * round time, so time the rounds without FILE.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "now.h"

/* Prometheus 2.42's scrapeAcceptHeader (scrape/scrape.go), as it sends it. */
#define PROM_ACCEPT                                                                                \
	"application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;"   \
	"q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
#define PROM_HEADERS                                                                               \
	"Accept: " PROM_ACCEPT "\r\n"                                                              \
	"Accept-Encoding: gzip\r\n"                                                                \
	"User-Agent: Prometheus/2.42.0+ds\r\n"                                                     \
	"X-Prometheus-Scrape-Timeout-Seconds: 10\r\n"

enum mode { PLAIN, GZIP, PROM };

static const char *const mode_headers[] = {
    [PLAIN] = "",
    [GZIP] = "Accept-Encoding: gzip\r\n",
    [PROM] = PROM_HEADERS,
};

static char buf[1 << 16];
static char head[8192]; /* the response header, NUL-terminated */

/* The whole response after the header, when the body is kept. */
struct saved {
	char *data;
	size_t len, cap;
};

static void keep(struct saved *s, const char *data, size_t len)
{
	if (s->len + len > s->cap) {
		s->cap = (s->len + len) * 2;
		s->data = realloc(s->data, s->cap);
		if (!s->data) {
			perror("realloc");
			exit(1);
		}
	}
	memcpy(s->data + s->len, data, len);
	s->len += len;
}

/*
 * The response's status code and body size; the header is never larger than
 * buf and arrives in the first read. With save, the bytes after the header
 * are kept in *save.
 */
static int get(int port, const char *path, enum mode mode, unsigned long long *ret_body,
	       struct saved *save)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	unsigned long long total = 0, header = 0;
	char req[1024];
	int fd, n, status = 0;
	ssize_t got;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		perror("connect");
		exit(1);
	}
	n = snprintf(req, sizeof(req),
		     "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%sConnection: close\r\n\r\n", path,
		     mode_headers[mode]);
	if (write(fd, req, (size_t)n) != n) {
		perror("write");
		exit(1);
	}
	head[0] = '\0';
	while ((got = read(fd, buf, sizeof(buf) - 1)) > 0) {
		unsigned long long skip = 0;

		if (!header) {
			char *end;

			buf[got] = '\0';
			sscanf(buf, "HTTP/1.%*d %d", &status);
			end = strstr(buf, "\r\n\r\n");
			if (end) {
				header = (unsigned long long)(end + 4 - buf);
				skip = header;
				if (header < sizeof(head)) {
					memcpy(head, buf, header);
					head[header] = '\0';
				}
			}
		}
		if (save && header)
			keep(save, buf + skip, (size_t)got - skip);
		total += (unsigned long long)got;
	}
	close(fd);
	*ret_body = total - header;
	return status;
}

/* The value of header field name in head, spaces removed, into out. */
static void header_value(const char *name, const char *fallback, char *out, size_t cap)
{
	size_t len = strlen(name), n = 0;

	for (const char *line = strstr(head, "\r\n"); line && line[2];
	     line = strstr(line + 2, "\r\n")) {
		const char *v = line + 2;

		if (strncasecmp(v, name, len) != 0 || v[len] != ':')
			continue;
		for (v += len + 1; *v && *v != '\r' && n + 1 < cap; v++)
			if (*v != ' ' && *v != '\t')
				out[n++] = *v;
		out[n] = '\0';
		if (n)
			return;
		break;
	}
	snprintf(out, cap, "%s", fallback);
}

/* Removes HTTP/1.1 chunk framing in place; false if s is not well chunked. */
static bool dechunk(struct saved *s)
{
	size_t in = 0, out = 0;

	for (;;) {
		char *end;
		unsigned long long size;

		if (in >= s->len)
			return false;
		size = strtoull(s->data + in, &end, 16);
		end = memmem(end, s->len - (size_t)(end - s->data), "\r\n", 2);
		if (!end)
			return false;
		in = (size_t)(end - s->data) + 2;
		if (size == 0)
			break;
		if (size > s->len - in)
			return false;
		memmove(s->data + out, s->data + in, size);
		out += size;
		in += size + 2;
	}
	s->len = out;
	return true;
}

static void save_body(const char *file, struct saved *s)
{
	char te[64];
	FILE *f;

	header_value("Transfer-Encoding", "identity", te, sizeof(te));
	if (strcasecmp(te, "chunked") == 0 && !dechunk(s)) {
		fprintf(stderr, "httpget: malformed chunked body\n");
		exit(1);
	}
	f = fopen(file, "w");
	if (!f || fwrite(s->data, 1, s->len, f) != s->len || fclose(f) != 0) {
		perror(file);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	struct saved saved = {0};
	const char *file = NULL;
	enum mode mode = PLAIN;
	int port;
	long rounds;

	if (argc < 4 || argc > 6 || (port = atoi(argv[1])) <= 0 || (rounds = atol(argv[3])) <= 0)
		goto usage;
	if (argc >= 5) {
		if (strcmp(argv[4], "plain") == 0)
			mode = PLAIN;
		else if (strcmp(argv[4], "gzip") == 0)
			mode = GZIP;
		else if (strcmp(argv[4], "prom") == 0)
			mode = PROM;
		else
			goto usage;
	}
	if (argc == 6)
		file = argv[5];
	for (long r = 0; r < rounds; r++) {
		unsigned long long start = now_ns(), body, ns;
		bool last = r == rounds - 1;
		int status;
		char type[256], enc[64];

		saved.len = 0;
		status = get(port, argv[2], mode, &body, file && last ? &saved : NULL);
		ns = now_ns() - start;
		header_value("Content-Type", "-", type, sizeof(type));
		header_value("Content-Encoding", "identity", enc, sizeof(enc));
		printf("ns %llu body %llu status %d type %s enc %s\n", ns, body, status, type, enc);
	}
	if (file)
		save_body(file, &saved);
	return 0;
usage:
	fprintf(stderr, "usage: httpget PORT PATH ROUNDS [plain|gzip|prom [FILE]]\n");
	return 2;
}
