// SPDX-License-Identifier: GPL-2.0
/*
 * A hackbench-style scheduler workload: groups of sender and receiver
 * processes that pass small messages through pipes, so that almost all of
 * the time goes to wakeups, context switches and the accounting on those
 * paths.  Prints the elapsed wall-clock time in seconds.
 *
 *   schedbench GROUPS LOOPS
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FDS_PER_GROUP	10	/* senders and receivers in each group */
#define MESSAGE_SIZE	100

static void fail(const char *what)
{
	perror(what);
	exit(1);
}

/* A positive decimal count, or 0 when @s is anything else. */
static long parse_count(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0)
		return 0;
	return v;
}

static void full_write(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fail("write");
		buf += n;
		len -= (size_t)n;
	}
}

static void receiver(int fd, long messages)
{
	char buf[MESSAGE_SIZE];
	long bytes = messages * MESSAGE_SIZE;

	while (bytes > 0) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			fail("read");
		bytes -= n;
	}
	_exit(0);
}

static void sender(const int *fds, long loops)
{
	char msg[MESSAGE_SIZE] = { 0 };
	long i;
	int r;

	for (i = 0; i < loops; i++)
		for (r = 0; r < FDS_PER_GROUP; r++)
			full_write(fds[r], msg, sizeof(msg));
	_exit(0);
}

/* Start one group; returns the number of children started. */
static int start_group(long loops)
{
	int out[FDS_PER_GROUP];
	int i, children = 0;

	for (i = 0; i < FDS_PER_GROUP; i++) {
		int fds[2];
		pid_t pid;

		if (pipe(fds))
			fail("pipe");
		pid = fork();
		if (pid < 0)
			fail("fork");
		if (pid == 0) {
			close(fds[1]);
			receiver(fds[0], loops * FDS_PER_GROUP);
		}
		close(fds[0]);
		out[i] = fds[1];
		children++;
	}
	for (i = 0; i < FDS_PER_GROUP; i++) {
		pid_t pid = fork();

		if (pid < 0)
			fail("fork");
		if (pid == 0)
			sender(out, loops);
		children++;
	}
	for (i = 0; i < FDS_PER_GROUP; i++)
		close(out[i]);
	return children;
}

int main(int argc, char **argv)
{
	struct timespec start, end;
	long groups, loops, g;
	int children = 0, status;

	if (argc != 3 || !(groups = parse_count(argv[1])) ||
	    !(loops = parse_count(argv[2]))) {
		fprintf(stderr, "usage: schedbench GROUPS LOOPS\n");
		return 2;
	}

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (g = 0; g < groups; g++)
		children += start_group(loops);
	while (children--) {
		if (wait(&status) < 0)
			fail("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &end);

	printf("%.6f\n", (double)(end.tv_sec - start.tv_sec) +
				 (end.tv_nsec - start.tv_nsec) / 1e9);
	return 0;
}
