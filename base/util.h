/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small helpers every file uses: scope-bound cleanup (so error paths cannot
 * leak fds or memory), array sizing and growth, and telling a vanished
 * cgroup's errno. Header-only and inline: most are one-liners, and
 * array_grow() returns at once on the common call, when there is room.
 */
#pragma once

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(f) __attribute__((cleanup(f)))

static inline void freep(void *p)
{
	free(*(void **)p);
}

static inline void closep(int *fd)
{
	if (*fd >= 0)
		close(*fd);
}

static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

static inline void fclosep(FILE **f)
{
	if (*f)
		fclose(*f);
}

#define _cleanup_free_	   _cleanup_(freep)
#define _cleanup_close_	   _cleanup_(closep)
#define _cleanup_closedir_ _cleanup_(closedirp)
#define _cleanup_fclose_   _cleanup_(fclosep)

/* Hand ownership out of a _cleanup_ variable. __extension__ keeps -Wpedantic quiet. */
#define TAKE_PTR(p)                                                                                \
	__extension__({                                                                            \
		__typeof__(p) _taken = (p);                                                        \
		(p) = NULL;                                                                        \
		_taken;                                                                            \
	})

#define TAKE_FD(fd)                                                                                \
	__extension__({                                                                            \
		int _taken = (fd);                                                                 \
		(fd) = -1;                                                                         \
		_taken;                                                                            \
	})

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))

/* Room for need elements of size in *p, doubling *cap from first: 0 or -ENOMEM. */
static inline int array_grow(void **p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t n = *cap ? *cap : first;
	void *bigger;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	bigger = realloc(*p, n * size);
	if (!bigger)
		return -ENOMEM;
	*p = bigger;
	*cap = n;
	return 0;
}

/* ENOENT/ENODEV while reading a cgroup means it was removed under us. */
static inline int errno_is_vanished(int r)
{
	return r == -ENOENT || r == -ENODEV;
}
