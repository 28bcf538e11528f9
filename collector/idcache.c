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

#include "base/util.h"
#include "collector/idcache.h"

struct id_slot {
	uint64_t ino; /* 0: empty; no directory has inode number 0 */
	uint64_t id;
};

/* Open addressing, at most three quarters full. */
struct id_map {
	struct id_slot *slots;
	size_t n, mask;
};

struct id_table {
	char *hierarchy;
	bool used; /* by the current collection */
	struct id_map old, next;
};

struct id_cache {
	struct id_table **tables;
	size_t n, cap;
};

static size_t slot_of(const struct id_map *m, uint64_t ino)
{
	return (size_t)((ino * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & m->mask;
}

static void map_done(struct id_map *m)
{
	free(m->slots);
	*m = (struct id_map){0};
}

static void map_insert(struct id_map *m, uint64_t ino, uint64_t id)
{
	size_t i = slot_of(m, ino);

	while (m->slots[i].ino && m->slots[i].ino != ino)
		i = (i + 1) & m->mask;
	m->n += !m->slots[i].ino;
	m->slots[i] = (struct id_slot){.ino = ino, .id = id};
}

static int map_grow(struct id_map *m, size_t first)
{
	struct id_map bigger = {0};
	size_t n = m->slots ? 2 * (m->mask + 1) : first;

	if (m->slots && 4 * (m->n + 1) <= 3 * (m->mask + 1))
		return 0;
	bigger.slots = calloc(n, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -ENOMEM;
	bigger.mask = n - 1;
	for (size_t i = 0; m->slots && i <= m->mask; i++)
		if (m->slots[i].ino)
			map_insert(&bigger, m->slots[i].ino, m->slots[i].id);
	map_done(m);
	*m = bigger;
	return 0;
}

static bool map_get(const struct id_map *m, uint64_t ino, uint64_t *ret_id)
{
	if (!m->slots || ino == 0)
		return false;
	for (size_t i = slot_of(m, ino); m->slots[i].ino; i = (i + 1) & m->mask)
		if (m->slots[i].ino == ino) {
			*ret_id = m->slots[i].id;
			return true;
		}
	return false;
}

bool id_table_get(const struct id_table *t, uint64_t ino, uint64_t *ret_id, bool *ret_earlier)
{
	*ret_earlier = false;
	if (map_get(&t->next, ino, ret_id))
		return true;
	*ret_earlier = true;
	return map_get(&t->old, ino, ret_id);
}

int id_table_put(struct id_table *t, uint64_t ino, uint64_t id)
{
	/* sized for the last walk's cgroups from the start: no growth in steady state */
	size_t first = t->old.slots ? t->old.mask + 1 : 64;
	int r;

	if (ino == 0)
		return 0;
	r = map_grow(&t->next, first);
	if (r < 0)
		return r;
	map_insert(&t->next, ino, id);
	return 0;
}

void id_table_forget(struct id_table *t)
{
	map_done(&t->old);
}

void id_table_end(struct id_table *t)
{
	map_done(&t->old);
	t->old = t->next;
	t->next = (struct id_map){0};
}

struct id_table *id_table_new(void)
{
	return calloc(1, sizeof(struct id_table));
}

void id_table_free(struct id_table *t)
{
	if (!t)
		return;
	map_done(&t->old);
	map_done(&t->next);
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
