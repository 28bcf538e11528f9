/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The records of a collection by cgroup ID (collector/bpf/source.c): each
 * found by its ID, the wait summed over its subtree whatever the order the
 * records came in, and a stream that gives one ID twice refused.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collector/bpf/source.h"
#include "test.h"

/* Appends a record to the stream: the map iterator gives them in no order. */
static void append(struct bpf_records *b, uint64_t id, uint64_t parent, unsigned level,
		   uint64_t wait)
{
	struct record r = {.magic = RECORD_MAGIC,
			   .id = id,
			   .parent_id = parent,
			   .level = level,
			   .has = level ? RECORD_HAS_WAIT : 0,
			   .wait_ns = wait,
			   .name_len = level ? 1 : 0};
	size_t size = RECORD_SIZE(r.name_len);

	b->buf = realloc(b->buf, b->len + size);
	ASSERT_TRUE(b->buf != NULL);
	memset(b->buf + b->len, 'x', size);
	memcpy(b->buf + b->len, &r, sizeof(r));
	b->len += size;
}

TEST(a_cgroups_wait_is_its_subtrees)
{
	struct bpf_records b = {0}, parsed;
	struct bpf_source s;
	const struct bpf_cgroup *c;

	/* 1 the root; 2 and 3 below it; 4 below 2; 5 below 4: deepest first, last, mixed */
	append(&b, 4, 2, 2, 40);
	append(&b, 1, 0, 0, 0);
	append(&b, 5, 4, 3, 500);
	append(&b, 2, 1, 1, 2);
	append(&b, 3, 1, 1, 3000);
	ASSERT_EQ(bpf_records_parse(b.buf, b.len, &parsed), 0);
	ASSERT_EQ(bpf_source_index(&parsed, &s), 0);
	ASSERT_TRUE(parsed.buf == NULL); /* taken over */
	c = bpf_source_find(&s, 5);
	ASSERT_TRUE(c && c->r->id == 5 && c->wait_ns == 500);
	ASSERT_EQ(bpf_source_find(&s, 4)->wait_ns, 540);
	ASSERT_EQ(bpf_source_find(&s, 2)->wait_ns, 542);
	ASSERT_EQ(bpf_source_find(&s, 3)->wait_ns, 3000);
	ASSERT_EQ(bpf_source_find(&s, 1)->wait_ns, 3542);
	ASSERT_TRUE(bpf_source_find(&s, 6) == NULL);
	ASSERT_TRUE(bpf_source_find(&s, 0) == NULL);
	bpf_source_done(&s);
}

TEST(an_id_given_twice_is_refused)
{
	struct bpf_records b = {0}, parsed;
	struct bpf_source s;

	append(&b, 1, 0, 0, 0);
	append(&b, 2, 1, 1, 0);
	append(&b, 2, 1, 1, 0);
	ASSERT_EQ(bpf_records_parse(b.buf, b.len, &parsed), 0);
	ASSERT_EQ(bpf_source_index(&parsed, &s), -EBADMSG);
	ASSERT_TRUE(parsed.buf == NULL);
}

TEST(no_pins_is_enoent)
{
	struct bpf_source s;
	char *dir = tmpdir_make(), *missing;

	ASSERT_TRUE(asprintf(&missing, "%s/cgacct", dir) >= 0);
	ASSERT_EQ(bpf_source_read(missing, &s), -ENOENT);
	free(missing);
	tmpdir_remove(dir);
	free(dir);
}
