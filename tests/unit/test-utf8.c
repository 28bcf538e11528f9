/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Valid UTF-8 from any bytes (base/utf8.h): which sequences are characters,
 * and the escape of every other byte, which must be undone exactly.
 */
#include "base/utf8.h"
#include "test.h"

#define LEN(s) utf8_char_len(s, sizeof(s) - 1)

TEST(characters_are_the_shortest_forms_of_unicode_scalars)
{
	ASSERT_EQ(LEN("a"), 1);
	ASSERT_EQ(LEN("\xc3\xbc"), 2);	       /* U+00FC */
	ASSERT_EQ(LEN("\xe2\x82\xac"), 3);     /* U+20AC */
	ASSERT_EQ(LEN("\xf0\x9f\x98\x80"), 4); /* U+1F600 */
	ASSERT_EQ(LEN("\xf4\x8f\xbf\xbf"), 4); /* U+10FFFF, the last */
	ASSERT_EQ(LEN("\xef\xbf\xbd"), 3);     /* U+FFFD itself is a character */
	/* not characters */
	ASSERT_EQ(LEN("\x80"), 0); /* a continuation byte alone */
	ASSERT_EQ(LEN("\xff"), 0);
	ASSERT_EQ(LEN("\xc0\xaf"), 0);	       /* overlong '/' */
	ASSERT_EQ(LEN("\xc1\xbf"), 0);	       /* overlong */
	ASSERT_EQ(LEN("\xe0\x9f\xbf"), 0);     /* overlong U+07FF */
	ASSERT_EQ(LEN("\xf0\x8f\xbf\xbf"), 0); /* overlong U+FFFF */
	ASSERT_EQ(LEN("\xed\xa0\x80"), 0);     /* surrogate U+D800 */
	ASSERT_EQ(LEN("\xf4\x90\x80\x80"), 0); /* U+110000 */
	ASSERT_EQ(LEN("\xf5\x80\x80\x80"), 0);
	ASSERT_EQ(LEN("\xe2\x82"), 0);	   /* cut short */
	ASSERT_EQ(LEN("\xe2\x28\xac"), 0); /* second byte not a continuation */
	ASSERT_EQ(LEN("\xe2\x82\x28"), 0); /* third byte not a continuation */
	ASSERT_EQ(utf8_char_len("a", 0), 0);
}

/* Writes s[0, n) escaped (non-ASCII bytes only: ASCII is the caller's) into out; its length. */
static size_t escape(const char *s, size_t n, char *out)
{
	char *o = out;

	for (size_t i = 0, used; i < n; i += used) {
		if ((unsigned char)s[i] < 0x80) {
			*o++ = s[i];
			used = 1;
		} else
			o = utf8_write_escaped(o, s + i, n - i, &used);
	}
	return (size_t)(o - out);
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The inverse: every U+FFFD and two hex digits back to its byte. */
static size_t unescape(const char *s, size_t n, char *out)
{
	char *o = out;

	for (size_t i = 0; i < n;) {
		if (n - i >= 5 && memcmp(s + i, UTF8_REPLACEMENT, 3) == 0) {
			ASSERT_TRUE(hex(s[i + 3]) >= 0 && hex(s[i + 4]) >= 0);
			*o++ = (char)(hex(s[i + 3]) * 16 + hex(s[i + 4]));
			i += 5;
		} else
			*o++ = s[i++];
	}
	return (size_t)(o - out);
}

static void assert_valid(const char *s, size_t n)
{
	for (size_t i = 0, len; i < n; i += len) {
		len = utf8_char_len(s + i, n - i);
		ASSERT_TRUE(len > 0);
	}
}

TEST(stray_bytes_and_replacement_characters_are_escaped_reversibly)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
	    {"x\xffy", "x" UTF8_REPLACEMENT "ffy"},
	    {"caf\xc3\xa9", "caf\xc3\xa9"},
	    {"caf\xe9", "caf" UTF8_REPLACEMENT "e9"}, /* Latin-1 */
	    {"\xe2\x82", UTF8_REPLACEMENT "e2" UTF8_REPLACEMENT "82"},
	    {"\xed\xa0\x80", UTF8_REPLACEMENT "ed" UTF8_REPLACEMENT "a0" UTF8_REPLACEMENT "80"},
	    /* a U+FFFD that was there is escaped too: its text cannot be an escape's */
	    {"x" UTF8_REPLACEMENT "ffy",
	     "x" UTF8_REPLACEMENT "ef" UTF8_REPLACEMENT "bf" UTF8_REPLACEMENT "bdffy"},
	};
	char out[64], back[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = escape(cases[i].in, strlen(cases[i].in), out);

		out[n] = '\0';
		ASSERT_STREQ(out, cases[i].out);
		ASSERT_EQ(utf8_unchanged(cases[i].in, strlen(cases[i].in)),
			  strcmp(cases[i].in, cases[i].out) == 0);
	}
	/* every string of bytes comes out valid and back the same */
	srand(7);
	for (int round = 0; round < 20000; round++) {
		char in[8];
		size_t len = (size_t)(rand() % 8), n, m;

		for (size_t i = 0; i < len; i++)
			in[i] = (char)(rand() % 3 == 0 ? 0xef + rand() % 3 : rand() % 256);
		n = escape(in, len, out);
		assert_valid(out, n);
		m = unescape(out, n, back);
		ASSERT_EQ(m, len);
		ASSERT_TRUE(memcmp(back, in, len) == 0);
	}
}
