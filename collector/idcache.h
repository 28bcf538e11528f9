/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Walk identities (cgroup.serial) remembered from one collection to the
 * next, by hierarchy and directory inode number (see idcache.c).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

struct id_cache;
struct id_table;

int id_cache_new(struct id_cache **ret);
void id_cache_free(struct id_cache *c);

/*
 * The table of one hierarchy, by mount point, for one walk of it; NULL
 * when out of memory (the walk then reads every identity).
 */
struct id_table *id_cache_table(struct id_cache *c, const char *hierarchy);
/* Ends a collection: tables of hierarchies it did not walk are dropped. */
void id_cache_end(struct id_cache *c);

/* A table of one's own, for a walk that has nothing to remember from or for. */
struct id_table *id_table_new(void);
void id_table_free(struct id_table *t);

/*
 * The identity read for the directory with inode number ino: by this walk,
 * or else by an earlier one (*ret_earlier, as it may belong to an earlier
 * instance of the hierarchy).
 */
bool id_table_get(const struct id_table *t, uint64_t ino, uint64_t *ret_id, bool *ret_earlier);
/* Records the identity this walk read or reused, for itself and the next walk. */
int id_table_put(struct id_table *t, uint64_t ino, uint64_t id);
/* What earlier walks read is not to be trusted: the hierarchy is a new one. */
void id_table_forget(struct id_table *t);
/* Ends the walk: what it recorded is what the next walk may reuse. */
void id_table_end(struct id_table *t);
