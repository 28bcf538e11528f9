// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scrape benchmark's floor: the kernel's cost of producing the files a
 * collector reads. Opens, reads to EOF and closes each file of LIST (as
 * filespy logged them, "F /path"; other lines are ignored), in order, with
 * no parsing and no allocation while timed.
 *
 * Files are opened relative to their directory, and each directory is
 * opened once per pass, relative to its parent's when that is open (as
 * cgacctd's walk opens cgroups), else by its whole path: a pass pays for
 * one path component per directory, as cgacctd does, and never more.
 *
 * With "one-piece" a read that leaves room in the buffer ends the file, as
 * cgacctd reads cgroup files: this floor spares the read() that returns 0.
 * "warm" is one-piece without the cgroup.serial files: the files a warm
 * scrape reads, as cgacctd reads a cgroup's serial once and remembers it.
 *
 *   floor LIST ROUNDS [one-piece|warm]
 *
 * Prints "files N" and then one "ns T" line per round.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "now.h"

struct dir {
	char *path;
	long parent;	  /* index of the parent directory, -1 if not in the list */
	const char *name; /* the last component, for openat() from the parent */
	int fd;
};

struct file {
	long dir;
	char *name;
};

static char buf[1 << 16];
static struct dir *dirs;
static size_t n_dirs, cap_dirs;

/*
 * Directories by path: open addressing over FNV-1a of the whole path.
 * (glibc's hsearch() hashes only a path's last few bytes, and five v1
 * hierarchies of 10,000 cgroups made it crawl for hours.)
 */
#define SLOTS (1u << 21)
static long *slots; /* 1 + index into dirs, 0 empty */

static size_t slot_of(const char *path)
{
	uint64_t h = 14695981039346656037u;

	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * 1099511628211u;
	return (size_t)(h & (SLOTS - 1));
}

static void *grow(void *v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? 2 * *cap : 1024;
	v = realloc(v, *cap * size);
	if (!v)
		exit(1);
	return v;
}

/* The slot of path: the one holding it, or the empty one where it belongs. */
static long *dir_slot(const char *path)
{
	size_t s = slot_of(path);

	while (slots[s] && strcmp(dirs[slots[s] - 1].path, path) != 0)
		s = (s + 1) & (SLOTS - 1);
	return &slots[s];
}

/* The index of path among the directories, added if new (untimed). */
static long dir_index(const char *path)
{
	long *slot = dir_slot(path);
	char *slash;

	if (*slot)
		return *slot - 1;
	if (n_dirs + 1 >= SLOTS / 2)
		exit(1);
	dirs = grow(dirs, &cap_dirs, n_dirs, sizeof(*dirs));
	dirs[n_dirs] = (struct dir){.path = strdup(path), .parent = -1, .fd = -1};
	*slot = (long)n_dirs + 1;
	slash = strrchr(dirs[n_dirs].path, '/');
	if (slash && slash != dirs[n_dirs].path) {
		*slash = '\0';
		dirs[n_dirs].parent = *dir_slot(dirs[n_dirs].path) - 1;
		*slash = '/';
		dirs[n_dirs].name = slash + 1;
	}
	return (long)n_dirs++;
}

static size_t load(const char *list, int warm, struct file **ret)
{
	FILE *f = fopen(list, "re");
	struct file *v = NULL;
	size_t n = 0, cap = 0;
	char *line = NULL;
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
		if (warm && strcmp(slash + 1, "cgroup.serial") == 0)
			continue;
		v = grow(v, &cap, n, sizeof(*v));
		v[n].dir = dir_index(*path ? path : "/");
		v[n].name = strdup(slash + 1);
		n++;
	}
	free(line);
	fclose(f);
	*ret = v;
	return n;
}

static int dir_fd(long d)
{
	struct dir *x = &dirs[d];

	if (x->fd < 0)
		x->fd = x->parent >= 0 && dirs[x->parent].fd >= 0
			    ? openat(dirs[x->parent].fd, x->name, O_PATH | O_DIRECTORY | O_CLOEXEC)
			    : open(x->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return x->fd;
}

static void read_all(const struct file *v, size_t n, int one_piece)
{
	for (size_t i = 0; i < n; i++) {
		int fd = openat(dir_fd(v[i].dir), v[i].name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		ssize_t got;

		if (fd < 0)
			continue;
		do
			got = read(fd, buf, sizeof(buf));
		while (got == (ssize_t)sizeof(buf) || (!one_piece && got > 0));
		close(fd);
	}
	for (size_t d = 0; d < n_dirs; d++) {
		if (dirs[d].fd >= 0)
			close(dirs[d].fd);
		dirs[d].fd = -1;
	}
}

int main(int argc, char **argv)
{
	struct rlimit rl = {.rlim_cur = 1 << 20, .rlim_max = 1 << 20};
	int warm = argc == 4 && strcmp(argv[3], "warm") == 0;
	int one_piece = warm || (argc == 4 && strcmp(argv[3], "one-piece") == 0);
	struct file *v;
	size_t n;
	long rounds;

	if (argc < 3 || argc > 4 || (argc == 4 && !one_piece) || (rounds = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: floor LIST ROUNDS [one-piece|warm]\n");
		return 2;
	}
	slots = calloc(SLOTS, sizeof(*slots));
	if (!slots)
		return 1;
	n = load(argv[1], warm, &v);
	/* every directory of the tree stays open for a pass (root may raise the limit) */
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0 && getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur < n_dirs + 16) {
		fprintf(stderr, "floor: %zu directories, but only %llu open files\n", n_dirs,
			(unsigned long long)rl.rlim_cur);
		return 1;
	}
	printf("files %zu\n", n);
	for (long r = 0; r < rounds; r++) {
		unsigned long long start = now_ns();

		read_all(v, n, one_piece);
		printf("ns %llu\n", now_ns() - start);
	}
	return 0;
}
