/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The landing page, rendered from the same snapshot a scrape gets. Numbers
 * are rounded for reading here; /metrics has the exact values.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/util.h"
#include "exporter/landing.h"

/* A page for a person: past this many rows a browser struggles and /metrics is the place. */
#define LANDING_ROWS_MAX 5000

static void html_escaped(struct strbuf *b, const char *s)
{
	static const char *const entities[256] = {
	    ['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;",
	};

	for (size_t i = 0, n = strlen(s); i < n;) {
		const char *e = entities[(unsigned char)s[i]];
		char utf8[UTF8_ESCAPE_LEN];
		size_t used;

		if ((unsigned char)s[i] >= 0x80) {
			/* as the label values spell it (base/utf8.h) */
			strbuf_append(
			    b, utf8,
			    (size_t)(utf8_write_escaped(utf8, s + i, n - i, &used) - utf8));
			i += used;
			continue;
		}
		if (e)
			strbuf_puts(b, e);
		else
			strbuf_putc(b, s[i]);
		i++;
	}
}

/* A byte's rank in tree order: the end of a path, then '/', then everything else. */
static int tree_rank(unsigned char c)
{
	return c == '\0' ? 0 : c == '/' ? 1 : c + 2;
}

/* Path order in which every cgroup directly precedes its subtree. */
static int tree_cmp(const void *a, const void *b)
{
	const unsigned char *x =
	    (const unsigned char *)(*(const struct cgroup_record *const *)a)->path;
	const unsigned char *y =
	    (const unsigned char *)(*(const struct cgroup_record *const *)b)->path;

	for (; *x && *x == *y; x++, y++)
		;
	return tree_rank(*x) - tree_rank(*y);
}

static bool value_of(const struct cgroup_record *r, enum metric m, uint64_t *ret)
{
	for (size_t i = 0; i < r->n_samples; i++)
		if (r->samples[i].metric == m && r->samples[i].label == SAMPLE_NO_LABEL) {
			*ret = r->samples[i].value;
			return true;
		}
	return false;
}

static void bytes_human(struct strbuf *b, uint64_t v)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	double d = (double)v;
	size_t u = 0;

	while (d >= 1024 && u + 1 < ELEMENTSOF(units)) {
		d /= 1024;
		u++;
	}
	strbuf_printf(b, u ? "%.1f %s" : "%.0f %s", d, units[u]);
}

/* A count as people read it: 20,722. */
static void count_grouped(struct strbuf *b, uint64_t v)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64, v);

	for (int i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			strbuf_putc(b, ',');
		strbuf_putc(b, digits[i]);
	}
}

static void cell_cpu(struct strbuf *b, const struct cgroup_record *r)
{
	uint64_t usage, load;

	strbuf_puts(b, "<td class=n>");
	if (value_of(r, METRIC_CPU_USAGE, &usage))
		strbuf_printf(b, "%.2f s", (double)usage / 1e9);
	strbuf_puts(b, "</td><td class=n>");
	/* cpuacct.load is in percent of one CPU */
	if (value_of(r, METRIC_CPU_LOAD, &load))
		strbuf_printf(b, "%.2f", (double)load / 100);
	strbuf_puts(b, "</td>");
}

static void cell_memory(struct strbuf *b, const struct cgroup_record *r)
{
	uint64_t usage = 0, limit = 0;
	bool has_usage = value_of(r, METRIC_MEMORY_USAGE, &usage);
	bool has_limit = value_of(r, METRIC_MEMORY_LIMIT, &limit);

	strbuf_puts(b, "<td class=n>");
	if (has_usage)
		bytes_human(b, usage);
	strbuf_puts(b, "</td><td class=n>");
	if (has_limit)
		bytes_human(b, limit);
	strbuf_puts(b, "</td><td class=n>");
	/* usage / limit: "of limit" on every page (dashboards/README.md) */
	if (has_usage && has_limit && limit > 0) {
		double ratio = (double)usage / (double)limit;
		double pct = ratio > 1 ? 100 : ratio * 100;

		strbuf_printf(b,
			      "%.1f%% <div class=bar><div class=\"%s\" "
			      "style=\"width:%.1f%%\"></div></div>",
			      ratio * 100, ratio >= 0.9 ? "fill hot" : "fill", pct);
	}
	strbuf_puts(b, "</td>");
}

