/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading whole cgroupfs/sysfs files relative to a directory fd. Every reader
 * goes through here so that "file absent" and "cgroup removed" surface as
 * plain -errno values the callers can classify.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "fileio.h"
#include "util.h"

/*
 * Reads until EOF rather than trusting st_size: seq_file-backed cgroup files
 * report 0 or 4096 whatever their content. The result is NUL-terminated for
 * convenience, but parsers only look at (buf, len).
 */
int read_file_at(int dirfd, const char *name, char **ret, size_t *ret_len)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 4096;

	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;

	buf = malloc(cap);
	if (!buf)
		return -ENOMEM;

	for (;;) {
		ssize_t n;

		if (len + 1 >= cap) {
			char *bigger;

			if (cap >= READ_FILE_MAX)
				return -EFBIG;
			cap *= 2;
			bigger = realloc(buf, cap);
			if (!bigger)
				return -ENOMEM;
			buf = bigger;
		}

		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}

	buf[len] = '\0';
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}

/* A DIR stream for dirfd that leaves dirfd itself open (fdopendir would take it). */
int opendir_at(int dirfd, DIR **ret)
{
	_cleanup_close_ int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d)
		return -errno;
	TAKE_FD(fd);
	*ret = d;
	return 0;
}
