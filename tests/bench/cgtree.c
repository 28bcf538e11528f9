// SPDX-License-Identifier: GPL-2.0-only
/*
 * Builds and tears down the scrape benchmark's cgroup tree, the same in
 * every hierarchy given, so that on v1 one logical cgroup exists in each
 * controller's hierarchy as systemd lays them out.
 *
 *   cgtree make N DIR...      N cgroups below each DIR, some with a task
 *   cgtree prune N K DIR...   remove K task-free leaves (the newest first)
 *   cgtree rm N DIR...        kill the tasks, remove the whole tree
 *
 * Shape: cgroup k (1..N) is "c<k>" under cgroup (k-1)/10, 0 being DIR:
 * a complete 10-ary tree, so depths are mixed (at N = 10,000: 10 at depth
 * 1, 100 at 2, 1,000 at 3, 8,889 at 4). Interior cgroups enable every
 * controller they have for their children (v2); every 50th leaf gets a
 * sleeping task, so tasks sit at several depths. A C program and not a
 * shell loop because a fork per mkdir would dominate under TCG.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FANOUT	   10
#define TASK_EVERY 50
#define PATH_LEN   256

static long n_groups;

static void die(const char *what, const char *path)
{
	fprintf(stderr, "cgtree: %s %s: %s\n", what, path, strerror(errno));
	exit(1);
}

/* The path of cgroup k below dir: the chain of its ancestors' names. */
static void group_path(const char *dir, long k, char path[PATH_LEN])
{
	char tail[PATH_LEN] = "";

	for (; k > 0; k = (k - 1) / FANOUT) {
		char part[PATH_LEN];

		snprintf(part, sizeof(part), "/c%ld%s", k, tail);
		snprintf(tail, sizeof(tail), "%s", part);
	}
	snprintf(path, PATH_LEN, "%s%s", dir, tail);
}

static int is_leaf(long k)
{
	return k * FANOUT + 1 > n_groups;
}

static int has_task(long k)
{
	return is_leaf(k) && k % TASK_EVERY == 0;
}

static void write_file(const char *dir, const char *name, const char *value)
{
	char path[PATH_LEN + 32];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, value, strlen(value)) < 0)
		die("write", path);
	close(fd);
}

/* v2: hand every controller of the cgroup on to its children. */
static void enable_controllers(const char *path)
{
	char file[PATH_LEN + 32], list[512], *save = NULL;
	ssize_t n;
	int fd;

	snprintf(file, sizeof(file), "%s/cgroup.controllers", path);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return; /* v1: nothing to enable */
	n = read(fd, list, sizeof(list) - 1);
	close(fd);
	if (n <= 0)
		return;
	list[n] = '\0';
	for (char *c = strtok_r(list, " \n", &save); c; c = strtok_r(NULL, " \n", &save)) {
		char plus[64];

		snprintf(plus, sizeof(plus), "+%s", c);
		write_file(path, "cgroup.subtree_control", plus);
	}
}

/* A sleeping task in cgroup k of every hierarchy. */
static void start_task(char **dirs, int n_dirs, long k)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork", "");
	if (pid > 0)
		return;
	for (int d = 0; d < n_dirs; d++) {
		char path[PATH_LEN];

		group_path(dirs[d], k, path);
		write_file(path, "cgroup.procs", "0");
	}
	setsid();
	for (;;)
		pause();
}

static void make(char **dirs, int n_dirs)
{
	for (int d = 0; d < n_dirs; d++)
		enable_controllers(dirs[d]);
	for (long k = 1; k <= n_groups; k++) {
		for (int d = 0; d < n_dirs; d++) {
			char path[PATH_LEN];

			group_path(dirs[d], k, path);
			if (mkdir(path, 0755) < 0)
				die("mkdir", path);
			if (!is_leaf(k))
				enable_controllers(path);
		}
		if (has_task(k))
			start_task(dirs, n_dirs, k);
	}
}

/* Kills every task in the cgroup (found through its cgroup.procs). */
static void kill_tasks(const char *path)
{
	char file[PATH_LEN + 32];
	FILE *f;
	long pid;

	snprintf(file, sizeof(file), "%s/cgroup.procs", path);
	f = fopen(file, "re");
	if (!f)
		return;
	while (fscanf(f, "%ld", &pid) == 1)
		kill((pid_t)pid, SIGKILL);
	fclose(f);
}

/* rmdir that waits for killed tasks to leave (rmdir says EBUSY until then). */
static void remove_group(const char *path)
{
	for (int tries = 0; rmdir(path) < 0; tries++) {
		if (errno == ENOENT)
			return;
		if (errno != EBUSY || tries > 1000)
			die("rmdir", path);
		kill_tasks(path);
		usleep(10000);
	}
}

/* Leaves without tasks, newest first, skipping those an earlier prune removed. */
static void prune(char **dirs, int n_dirs, long count)
{
	for (long k = n_groups; k > 0 && count > 0; k--) {
		char first[PATH_LEN];

		group_path(dirs[0], k, first);
		if (!is_leaf(k) || has_task(k) || access(first, F_OK) < 0)
			continue;
		for (int d = 0; d < n_dirs; d++) {
			char path[PATH_LEN];

			group_path(dirs[d], k, path);
			remove_group(path);
		}
		count--;
	}
}

/* Children before parents: the reverse of creation order. */
static void remove_all(char **dirs, int n_dirs)
{
	for (long k = n_groups; k > 0; k--)
		for (int d = 0; d < n_dirs; d++) {
			char path[PATH_LEN];

			group_path(dirs[d], k, path);
			remove_group(path);
		}
}

static long count_arg(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v < 0) {
		fprintf(stderr, "cgtree: not a count: %s\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	if (argc >= 4)
		n_groups = count_arg(argv[2]);
	if (argc >= 4 && strcmp(argv[1], "make") == 0)
		make(argv + 3, argc - 3);
	else if (argc >= 5 && strcmp(argv[1], "prune") == 0)
		prune(argv + 4, argc - 4, count_arg(argv[3]));
	else if (argc >= 4 && strcmp(argv[1], "rm") == 0)
		remove_all(argv + 3, argc - 3);
	else {
		fprintf(stderr, "usage: cgtree make|rm N DIR... | cgtree prune N K DIR...\n");
		return 2;
	}
	return 0;
}
