// SPDX-License-Identifier: GPL-2.0-only
/*
 * Times a command, for the scrape benchmark's peer: runs it ROUNDS times
 * with its output discarded and prints one "ns T maxrss_kib R status S"
 * line per round (wall time from fork to exit, the child's peak RSS).
 *
 *   timeit ROUNDS COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "now.h"

int main(int argc, char **argv)
{
	long rounds;

	if (argc < 3 || (rounds = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: timeit ROUNDS COMMAND [ARG...]\n");
		return 2;
	}
	for (long r = 0; r < rounds; r++) {
		unsigned long long start = now_ns();
		struct rusage ru;
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, STDOUT_FILENO);
			execvp(argv[2], argv + 2);
			perror(argv[2]);
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0) {
			perror("wait4");
			return 1;
		}
		printf("ns %llu maxrss_kib %ld status %d\n", now_ns() - start, ru.ru_maxrss,
		       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	}
	return 0;
}
