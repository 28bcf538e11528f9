// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scrape benchmark's floor: the kernel's cost of producing the files a
 * collector reads. Opens, reads to EOF and closes each file of LIST (as
 * filespy logged them, "F /path"; other lines are ignored), in order, with
 * no parsing and no allocation while timed. Files are opened relative to
 * their directory, as cgacctd does, so path lookup costs the same.
 *
 * With "one-piece" a read that leaves room in the buffer ends the file, as
 * cgacctd reads cgroup files: this floor spares the read() that returns 0.
 *
 *   floor LIST ROUNDS [one-piece]
 *
 * Prints "files N" and then one "ns T" line per round.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct entry {
	char *dir; /* NULL: same directory as the entry before */
	char *name;
};

static char buf[1 << 16];

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static size_t load(const char *list, struct entry **ret)
{
	FILE *f = fopen(list, "re");
	struct entry *v = NULL;
	size_t n = 0, cap = 0;
	char *line = NULL, *last_dir = NULL;
	size_t line_cap = 0;
	ssize_t len;

	if (!f) {
		perror(list);
		exit(1);
	}
	while ((len = getline(&line, &line_cap, f)) > 0) {
		char *path = line + 2, *slash;

		if (strncmp(line, "F /", 3) != 0)
			continue;
		path[strcspn(path, "\n")] = '\0';
		slash = strrchr(path, '/');
		*slash = '\0';
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				exit(1);
		}
		v[n].dir = NULL;
		if (!last_dir || strcmp(last_dir, path) != 0)
			last_dir = v[n].dir = strdup(*path ? path : "/");
		v[n].name = strdup(slash + 1);
		n++;
	}
	free(line);
	fclose(f);
	*ret = v;
	return n;
}

static void read_all(const struct entry *v, size_t n, int one_piece)
{
	int dirfd = -1;

	for (size_t i = 0; i < n; i++) {
		ssize_t got;
		int fd;

		if (v[i].dir) {
			if (dirfd >= 0)
				close(dirfd);
			dirfd = open(v[i].dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		}
		fd = openat(dirfd, v[i].name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			continue;
		do
			got = read(fd, buf, sizeof(buf));
		while (got == (ssize_t)sizeof(buf) || (!one_piece && got > 0));
		close(fd);
	}
	if (dirfd >= 0)
		close(dirfd);
}

int main(int argc, char **argv)
{
	struct entry *v;
	size_t n;
	long rounds;
	int one_piece = argc == 4 && strcmp(argv[3], "one-piece") == 0;

	if (argc < 3 || argc > 4 || (argc == 4 && !one_piece) || (rounds = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: floor LIST ROUNDS [one-piece]\n");
		return 2;
	}
	n = load(argv[1], &v);
	printf("files %zu\n", n);
	for (long r = 0; r < rounds; r++) {
		unsigned long long start = now_ns();

		read_all(v, n, one_piece);
		printf("ns %llu\n", now_ns() - start);
	}
	return 0;
}
