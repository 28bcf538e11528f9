/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The Prometheus text format 0.0.4 and OpenMetrics 1.0 at the level of a
 * line: family headers, label-value escaping, exact decimal values, the
 * content types. Everything that writes exposition text (the namings, the
 * self-metrics, the service's counters) writes it with these, and nothing
 * here knows a snapshot.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/utf8.h"

#define PROMETHEUS_CONTENT_TYPE	 "text/plain; version=0.0.4; charset=utf-8"
#define OPENMETRICS_CONTENT_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

enum render_format {
	RENDER_TEXT,	    /* 0.0.4, what promtool and every Prometheus parse */
	RENDER_OPENMETRICS, /* 1.0.0: counters and infos typed by family name, "# EOF" */
	_RENDER_FORMAT_MAX,
};

/*
 * A family's type. Its samples are named with the type's suffix, "_total"
 * for a counter, "_info" for an info; OpenMetrics names the family without
 * it in "# HELP" and "# TYPE".
 */
enum family_type {
	FAMILY_GAUGE,
	FAMILY_COUNTER,
	FAMILY_INFO,	/* a gauge of 1 whose labels carry the information */
	FAMILY_UNTYPED, /* no type claimed: for foreign names a type would make lint fail */
};

const char *textformat_content_type(enum render_format f);

/* "# HELP" and "# TYPE" of the family whose samples are called name. */
void textformat_header(struct strbuf *b, enum render_format f, const char *name, const char *help,
		       enum family_type type);

/*
 * A label value, escaped: backslash, double quote and newline as the
 * formats say, and made valid UTF-8 as base/utf8.h says, so that one cgroup
 * with a name of stray bytes cannot make the whole exposition unreadable.
 */
void textformat_label_value(struct strbuf *b, const char *value);

/* The most textformat_write_label_value() writes for len bytes. */
#define TEXTFORMAT_LABEL_VALUE_MAX(len) (UTF8_ESCAPE_LEN * (len))

/*
 * The same written at dst, which needs TEXTFORMAT_LABEL_VALUE_MAX(len)
 * bytes; returns the end. Inline, as is textformat_write_scaled(): every
 * sample line of a scrape is written in place with them.
 */
static inline char *textformat_write_label_value(char *dst, const char *value, size_t len)
{
	for (size_t i = 0; i < len;) {
		char c = value[i];
		size_t used;

		if ((unsigned char)c >= 0x80) {
			dst = utf8_write_escaped(dst, value + i, len - i, &used);
			i += used;
			continue;
		}
		if (c == '\\' || c == '"' || c == '\n') {
			*dst++ = '\\';
			c = c == '\n' ? 'n' : c;
		}
		*dst++ = c;
		i++;
	}
	return dst;
}

/* Whether value needs no escaping at all, so that it can be written as it is. */
static inline bool textformat_label_value_plain(const char *value, size_t len)
{
	return strcspn(value, "\\\"\n") >= len && utf8_unchanged(value, len);
}

/* Enough digits for every divisor we use (1e9, 1024 needs 10). */
#define TEXTFORMAT_FRACTION_DIGITS_MAX 12
/* The longest value textformat_write_scaled() writes. */
#define TEXTFORMAT_SCALED_MAX (20 + 1 + TEXTFORMAT_FRACTION_DIGITS_MAX)

/*
 * value / divisor in exact decimal, by long division: nanosecond counters
 * print as "12.000345678" with no float rounding, so tests and the guest
 * comparison can match kernel files digit for digit. A divisor of 0 or 1
 * prints the integer.
 */
void textformat_scaled(struct strbuf *b, uint64_t value, uint64_t divisor);

/* The same written at dst, which needs TEXTFORMAT_SCALED_MAX bytes; returns the end. */
static inline char *textformat_write_scaled(char *dst, uint64_t value, uint64_t divisor)
{
	uint64_t rem;

	if (divisor <= 1)
		return format_u64(dst, value);
	dst = format_u64(dst, value / divisor);
	rem = value % divisor;
	if (rem == 0)
		return dst;
	*dst++ = '.';
	for (int i = 0; i < TEXTFORMAT_FRACTION_DIGITS_MAX && rem; i++) {
		rem *= 10;
		*dst++ = (char)('0' + rem / divisor);
		rem %= divisor;
	}
	return dst;
}
