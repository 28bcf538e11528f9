/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a cgroup's cgroup.serial costs the kernel as much as reading any
 * other of its files, open and close included, and the walk needs it for
 * every cgroup it lists, every collection, although it never changes.
 * kernfs never reuses inode numbers within a hierarchy (see walk.c), so
 * the inode number a directory listing hands out for free names the
 * cgroup, and a serial read once can be reused by every later walk for as
 * long as that inode number is listed.
 *
 * Only the inode numbers of one hierarchy instance are unique: a v1
 * hierarchy unmounted and mounted again starts over, and its cgroups may
 * come back under the same names and inode numbers, with new serials. Every
 * cgroup of the new instance is newer than every cgroup of the old one, so
 * the walk checks the first identity it reuses in each walk against the
 * file, and a mismatch makes it forget the whole table (id_table_forget).
 *
 * Each walk records the identities it used in a new map, where it finds
 * them again when a later step lists a directory anew, and the old map is
 * dropped at its end, so removed cgroups leave with the walk that no longer
 * finds them: one slot (inode number and identity) per cgroup, in two maps
 * during a walk.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/u64map.h"
#include "base/util.h"
#include "collector/idcache.h"

struct id_table {
	char *hierarchy;
	bool used;		 /* by the current collection */
	struct u64map old, next; /* inode number to identity */
};

struct id_cache {
	struct id_table **tables;
	size_t n, cap;
};

bool id_table_get(const struct id_table *t, uint64_t ino, uint64_t *ret_id, bool *ret_earlier)
{
	const uint64_t *id = u64map_get(&t->next, ino);

	*ret_earlier = !id;
	if (!id)
		id = u64map_get(&t->old, ino);
	if (id)
		*ret_id = *id;
	return id != NULL;
}

int id_table_put(struct id_table *t, uint64_t ino, uint64_t id)
{
	uint64_t *slot;

	if (ino == 0)
		return 0;
	/* sized for the last walk's cgroups from the start: no growth in steady state */
	slot = u64map_put(&t->next, ino, t->old.n);
	if (!slot)
		return -ENOMEM;
	*slot = id;
	return 0;
}

void id_table_forget(struct id_table *t)
{
	u64map_done(&t->old);
}

void id_table_end(struct id_table *t)
{
	u64map_done(&t->old);
	t->old = t->next;
	t->next = U64MAP_INIT(uint64_t);
}

struct id_table *id_table_new(void)
{
	struct id_table *t = calloc(1, sizeof(*t));

	if (t)
		t->old = t->next = U64MAP_INIT(uint64_t);
	return t;
}

void id_table_free(struct id_table *t)
{
	if (!t)
		return;
	u64map_done(&t->old);
	u64map_done(&t->next);
	free(t->hierarchy);
	free(t);
}

int id_cache_new(struct id_cache **ret)
{
	*ret = calloc(1, sizeof(**ret));
	return *ret ? 0 : -ENOMEM;
}

void id_cache_free(struct id_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		id_table_free(c->tables[i]);
	free(c->tables);
	free(c);
}

struct id_table *id_cache_table(struct id_cache *c, const char *hierarchy)
{
	struct id_table *t;

	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->tables[i]->hierarchy, hierarchy) == 0) {
			c->tables[i]->used = true;
			return c->tables[i];
		}
	if (array_grow((void **)&c->tables, &c->cap, c->n + 1, sizeof(*c->tables), 8) < 0)
		return NULL;
	t = id_table_new();
	if (!t || !(t->hierarchy = strdup(hierarchy))) {
		id_table_free(t);
		return NULL;
	}
	t->used = true;
	c->tables[c->n++] = t;
	return t;
}

void id_cache_end(struct id_cache *c)
{
	size_t kept = 0;

	for (size_t i = 0; i < c->n; i++) {
		struct id_table *t = c->tables[i];

		if (t->used) {
			t->used = false;
			c->tables[kept++] = t;
		} else
			id_table_free(t);
	}
	c->n = kept;
}
