/* SPDX-License-Identifier: GPL-2.0-only */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/u64map.h"

static size_t slot_size(const struct u64map *m)
{
	/* values after an 8-byte key, slots kept 8-byte aligned */
	return sizeof(uint64_t) + ((m->value_size + 7) & ~(size_t)7);
}

static unsigned char *slot(const struct u64map *m, size_t i)
{
	return m->slots + i * slot_size(m);
}

static uint64_t key_at(const unsigned char *s)
{
	uint64_t key;

	memcpy(&key, s, sizeof(key));
	return key;
}

/* The slot that holds key, or the empty one where it belongs. */
static size_t find(const struct u64map *m, uint64_t key)
{
	size_t i = (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & m->mask;

	while (key_at(slot(m, i)) && key_at(slot(m, i)) != key)
		i = (i + 1) & m->mask;
	return i;
}

void u64map_done(struct u64map *m)
{
	free(m->slots);
	m->slots = NULL;
	m->n = m->mask = 0;
}

static int grow(struct u64map *m, size_t expected)
{
	struct u64map bigger = {.value_size = m->value_size};
	size_t n = 64;

	if (m->slots && 4 * (m->n + 1) <= 3 * (m->mask + 1))
		return 0;
	while (4 * (expected > m->n + 1 ? expected : m->n + 1) > 3 * n)
		n *= 2;
	bigger.slots = calloc(n, slot_size(m));
	if (!bigger.slots)
		return -ENOMEM;
	bigger.mask = n - 1;
	for (size_t i = 0; m->slots && i <= m->mask; i++) {
		const unsigned char *s = slot(m, i);

		if (key_at(s))
			memcpy(slot(&bigger, find(&bigger, key_at(s))), s, slot_size(m));
	}
	bigger.n = m->n;
	u64map_done(m);
	*m = bigger;
	return 0;
}

void *u64map_put(struct u64map *m, uint64_t key, size_t expected)
{
	unsigned char *s;

	assert(key != 0 && m->value_size > 0);
	if (grow(m, expected) < 0)
		return NULL;
	s = slot(m, find(m, key));
	if (!key_at(s)) {
		memcpy(s, &key, sizeof(key));
		m->n++;
	}
	return s + sizeof(uint64_t);
}

void *u64map_get(const struct u64map *m, uint64_t key)
{
	unsigned char *s;

	if (!m->slots || key == 0)
		return NULL;
	s = slot(m, find(m, key));
	return key_at(s) ? s + sizeof(uint64_t) : NULL;
}

void u64gen_done(struct u64gen *g)
{
	u64map_done(&g->last);
	u64map_done(&g->now);
}

void *u64gen_put(struct u64gen *g, uint64_t key, const void **ret_last)
{
	*ret_last = u64map_get(&g->last, key);
	return u64map_put(&g->now, key, g->last.n);
}

void u64gen_end(struct u64gen *g)
{
	u64map_done(&g->last);
	g->last = g->now;
	g->now = (struct u64map){.value_size = g->last.value_size};
}
