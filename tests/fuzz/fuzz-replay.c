/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Replay main for builds without libFuzzer: feeds every file named on the
 * command line (directories: every file in them) to the fuzz target once,
 * so the checked-in corpus runs as an ordinary meson test.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fileio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(int dirfd, const char *name)
{
	char *buf;
	size_t len;
	int r = read_file_at(dirfd, name, &buf, &len);

	if (r < 0) {
		fprintf(stderr, "%s: %s\n", name, strerror(-r));
		return 1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
	free(buf);
	return 0;
}

static int replay_dir(const char *path, size_t *count)
{
	DIR *d = opendir(path);
	int failed = 0;

	if (!d) {
		(*count)++;
		return replay_file(AT_FDCWD, path);
	}
	for (struct dirent *de; (de = readdir(d));) {
		if (de->d_name[0] == '.')
			continue;
		failed |= replay_file(dirfd(d), de->d_name);
		(*count)++;
	}
	closedir(d);
	return failed;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	int failed = 0;

	for (int i = 1; i < argc; i++)
		failed |= replay_dir(argv[i], &count);
	printf("replayed %zu inputs\n", count);
	return failed || count == 0;
}