static void cell_limits(struct strbuf *b, const struct cgroup_record *r)
{
	uint64_t failures, periods, throttled, throttled_ns;

	strbuf_puts(b, "<td class=n>");
	if (value_of(r, METRIC_MEMORY_LIMIT_FAILURES, &failures)) {
		strbuf_puts(b, failures ? "<b>" : "");
		count_grouped(b, failures);
		strbuf_puts(b, failures ? "</b>" : "");
	}
	strbuf_puts(b, "</td><td class=n>");
	if (value_of(r, METRIC_CPU_THROTTLED_PERIODS, &throttled) &&
	    value_of(r, METRIC_CPU_PERIODS, &periods)) {
		/* without a quota there are no periods: nothing applies */
		if (periods == 0) {
			strbuf_puts(b, "-");
		} else {
			count_grouped(b, throttled);
			strbuf_puts(b, " / ");
			count_grouped(b, periods);
			if (value_of(r, METRIC_CPU_THROTTLED_TIME, &throttled_ns))
				strbuf_printf(b, " (%.2f s)", (double)throttled_ns / 1e9);
		}
	}
	strbuf_puts(b, "</td>");
}

static void row(struct strbuf *b, const struct cgroup_record *r)
{
	const char *name = strrchr(r->path, '/');
	unsigned depth = 0;

	for (const char *p = r->path; *p; p++)
		depth += *p == '/';
	if (strcmp(r->path, "/") == 0)
		depth = 0;
	strbuf_printf(b, "<tr><td style=\"padding-left:%.1fem\" title=\"", 0.4 + 1.2 * depth);
	html_escaped(b, r->path);
	strbuf_puts(b, "\">");
	html_escaped(b, name && name[1] ? name + 1 : r->path);
	strbuf_puts(b, "</td>");
	cell_cpu(b, r);
	cell_memory(b, r);
	cell_limits(b, r);
	strbuf_puts(b, "</tr>\n");
}

static const char head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width\">\n<title>cgacct</title>\n"
    "<style>\n"
    "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\n"
    "table{border-collapse:collapse;font-size:90%}\n"
    "th,td{padding:.2em .6em;border-bottom:1px solid #ddd;text-align:left;white-space:nowrap}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    ".bar{display:inline-block;vertical-align:middle;width:6em;height:.8em;background:#eee;"
    "border-radius:.2em}\n"
    ".fill{height:100%;background:#4a8;border-radius:.2em}.hot{background:#d54}\n"
    "</style>\n</head>\n<body>\n<h1>cgacct</h1>\n";

static void summary(struct strbuf *b, const struct snapshot *s, const char *version)
{
	strbuf_puts(b, "<p>Per-cgroup resource accounting for Prometheus. "
		       "Metrics: <a href=\"/metrics\">/metrics</a>.</p>\n<p>cgacctd ");
	html_escaped(b, version);
	strbuf_printf(b, ": %zu cgroups collected in %.1f ms", s->n_records,
		      (double)s->duration_ns / 1e6);
	if (s->vanished)
		strbuf_printf(b, ", %" PRIu64 " vanished while being read", s->vanished);
	for (size_t i = 0; i < s->n_collectors; i++)
		if (s->collectors[i].errors) {
			strbuf_puts(b, "; collector ");
			html_escaped(b, s->collectors[i].name);
			strbuf_printf(b, " failed %u times", s->collectors[i].errors);
		}
	strbuf_puts(b, ".</p>\n");
	if (s->bpf_records)
		strbuf_puts(b, "<p>Values from the BPF bulk reader's records where they hold them, "
			       "from files for the rest.</p>\n");
	else if (s->bpf_error) {
		strbuf_puts(b, "<p>Values from files: the BPF pins folder ");
		html_escaped(b, snapshot_bpf_problem(s->bpf_error));
		strbuf_puts(b, ".</p>\n");
	}
}

int landing_render(const struct snapshot *s, const char *version, struct strbuf *out)
{
	_cleanup_free_ const struct cgroup_record **order =
	    calloc(s->n_records ? s->n_records : 1, sizeof(*order));
	size_t rows = s->n_records < LANDING_ROWS_MAX ? s->n_records : LANDING_ROWS_MAX;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < s->n_records; i++)
		order[i] = &s->records[i];
	qsort(order, s->n_records, sizeof(*order), tree_cmp);

	strbuf_puts(out, head);
	summary(out, s, version);
	strbuf_puts(out,
		    "<table>\n<thead><tr><th>cgroup</th><th>CPU used</th><th>CPU load "
		    "(10 s)</th><th>memory</th><th>limit</th><th title=\"memory usage / limit\">of "
		    "limit</th><th>limit "
		    "failures</th><th>throttled periods</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < rows; i++)
		row(out, order[i]);
	strbuf_puts(out, "</tbody>\n</table>\n");
	if (rows < s->n_records)
		strbuf_printf(out,
			      "<p>%zu more cgroups are not shown here; /metrics has them.</p>\n",
			      s->n_records - rows);
	strbuf_puts(out, "</body>\n</html>\n");
	return strbuf_status(out);
}
