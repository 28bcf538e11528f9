/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The text formats' pieces (exporter/textformat.c): label values escaped,
 * numbers as exact decimals, and family headers as 0.0.4 and OpenMetrics
 * each want them.
 */
#include "exporter/textformat.h"
#include "test.h"

TEST(label_values_escape_backslash_quote_newline_only)
{
	struct strbuf b = {0};

	textformat_label_value(&b, "/a\"b\\c\nd e/\xc3\xbc\xe2\x82\xac\t");
	ASSERT_STREQ(b.buf, "/a\\\"b\\\\c\\nd e/\xc3\xbc\xe2\x82\xac\t");
	ASSERT_TRUE(!textformat_label_value_plain("/a\"b", 4));
	ASSERT_TRUE(textformat_label_value_plain("/d e/\xc3\xbc", 7));
	strbuf_done(&b);
}

/*
 * A label value is valid UTF-8 whatever the bytes: a stray byte becomes
 * U+FFFD and its hex digits (base/utf8.h), as does each byte of a U+FFFD
 * that was there, so the two cgroups below stay two series. Prometheus
 * drops a whole exposition for one invalid label value.
 */
TEST(label_values_are_valid_utf8_and_never_collide)
{
	struct strbuf a = {0}, b = {0};

	textformat_label_value(&a, "/x\xff\"y");
	ASSERT_STREQ(a.buf, "/x\xef\xbf\xbd"
			    "ff\\\"y");
	ASSERT_TRUE(!textformat_label_value_plain("/x\xffy", 4));
	textformat_label_value(&b, "/x\xef\xbf\xbd"
				   "ff\"y");
	ASSERT_TRUE(strcmp(a.buf, b.buf) != 0);
	ASSERT_TRUE(!textformat_label_value_plain("/x\xef\xbf\xbd"
						  "ffy",
						  8));
	strbuf_done(&a);
	strbuf_done(&b);
}

static const char *scaled(struct strbuf *b, uint64_t v, uint64_t div)
{
	strbuf_truncate(b, 0);
	textformat_scaled(b, v, div);
	return b->buf;
}

TEST(scaled_values_are_exact_decimals)
{
	struct strbuf b = {0};

	ASSERT_STREQ(scaled(&b, 123456789012, 1000000000), "123.456789012");
	ASSERT_STREQ(scaled(&b, 45000000000, 1000000000), "45");
	ASSERT_STREQ(scaled(&b, 1, 1000000000), "0.000000001");
	ASSERT_STREQ(scaled(&b, 51200, 1024), "50");
	ASSERT_STREQ(scaled(&b, 200, 1024), "0.1953125"); /* cpu.shares 2 */
	ASSERT_STREQ(scaled(&b, 150, 100), "1.5");
	ASSERT_STREQ(scaled(&b, UINT64_MAX, 1), "18446744073709551615");
	ASSERT_STREQ(scaled(&b, 0, 1000000), "0");
	/* Digits go two at a time: odd and even lengths, and zeros inside. */
	ASSERT_STREQ(scaled(&b, 9, 1), "9");
	ASSERT_STREQ(scaled(&b, 10, 1), "10");
	ASSERT_STREQ(scaled(&b, 99, 1), "99");
	ASSERT_STREQ(scaled(&b, 100, 1), "100");
	ASSERT_STREQ(scaled(&b, 1005, 1), "1005");
	ASSERT_STREQ(scaled(&b, 10000000000000000000u, 1), "10000000000000000000");
	/* The length is counted first: each side of every power of ten. */
	for (uint64_t p = 1; p <= 10000000000000000000u; p *= 10) {
		char expect[24];

		snprintf(expect, sizeof(expect), "%" PRIu64, p - 1);
		ASSERT_STREQ(scaled(&b, p - 1, 1), expect);
		snprintf(expect, sizeof(expect), "%" PRIu64, p);
		ASSERT_STREQ(scaled(&b, p, 1), expect);
		if (p == 10000000000000000000u)
			break;
	}
	/* ...estimated from the bit length: each side of every power of two */
	for (unsigned k = 1; k < 64; k++) {
		uint64_t p = UINT64_C(1) << k;
		char expect[24];

		snprintf(expect, sizeof(expect), "%" PRIu64, p - 1);
		ASSERT_STREQ(scaled(&b, p - 1, 1), expect);
		snprintf(expect, sizeof(expect), "%" PRIu64, p);
		ASSERT_STREQ(scaled(&b, p, 1), expect);
	}
	strbuf_done(&b);
}

/*
 * OpenMetrics names counter and info families without the sample suffix,
 * has no untyped, and escapes '"' in HELP; 0.0.4 leaves names and quotes.
 */
TEST(headers_name_and_type_families_as_each_format_wants)
{
	struct strbuf b = {0};

	textformat_header(&b, RENDER_TEXT, "x_total", "a \"b\" \\ c\nd", FAMILY_COUNTER);
	textformat_header(&b, RENDER_TEXT, "x_info", "i", FAMILY_INFO);
	textformat_header(&b, RENDER_TEXT, "x", "u", FAMILY_UNTYPED);
	ASSERT_STREQ(b.buf, "# HELP x_total a \"b\" \\\\ c\\nd\n# TYPE x_total counter\n"
			    "# HELP x_info i\n# TYPE x_info gauge\n"
			    "# HELP x u\n# TYPE x untyped\n");
	strbuf_truncate(&b, 0);
	textformat_header(&b, RENDER_OPENMETRICS, "x_total", "a \"b\" \\ c\nd", FAMILY_COUNTER);
	textformat_header(&b, RENDER_OPENMETRICS, "x_info", "i", FAMILY_INFO);
	textformat_header(&b, RENDER_OPENMETRICS, "x", "u", FAMILY_UNTYPED);
	/* a gauge keeps any suffix, and a name that is all suffix stays whole */
	textformat_header(&b, RENDER_OPENMETRICS, "x_total", "g", FAMILY_GAUGE);
	textformat_header(&b, RENDER_OPENMETRICS, "_total", "c", FAMILY_COUNTER);
	ASSERT_STREQ(b.buf, "# HELP x a \\\"b\\\" \\\\ c\\nd\n# TYPE x counter\n"
			    "# HELP x i\n# TYPE x info\n"
			    "# HELP x u\n# TYPE x unknown\n"
			    "# HELP x_total g\n# TYPE x_total gauge\n"
			    "# HELP _total c\n# TYPE _total counter\n");
	strbuf_done(&b);
	ASSERT_STREQ(textformat_content_type(RENDER_TEXT), PROMETHEUS_CONTENT_TYPE);
	ASSERT_STREQ(textformat_content_type(RENDER_OPENMETRICS), OPENMETRICS_CONTENT_TYPE);
}
