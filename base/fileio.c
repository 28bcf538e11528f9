/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading whole cgroupfs/sysfs files relative to a directory fd. Every reader
 * goes through here so that "file absent" and "cgroup removed" surface as
 * plain -errno values the callers can classify.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/util.h"

/*
 * st_size is no guide: seq_file-backed cgroup files report 0 or 4096
 * whatever their content. The result is NUL-terminated for convenience, but
 * parsers only look at (buf, len). The buffer keeps its size across reads,
 * so a collection reading ~30 files per cgroup does not allocate for each.
 *
 * With one_piece, a read that leaves room in the buffer is taken as the
 * whole file, which saves the second read() that would only return 0. That
 * holds for cgroup control files and sysfs attributes: kernfs generates the
 * whole content as one seq_file record before copying any of it out, and a
 * record never splits across reads except where the reader's buffer is
 * full. Multi-record files (/proc/self/mountinfo, cgroup.procs) can stop
 * short at a page boundary and must be read to EOF. For regular files a
 * short read is EOF anyway.
 *
 * With at_zero the reads are preads from offset 0: seq_file starts over
 * when asked for offset 0, so a file kept open is read afresh without
 * being opened again.
 */
static int read_fd(int fd, struct readbuf *rb, bool one_piece, bool at_zero, size_t *ret_len)
{
	size_t len = 0;

	for (;;) {
		size_t room;
		ssize_t n;

		if (len + 1 >= rb->cap) {
			size_t cap = rb->cap ? rb->cap * 2 : 4096;
			char *bigger;

			if (cap > READ_FILE_MAX)
				return -EFBIG;
			bigger = realloc(rb->data, cap);
			if (!bigger)
				return -ENOMEM;
			rb->data = bigger;
			rb->cap = cap;
		}

		room = rb->cap - len - 1;
		n = at_zero ? pread(fd, rb->data + len, room, (off_t)len)
			    : read(fd, rb->data + len, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		len += (size_t)n;
		if (n == 0 || (one_piece && (size_t)n < room))
			break;
	}

	rb->data[len] = '\0';
	*ret_len = len;
	return 0;
}

int read_file_into(int dirfd, const char *name, struct readbuf *rb, size_t *ret_len)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	assert(rb && ret_len);
	if (fd < 0)
		return -errno;
	return read_fd_into(fd, rb, ret_len);
}

int read_fd_into(int fd, struct readbuf *rb, size_t *ret_len)
{
	return read_fd(fd, rb, true, false, ret_len);
}

int reread_fd_into(int fd, struct readbuf *rb, size_t *ret_len)
{
	return read_fd(fd, rb, true, true, ret_len);
}

void readbuf_done(struct readbuf *rb)
{
	free(rb->data);
	*rb = (struct readbuf){0};
}

/* All of fd, from where it stands, into a new buffer of its own. */
static int read_all(int fd, char **ret, size_t *ret_len)
{
	struct readbuf rb = {0};
	int r = read_fd(fd, &rb, false, false, ret_len);

	if (r < 0) {
		readbuf_done(&rb);
		return r;
	}
	*ret = rb.data;
	return 0;
}

int read_file_at(int dirfd, const char *name, char **ret, size_t *ret_len)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	assert(ret && ret_len);
	if (fd < 0)
		return -errno;
	return read_all(fd, ret, ret_len);
}

int read_regular_file(const char *path, char **ret, size_t *ret_len)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer before fstat() tells */
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;

	assert(ret && ret_len);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ERR_NOT_REGULAR;
	return read_all(fd, ret, ret_len);
}

/*
 * A DIR stream over dirfd's directory that leaves dirfd itself open
 * (fdopendir would take it). A dup shares the file but costs no path lookup
 * and no new open file, unlike opening "." again, and the walk lists every
 * cgroup; the shared offset is rewound, since the fd may have been listed
 * before.
 */
int opendir_at(int dirfd, DIR **ret)
{
	_cleanup_close_ int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	DIR *d;

	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d)
		return -errno;
	TAKE_FD(fd);
	*ret = d;
	return 0;
}
