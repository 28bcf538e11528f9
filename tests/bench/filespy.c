// SPDX-License-Identifier: GPL-2.0-only
/*
 * An LD_PRELOAD shim that logs every file a program opens, so the scrape
 * benchmark knows exactly which files cgacctd and its peer read: the floor
 * replays cgacctd's list, and the files per cgroup of each are counted from
 * theirs. Nothing in cgacctd knows about it.
 *
 *   FILESPY_LOG=FILE LD_PRELOAD=filespy.so PROGRAM...
 *
 * One line per open: "F PATH" a file opened, "D PATH" a directory (listed
 * or used as a base), "M PATH" an open that failed (absent file). PATH is
 * absolute, resolved through /proc/self/fd for *at() calls.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int log_fd = -1;

static void spy_init(void)
{
	static int (*real_open)(const char *, int, ...);
	const char *file;

	if (log_fd >= 0)
		return;
	file = getenv("FILESPY_LOG");
	if (!file)
		return;
	if (!real_open)
		real_open = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
	log_fd = real_open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

static void spy_log(int dirfd, const char *name, int fd)
{
	char line[2 * PATH_MAX + 8], base[PATH_MAX] = "";
	struct stat st;
	char kind = 'M';
	int n;

	spy_init();
	if (log_fd < 0)
		return;
	if (name[0] != '/') {
		char link[64];
		ssize_t len;

		if (dirfd == AT_FDCWD)
			snprintf(link, sizeof(link), "/proc/self/cwd");
		else
			snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
		len = readlink(link, base, sizeof(base) - 1);
		base[len > 0 ? len : 0] = '\0';
	}
	if (fd >= 0)
		kind = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) ? 'D' : 'F';
	n = snprintf(line, sizeof(line), "%c %s%s%s\n", kind, base, base[0] ? "/" : "", name);
	if (n > 0 && write(log_fd, line, (size_t)n) < 0)
		return;
}

/* The next definition of a libc function, looked up once. */
#define REAL(name)                                                                                 \
	static __typeof__(name) *real_##name;                                                      \
	if (!real_##name)                                                                          \
	real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
}

int openat(int dirfd, const char *name, int flags, ...)
{
	REAL(openat);
	va_list ap;
	mode_t mode;
	int fd;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	fd = real_openat(dirfd, name, flags, mode);
	spy_log(dirfd, name, fd);
	return fd;
}

int openat64(int dirfd, const char *name, int flags, ...) __attribute__((alias("openat")));

/* Through openat(), which resolves and logs. */
int open(const char *name, int flags, ...)
{
	va_list ap;
	mode_t mode;

	va_start(ap, flags);
	mode = mode_arg(flags, ap);
	va_end(ap);
	return openat(AT_FDCWD, name, flags, mode);
}

int open64(const char *name, int flags, ...) __attribute__((alias("open")));

FILE *fopen(const char *name, const char *mode)
{
	REAL(fopen);
	FILE *f = real_fopen(name, mode);

	spy_log(AT_FDCWD, name, f ? fileno(f) : -1);
	return f;
}

FILE *fopen64(const char *name, const char *mode) __attribute__((alias("fopen")));

DIR *opendir(const char *name)
{
	REAL(opendir);
	DIR *d = real_opendir(name);

	spy_log(AT_FDCWD, name, d ? dirfd(d) : -1);
	return d;
}
