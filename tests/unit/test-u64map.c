/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The map by 64-bit key (base/u64map.h): values kept whole through growth,
 * new values zeroed, a map sized from the last one never growing, and the
 * generations a collection reads and writes.
 */
#include <stdlib.h>

#include "base/u64map.h"
#include "test.h"

struct value {
	uint64_t a, b;
	char c; /* a size that is not a multiple of 8 */
};

TEST(values_survive_growth_and_new_ones_start_zeroed)
{
	struct u64map m = U64MAP_INIT(struct value);

	ASSERT_TRUE(u64map_get(&m, 7) == NULL);
	for (uint64_t k = 1; k <= 10000; k++) {
		/* keys that collide in the low bits, as inode numbers do */
		struct value *v = u64map_put(&m, k << 20, 0);

		ASSERT_TRUE(v != NULL);
		ASSERT_EQ(v->a, 0);
		ASSERT_EQ(v->c, 0);
		*v = (struct value){.a = k, .b = ~k, .c = (char)k};
	}
	ASSERT_EQ(m.n, 10000);
	for (uint64_t k = 1; k <= 10000; k++) {
		const struct value *v = u64map_get(&m, k << 20);

		ASSERT_TRUE(v != NULL);
		ASSERT_EQ_U64(v->a, k);
		ASSERT_EQ_U64(v->b, ~k);
		ASSERT_EQ(v->c, (char)k);
	}
	ASSERT_TRUE(u64map_get(&m, UINT64_C(10001) << 20) == NULL);
	ASSERT_TRUE(u64map_get(&m, 0) == NULL);
	/* a key put again is the same value, not a second one */
	ASSERT_EQ(((struct value *)u64map_put(&m, UINT64_C(5) << 20, 0))->a, 5);
	ASSERT_EQ(m.n, 10000);
	u64map_done(&m);
	ASSERT_TRUE(u64map_get(&m, UINT64_C(5) << 20) == NULL);
}

TEST(a_map_that_expects_its_keys_does_not_grow)
{
	struct u64map m = U64MAP_INIT(uint64_t);
	unsigned char *first;

	first = u64map_put(&m, 1, 5000);
	ASSERT_TRUE(first != NULL);
	for (uint64_t k = 2; k <= 5000; k++)
		ASSERT_TRUE(u64map_put(&m, k, 5000) != NULL);
	/* the slots were never moved: the first value stands where it was put */
	ASSERT_TRUE(u64map_get(&m, 1) == first);
	u64map_done(&m);
}

TEST(a_generation_reads_the_last_and_forgets_what_it_did_not_meet)
{
	struct u64gen g = U64GEN_INIT(uint64_t);
	const void *last;
	uint64_t *v;

	v = u64gen_put(&g, 1, &last);
	ASSERT_TRUE(v && *v == 0 && last == NULL);
	*v = 11;
	*(uint64_t *)u64gen_put(&g, 2, &last) = 22;
	u64gen_end(&g);
	/* the next collection sees 1 and 2 as they were; it meets 1 alone */
	v = u64gen_put(&g, 1, &last);
	ASSERT_TRUE(v && *v == 0 && last && *(const uint64_t *)last == 11);
	*v = 12;
	u64gen_end(&g);
	ASSERT_TRUE(u64gen_put(&g, 2, &last) != NULL && last == NULL);
	ASSERT_TRUE(u64gen_put(&g, 1, &last) != NULL && *(const uint64_t *)last == 12);
	u64gen_done(&g);
}
