/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A hash map from nonzero 64-bit keys (inode numbers, cgroup IDs) to
 * values of one fixed size, for what the collector remembers of each
 * cgroup from one collection to the next. Open addressing, at most three
 * quarters full; there is no removal: a collection fills a new map with
 * what it meets and drops the old one with what it did not.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64map {
	unsigned char *slots; /* each a key (0: empty) and value_size bytes */
	size_t n, mask, value_size;
};

#define U64MAP_INIT(type) ((struct u64map){.value_size = sizeof(type)})

void u64map_done(struct u64map *m);
/*
 * The value of key, zeroed if new, or NULL when out of memory; key is not
 * 0. A new map starts with room for expected keys, so that one sized from
 * the last collection's map does not grow.
 */
void *u64map_put(struct u64map *m, uint64_t key, size_t expected);
/* The value of key, or NULL. */
void *u64map_get(const struct u64map *m, uint64_t key);

/*
 * What a collection remembers of each cgroup for the next: it reads the
 * last collection's entries and writes its own, so a removed cgroup is
 * forgotten with the first collection that does not meet it.
 */
struct u64gen {
	struct u64map last, now;
};

#define U64GEN_INIT(type) ((struct u64gen){.last = U64MAP_INIT(type), .now = U64MAP_INIT(type)})

void u64gen_done(struct u64gen *g);
/*
 * This collection's entry for key (zeroed if new), or NULL when out of
 * memory; *ret_last is the last collection's, or NULL.
 */
void *u64gen_put(struct u64gen *g, uint64_t key, const void **ret_last);
/* Ends a collection: its entries become the last. */
void u64gen_end(struct u64gen *g);
