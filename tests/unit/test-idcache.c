// SPDX-License-Identifier: GPL-2.0-only
/*
 * The identity cache: a walk finds what it recorded itself, and then what
 * the walk before it recorded, and nothing else (test-walk.c covers its use
 * by the walk).
 */
#include "collector/idcache.h"
#include "test.h"

static struct id_table *table(struct id_cache *c, const char *hierarchy)
{
	struct id_table *t = id_cache_table(c, hierarchy);

	ASSERT_TRUE(t != NULL);
	return t;
}

/* Whether t has id for ino, and from which walk. */
static bool has_from(const struct id_table *t, uint64_t ino, uint64_t id, bool earlier)
{
	uint64_t got;
	bool from_earlier;

	return id_table_get(t, ino, &got, &from_earlier) && got == id && from_earlier == earlier;
}

static bool has(const struct id_table *t, uint64_t ino, uint64_t id)
{
	return has_from(t, ino, id, true);
}

/* A removed cgroup is not listed, so not recorded: the walk after forgets it. */
TEST(a_walk_keeps_only_what_it_recorded)
{
	struct id_cache *c;
	struct id_table *t;

	ASSERT_EQ(id_cache_new(&c), 0);
	t = table(c, "/sys/fs/cgroup/memory");
	for (uint64_t ino = 1; ino <= 1000; ino++)
		ASSERT_EQ(id_table_put(t, ino, ino + 7), 0);
	ASSERT_TRUE(has_from(t, 5, 12, false)); /* this walk's own */
	id_table_end(t);
	ASSERT_TRUE(has(t, 5, 12) && has(t, 1000, 1007));
	ASSERT_TRUE(!has(t, 1001, 1008));

	for (uint64_t ino = 2; ino <= 1000; ino += 2)
		ASSERT_EQ(id_table_put(t, ino, ino + 7), 0);
	ASSERT_TRUE(has_from(t, 2, 9, false) && has(t, 1, 8));
	id_table_end(t);
	ASSERT_TRUE(has(t, 2, 9) && has(t, 1000, 1007));
	ASSERT_TRUE(!has(t, 1, 8) && !has(t, 999, 1006));

	id_table_forget(t);
	ASSERT_TRUE(!has(t, 2, 9));
	id_cache_free(c);
}

/* Per hierarchy, and a hierarchy a collection did not walk is dropped at its end. */
TEST(tables_are_per_hierarchy_and_leave_with_it)
{
	struct id_cache *c;
	struct id_table *cpu, *memory;

	ASSERT_EQ(id_cache_new(&c), 0);
	cpu = table(c, "/sys/fs/cgroup/cpu,cpuacct");
	memory = table(c, "/sys/fs/cgroup/memory");
	ASSERT_EQ(id_table_put(cpu, 42, 1), 0);
	ASSERT_EQ(id_table_put(memory, 42, 2), 0);
	id_table_end(cpu);
	id_table_end(memory);
	id_cache_end(c);
	ASSERT_TRUE(has(table(c, "/sys/fs/cgroup/cpu,cpuacct"), 42, 1));
	id_cache_end(c); /* this collection walked cpu,cpuacct only */
	ASSERT_TRUE(has(table(c, "/sys/fs/cgroup/cpu,cpuacct"), 42, 1));
	ASSERT_TRUE(!has(table(c, "/sys/fs/cgroup/memory"), 42, 2));
	id_cache_free(c);
}
