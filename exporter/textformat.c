/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The two formats differ only in the family headers (OpenMetrics names a
 * counter "x" and its sample "x_total", has an info type, escapes quotes in
 * HELP) and in OpenMetrics' mandatory "# EOF" (render.c); sample lines are
 * the same in both.
 */
#include <stdbool.h>
#include <string.h>

#include "exporter/textformat.h"

const char *textformat_content_type(enum render_format f)
{
	return f == RENDER_OPENMETRICS ? OPENMETRICS_CONTENT_TYPE : PROMETHEUS_CONTENT_TYPE;
}

/* What the samples of a family of this type are named with after the family name. */
static const char *sample_suffix(enum family_type type)
{
	switch (type) {
	case FAMILY_COUNTER:
		return "_total";
	case FAMILY_INFO:
		return "_info";
	default:
		return "";
	}
}

/* HELP text: 0.0.4 escapes backslash and newline, OpenMetrics also '"'. */
static void help_text(struct strbuf *b, const char *value, bool quote)
{
	const char *special = quote ? "\\\n\"" : "\\\n";

	for (const char *p = value;;) {
		size_t run = strcspn(p, special);

		strbuf_append(b, p, run);
		p += run;
		if (!*p)
			return;
		strbuf_puts(b, *p == '\\' ? "\\\\" : *p == '\n' ? "\\n" : "\\\"");
		p++;
	}
}

void textformat_header(struct strbuf *b, enum render_format f, const char *name, const char *help,
		       enum family_type type)
{
	static const char *const keywords[][_RENDER_FORMAT_MAX] = {
	    [FAMILY_GAUGE] = {"gauge", "gauge"},
	    [FAMILY_COUNTER] = {"counter", "counter"},
	    [FAMILY_INFO] = {"gauge", "info"},
	    [FAMILY_UNTYPED] = {"untyped", "unknown"},
	};
	bool om = f == RENDER_OPENMETRICS;
	const char *suffix = sample_suffix(type);
	size_t len = strlen(name), suffix_len = strlen(suffix);

	if (om && len > suffix_len && strcmp(name + len - suffix_len, suffix) == 0)
		len -= suffix_len;
	strbuf_printf(b, "# HELP %.*s ", (int)len, name);
	help_text(b, help, om);
	strbuf_printf(b, "\n# TYPE %.*s %s\n", (int)len, name, keywords[type][f]);
}

void textformat_label_value(struct strbuf *b, const char *value)
{
	size_t len = strlen(value);
	char *p = strbuf_space(b, TEXTFORMAT_LABEL_VALUE_MAX(len));

	if (p)
		strbuf_commit(b, textformat_write_label_value(p, value, len));
}

void textformat_scaled(struct strbuf *b, uint64_t value, uint64_t divisor)
{
	char *p = strbuf_space(b, TEXTFORMAT_SCALED_MAX);

	if (p)
		strbuf_commit(b, textformat_write_scaled(p, value, divisor));
}
