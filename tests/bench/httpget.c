// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scrape benchmark's client: GET a path from 127.0.0.1:PORT ROUNDS
 * times, each on a new connection as Prometheus does, reading the whole
 * response. With "gzip" it asks for a compressed body.
 *
 *   httpget PORT PATH ROUNDS [gzip]
 *
 * Prints one "ns T body B status S" line per round: wall time from connect
 * to the last byte, and the body's size in bytes.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static char buf[1 << 16];

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

/* The response's status code and body size; the header is never larger than buf. */
static int get(int port, const char *path, int gzip, unsigned long long *ret_body)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	unsigned long long total = 0, header = 0;
	char req[512];
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
		     gzip ? "Accept-Encoding: gzip\r\n" : "");
	if (write(fd, req, (size_t)n) != n) {
		perror("write");
		exit(1);
	}
	while ((got = read(fd, buf, sizeof(buf) - 1)) > 0) {
		if (!header) {
			char *end;

			buf[got] = '\0';
			sscanf(buf, "HTTP/1.%*d %d", &status);
			end = strstr(buf, "\r\n\r\n");
			if (end)
				header = (unsigned long long)(end + 4 - buf);
		}
		total += (unsigned long long)got;
	}
	close(fd);
	*ret_body = total - header;
	return status;
}

int main(int argc, char **argv)
{
	int port, gzip;
	long rounds;

	if (argc < 4 || argc > 5 || (port = atoi(argv[1])) <= 0 || (rounds = atol(argv[3])) <= 0) {
		fprintf(stderr, "usage: httpget PORT PATH ROUNDS [gzip]\n");
		return 2;
	}
	gzip = argc == 5 && strcmp(argv[4], "gzip") == 0;
	for (long r = 0; r < rounds; r++) {
		unsigned long long start = now_ns(), body;
		int status = get(port, argv[2], gzip, &body);

		printf("ns %llu body %llu status %d\n", now_ns() - start, body, status);
	}
	return 0;
}
