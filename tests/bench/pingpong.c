// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scheduler's hot path in a loop, for the BPF wait benchmark: two
 * processes hand one byte back and forth over two pipes ROUNDTRIPS times,
 * each handoff a wakeup and a context switch; prints the mean
 * nanoseconds per round trip, which a guest under --icount counts in
 * instructions.
 *
 *   pingpong ROUNDTRIPS
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "now.h"

int main(int argc, char **argv)
{
	int ping[2], pong[2];
	unsigned long long start;
	long n;
	char c = 0;
	pid_t pid;

	if (argc != 2 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: pingpong ROUNDTRIPS\n");
		return 2;
	}
	if (pipe(ping) < 0 || pipe(pong) < 0)
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (long i = 0; i < n; i++)
			if (read(ping[0], &c, 1) != 1 || write(pong[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	start = now_ns();
	for (long i = 0; i < n; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return 1;
	printf("%.1f\n", (double)(now_ns() - start) / (double)n);
	return waitpid(pid, NULL, 0) == pid ? 0 : 1;
}
