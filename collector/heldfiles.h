/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cgroup files kept open from one collection to the next and read again
 * from offset 0, up to a budget of open files; and the cgroups' directories,
 * up to a budget of their own.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct readbuf;
struct held_files;
struct held_cgroup;

int held_files_new(size_t budget, size_t dir_budget, struct held_files **ret);
void held_files_free(struct held_files *h);
size_t held_files_count(const struct held_files *h);
size_t held_files_dirs(const struct held_files *h);

/* Brackets one collection: files of cgroups not visited in it are closed at its end. */
void held_files_begin(struct held_files *h);
void held_files_end(struct held_files *h);

/*
 * The held files of one cgroup, by hierarchy mount point and walk identity
 * (serial or inode number, never reused), created empty on first sight.
 * NULL only when out of memory: the cgroup is then read without holding.
 */
struct held_cgroup *held_files_cgroup(struct held_files *h, const char *hierarchy, uint64_t id);

/* Closes a cgroup's files now, its directory at the collection's end: it was removed. */
void held_cgroup_drop(struct held_files *h, struct held_cgroup *c);

/*
 * The kept directory of cgroup id, if its inode number is ino (as the
 * parent's listing shows it), else -1. Borrowed: it stays open until
 * held_files_end() at least.
 */
int held_dir(struct held_files *h, const char *hierarchy, uint64_t id, uint64_t ino);
/* Takes fd as the directory of cgroup id within the budget; false if not (the caller keeps it). */
bool held_dir_keep(struct held_files *h, const char *hierarchy, uint64_t id, uint64_t ino, int fd);

/*
 * read_file_into() for a file of cgroup c, whose directory is dirfd: from
 * the held descriptor if there is one, else opened and, within the budget,
 * held. A held file whose node is gone is opened again: a removed cgroup
 * then reads -ENOENT, as a missing file does.
 */
int held_read(struct held_files *h, struct held_cgroup *c, int dirfd, const char *name,
	      struct readbuf *rb, size_t *ret_len);
