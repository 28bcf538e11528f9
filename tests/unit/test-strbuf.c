/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The string buffer (base/strbuf.c): always NUL-terminated, growing by
 * doubling from 256 bytes, numbers in decimal without printf, and a
 * failure that sticks until it is reported.
 */
#include <errno.h>

#include "base/strbuf.h"
#include "test.h"

TEST(appends_keep_the_buffer_terminated_and_grow_by_doubling)
{
	struct strbuf b = {0};
	char line[300];

	ASSERT_EQ(strbuf_status(&b), 0);
	strbuf_puts(&b, "ab");
	strbuf_putc(&b, 'c');
	strbuf_append(&b, "defgh", 2);
	ASSERT_STREQ(b.buf, "abcde");
	ASSERT_EQ(b.len, 5);
	ASSERT_EQ(b.cap, 256);
	memset(line, 'x', sizeof(line));
	strbuf_append(&b, line, 250); /* 256 bytes with the NUL: still fits */
	ASSERT_EQ(b.len, 256 - 1);
	ASSERT_EQ(b.cap, 256);
	strbuf_putc(&b, 'y');
	ASSERT_EQ(b.cap, 512);
	ASSERT_EQ(b.len, 256);
	ASSERT_EQ(b.buf[255], 'y');
	ASSERT_EQ(b.buf[256], '\0');
	strbuf_append(&b, line, sizeof(line)); /* 557 bytes need 1024: one doubling each */
	ASSERT_EQ(b.cap, 1024);
	ASSERT_EQ(strlen(b.buf), 556);
	strbuf_append(&b, "", 0);
	ASSERT_EQ(b.len, 556);
	strbuf_done(&b);
	ASSERT_TRUE(b.buf == NULL);
	ASSERT_EQ(b.len, 0);
	ASSERT_EQ(b.cap, 0);
}

static const char *u64(struct strbuf *b, uint64_t v)
{
	strbuf_truncate(b, 0);
	strbuf_put_u64(b, v);
	return b->buf;
}

/* Each side of every power of ten, where the digit count changes. */
TEST(u64_in_decimal_at_every_length)
{
	struct strbuf b = {0};
	char want[24], raw[24];

	ASSERT_STREQ(u64(&b, 0), "0");
	ASSERT_STREQ(u64(&b, 7), "7");
	ASSERT_STREQ(u64(&b, 42), "42");
	ASSERT_STREQ(u64(&b, 1000000007), "1000000007");
	ASSERT_STREQ(u64(&b, UINT64_MAX), "18446744073709551615");
	for (uint64_t p = 10;; p *= 10) {
		snprintf(want, sizeof(want), "%" PRIu64, p - 1);
		ASSERT_STREQ(u64(&b, p - 1), want);
		snprintf(want, sizeof(want), "%" PRIu64, p);
		ASSERT_STREQ(u64(&b, p), want);
		if (p == UINT64_C(10000000000000000000))
			break;
	}
	/* format_u64 writes the digits alone and returns their end */
	memset(raw, '#', sizeof(raw));
	ASSERT_TRUE(format_u64(raw, 90210) == raw + 5);
	ASSERT_EQ(memcmp(raw, "90210#", 6), 0);
	strbuf_done(&b);
}

/* A line reserved once, filled in place, then committed; truncate only shortens. */
TEST(space_commit_and_truncate)
{
	struct strbuf b = {0};
	char *p;

	strbuf_puts(&b, "key ");
	p = strbuf_space(&b, 20);
	ASSERT_TRUE(p == b.buf + 4);
	strbuf_commit(&b, format_u64(p, 12345));
	ASSERT_STREQ(b.buf, "key 12345");
	ASSERT_EQ(b.len, 9);
	p = strbuf_space(&b, 1000);
	ASSERT_TRUE(p != NULL && b.cap >= 9 + 1000 + 1);
	ASSERT_STREQ(b.buf, "key 12345");
	strbuf_commit(&b, p);
	ASSERT_EQ(b.len, 9);

	strbuf_truncate(&b, 3);
	ASSERT_STREQ(b.buf, "key");
	strbuf_truncate(&b, 10);
	ASSERT_STREQ(b.buf, "key");
	ASSERT_EQ(b.len, 3);
	strbuf_printf(&b, " %s=%d%%", "v", -3);
	ASSERT_STREQ(b.buf, "key v=-3%");
	ASSERT_EQ(b.len, 9);
	strbuf_done(&b);
}

/*
 * A size no allocation can meet fails the buffer, and from then on every
 * append is a no-op and the status says -ENOMEM: what was there stays.
 */
TEST(failure_is_sticky_and_reported)
{
	struct strbuf b = {0};

	strbuf_puts(&b, "kept");
	ASSERT_TRUE(!strbuf_reserve(&b, SIZE_MAX / 2));
	ASSERT_EQ(strbuf_status(&b), -ENOMEM);
	ASSERT_TRUE(strbuf_space(&b, 1) == NULL);
	strbuf_puts(&b, "lost");
	strbuf_putc(&b, '!');
	strbuf_put_u64(&b, 7);
	strbuf_printf(&b, "%d", 8);
	ASSERT_TRUE(!strbuf_reserve(&b, 1));
	ASSERT_STREQ(b.buf, "kept");
	ASSERT_EQ(b.len, 4);
	ASSERT_EQ(strbuf_status(&b), -ENOMEM);
	strbuf_done(&b);
	ASSERT_EQ(strbuf_status(&b), 0);
}
