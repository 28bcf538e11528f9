/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

#include <errno.h>
#include <stddef.h>

/* Upper bound for one cgroup/sysfs file; memory.stat and io.stat are far below. */
#define READ_FILE_MAX (16u << 20)

#include <dirent.h>

/* A read buffer reused from file to file: grows to the largest, never shrinks. */
struct readbuf {
	char *data;
	size_t cap;
};

/* A cgroup control file or sysfs attribute, which the kernel hands out in one piece. */
int read_file_into(int dirfd, const char *name, struct readbuf *rb, size_t *ret_len);
/* The same for a cgroup file just opened, and again for one kept open (from offset 0). */
int read_fd_into(int fd, struct readbuf *rb, size_t *ret_len);
int reread_fd_into(int fd, struct readbuf *rb, size_t *ret_len);
void readbuf_done(struct readbuf *rb);
/* Any file, read to EOF, into a new buffer. */
int read_file_at(int dirfd, const char *name, char **ret, size_t *ret_len);

/*
 * What read_regular_file() returns for a FIFO, a device, a socket or a
 * directory: reading one could block forever or never end.
 */
#define ERR_NOT_REGULAR EMEDIUMTYPE

/* A regular file, read to EOF into a new buffer; -ERR_NOT_REGULAR for anything else. */
int read_regular_file(const char *path, char **ret, size_t *ret_len);
int opendir_at(int dirfd, DIR **ret);
