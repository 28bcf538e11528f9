/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A resumable depth-first walk over one cgroup hierarchy, siblings in
 * ascending identity (see walk.c). walk_step() visits up to a budget of
 * cgroups and returns; the next call resumes from the cursor.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct walk;

struct walk_entry {
	int fd;		  /* the cgroup's directory; valid during the callback only */
	const char *path; /* relative to the hierarchy root, "/" for the root */
	uint64_t id;	  /* cgroup.serial, or the inode number without it */
	bool serial;	  /* id comes from cgroup.serial */
	unsigned depth;	  /* 0 for the root */
};

typedef int (*walk_visit_fn)(void *userdata, const struct walk_entry *e);

/*
 * Optional: directories kept open from one walk to the next. Before opening
 * a child the walk asks get() for it by identity and by the inode number
 * its parent lists (-1: none kept); a directory it did open is offered to
 * keep(), which returns whether it took it. Either way the walk then only
 * borrows the descriptor. A cgroup removed after its parent was listed can
 * then still be visited, through its kept directory: it lists no children
 * and its files are gone, which the visitor must take for the removal.
 */
struct walk_dirs {
	int (*get)(void *userdata, uint64_t id, uint64_t ino);
	bool (*keep)(void *userdata, uint64_t id, uint64_t ino, int fd);
	void *userdata;
};

struct id_table;

/*
 * dirs may be NULL; it must outlive the walk. So may ids: identities an
 * earlier walk of the hierarchy read, which this one reuses and records
 * (idcache.h); the caller ends the table after the walk. Without it the
 * walk keeps a table of its own, for its later steps.
 */
int walk_new(int root_fd, const struct walk_dirs *dirs, struct id_table *ids, struct walk **ret);
int walk_step(struct walk *w, size_t budget, walk_visit_fn visit, void *userdata);
uint64_t walk_vanished(const struct walk *w);
unsigned walk_errors(const struct walk *w);
void walk_free(struct walk *w);
