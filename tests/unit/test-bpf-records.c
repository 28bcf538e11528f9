/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BPF bulk reader's stream (collector/bpf/records.c): records with
 * their names, each padded to 8 bytes, read back in order; a stream cut
 * short, of another layout, with a name a path could not hold or a nameless
 * cgroup that is not the root is refused whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collector/bpf/records.h"
#include "test.h"

/* Appends a record for id (parent, name) to the stream at *buf of *len bytes. */
static void append(char **buf, size_t *len, uint64_t id, uint64_t parent, const char *name)
{
	struct record r = {.magic = RECORD_MAGIC,
			   .id = id,
			   .parent_id = parent,
			   .name_len = (uint16_t)strlen(name)};
	size_t size = RECORD_SIZE(r.name_len);

	*buf = realloc(*buf, *len + size);
	ASSERT_TRUE(*buf != NULL);
	memset(*buf + *len, 0, size);
	memcpy(*buf + *len, &r, sizeof(r));
	memcpy(*buf + *len + sizeof(r), name, r.name_len);
	*len += size;
}

TEST(records_come_back_in_order_with_their_names)
{
	char *buf = NULL;
	size_t len = 0, pos = 0;
	struct bpf_records b;
	const struct record *r;
	const char *name;

	append(&buf, &len, 1, 0, "");
	append(&buf, &len, 28, 1, "system.slice");
	append(&buf, &len, 29, 28, "a");
	ASSERT_EQ(len % 8, 0);
	ASSERT_EQ(bpf_records_parse(buf, len, &b), 0);
	ASSERT_EQ(b.n, 3);
	r = bpf_records_next(&b, &pos, &name);
	ASSERT_TRUE(r && r->id == 1 && r->name_len == 0);
	r = bpf_records_next(&b, &pos, &name);
	ASSERT_TRUE(r && r->id == 28 && r->parent_id == 1);
	ASSERT_TRUE(r->name_len == 12 && memcmp(name, "system.slice", 12) == 0);
	r = bpf_records_next(&b, &pos, &name);
	ASSERT_TRUE(r && r->id == 29 && r->name_len == 1 && name[0] == 'a');
	ASSERT_TRUE(bpf_records_next(&b, &pos, &name) == NULL);
	bpf_records_done(&b);
}

TEST(an_empty_stream_has_no_records)
{
	struct bpf_records b;

	ASSERT_EQ(bpf_records_parse(NULL, 0, &b), 0);
	ASSERT_EQ(b.n, 0);
}

TEST(a_stream_cut_short_is_refused)
{
	char *buf = NULL;
	size_t len = 0;
	struct bpf_records b;

	append(&buf, &len, 1, 0, "");
	append(&buf, &len, 28, 1, "a-long-name");
	ASSERT_EQ(bpf_records_parse(buf, len - 8, &b), -EBADMSG);
	ASSERT_EQ(bpf_records_parse(buf, sizeof(struct record) / 2, &b), -EBADMSG);
	free(buf);
}

TEST(another_layout_is_refused)
{
	char *buf = NULL;
	size_t len = 0;
	struct bpf_records b;
	struct record r;

	append(&buf, &len, 1, 0, "");
	memcpy(&r, buf, sizeof(r));
	r.magic ^= 1;
	memcpy(buf, &r, sizeof(r));
	ASSERT_EQ(bpf_records_parse(buf, len, &b), -EBADMSG);
	free(buf);
}

TEST(names_a_path_cannot_hold_are_refused)
{
	const char *bad[] = {"a/b", "x\0y"};

	for (size_t i = 0; i < 2; i++) {
		char *buf = NULL;
		size_t len = 0;
		struct bpf_records b;

		append(&buf, &len, 28, 1, "abc");
		memcpy(buf + sizeof(struct record), bad[i], 3);
		ASSERT_EQ(bpf_records_parse(buf, len, &b), -EBADMSG);
		free(buf);
	}
}

TEST(only_the_root_has_no_name)
{
	char *buf = NULL;
	size_t len = 0;
	struct bpf_records b;

	append(&buf, &len, 28, 1, "");
	ASSERT_EQ(bpf_records_parse(buf, len, &b), -EBADMSG);
	free(buf);
	buf = NULL;
	len = 0;
	append(&buf, &len, 1, 0, "root");
	ASSERT_EQ(bpf_records_parse(buf, len, &b), -EBADMSG);
	free(buf);
}
