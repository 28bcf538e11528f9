/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text format 0.0.4: each family once, contiguous, "# HELP" and "# TYPE"
 * first; label values escape backslash, double quote and newline; no
 * timestamps, so Prometheus applies staleness when a cgroup disappears.
 * Families without any sample are left out entirely.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"
#include "render.h"

/* Enough digits for every divisor we use (1e9, 1024 needs 10). */
#define FRACTION_DIGITS_MAX 12

void render_label_value(struct strbuf *b, const char *value)
{
	for (const char *p = value; *p; p++) {
		switch (*p) {
		case '\\':
			strbuf_puts(b, "\\\\");
			break;
		case '"':
			strbuf_puts(b, "\\\"");
			break;
		case '\n':
			strbuf_puts(b, "\\n");
			break;
		default:
			strbuf_putc(b, *p);
		}
	}
}

/*
 * value / divisor in exact decimal, by long division: nanosecond counters
 * print as "12.000345678" with no float rounding, so tests and the guest
 * comparison can match kernel files digit for digit.
 */
void render_scaled(struct strbuf *b, uint64_t value, uint64_t divisor)
{
	uint64_t rem;

	if (divisor <= 1) {
		strbuf_printf(b, "%" PRIu64, value);
		return;
	}
	strbuf_printf(b, "%" PRIu64, value / divisor);
	rem = value % divisor;
	if (rem == 0)
		return;
	strbuf_putc(b, '.');
	for (int i = 0; i < FRACTION_DIGITS_MAX && rem; i++) {
		rem *= 10;
		strbuf_putc(b, (char)('0' + rem / divisor));
		rem %= divisor;
	}
}

static void render_header(struct strbuf *b, const char *name, const char *help, bool counter)
{
	strbuf_printf(b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
		      counter ? "counter" : "gauge");
}

static void render_sample(struct strbuf *b, const struct family *f, const char *path,
			  const struct sample *s)
{
	strbuf_puts(b, f->name);
	strbuf_puts(b, "{cgroup=\"");
	render_label_value(b, path);
	strbuf_putc(b, '"');
	if (f->label) {
		strbuf_printf(b, ",%s=\"", f->label);
		render_label_value(b, s->label);
		strbuf_putc(b, '"');
	}
	if (f->info_label) {
		strbuf_printf(b, ",%s=\"%" PRIu64 "\"} 1\n", f->info_label, s->value);
		return;
	}
	strbuf_puts(b, "} ");
	render_scaled(b, s->value, f->divisor);
	strbuf_putc(b, '\n');
}

/*
 * Metrics [first, end) form one family. Records' samples are sorted by
 * metric, so each record's cursor only moves forward across families.
 */
static void render_family(struct strbuf *b, const struct snapshot *s, size_t *cursor,
			  unsigned first, unsigned end)
{
	bool header = false;

	for (size_t i = 0; i < s->n_records; i++) {
		const struct cgroup_record *r = &s->records[i];

		for (; cursor[i] < r->n_samples && r->samples[cursor[i]].metric < end;
		     cursor[i]++) {
			const struct sample *sm = &r->samples[cursor[i]];

			if (sm->metric < first)
				continue;
			if (!header) {
				render_header(b, families[first].name, families[first].help,
					      families[first].type == FAMILY_COUNTER);
				header = true;
			}
			render_sample(b, &families[sm->metric], r->path, sm);
		}
	}
}

static void render_self(struct strbuf *b, const struct snapshot *s, const char *version)
{
	render_header(b, "cgacct_build_info", "cgacct version, value always 1.", false);
	strbuf_puts(b, "cgacct_build_info{version=\"");
	render_label_value(b, version);
	strbuf_puts(b, "\"} 1\n");

	render_header(b, "cgacct_collection_duration_seconds",
		      "Time the collection behind this exposition took.", false);
	strbuf_puts(b, "cgacct_collection_duration_seconds ");
	render_scaled(b, s->duration_ns, 1000000000u);
	strbuf_putc(b, '\n');

	render_header(b, "cgacct_collector_success",
		      "1 if the collector read every cgroup without error.", false);
	for (size_t i = 0; i < s->n_collectors; i++)
		strbuf_printf(b, "cgacct_collector_success{collector=\"%s\"} %d\n",
			      s->collectors[i].name, s->collectors[i].errors == 0);

	render_header(b, "cgacct_collector_errors",
		      "Cgroups or hierarchies the collector failed to read.", false);
	for (size_t i = 0; i < s->n_collectors; i++)
		strbuf_printf(b, "cgacct_collector_errors{collector=\"%s\"} %u\n",
			      s->collectors[i].name, s->collectors[i].errors);

	render_header(b, "cgacct_cgroups", "Cgroups collected per hierarchy.", false);
	for (size_t i = 0; i < s->n_hierarchies; i++) {
		strbuf_puts(b, "cgacct_cgroups{hierarchy=\"");
		render_label_value(b, s->hierarchies[i].name);
		strbuf_printf(b, "\"} %zu\n", s->hierarchies[i].cgroups);
	}

	render_header(b, "cgacct_cgroups_vanished",
		      "Cgroups removed while the collection was reading them.", false);
	strbuf_printf(b, "cgacct_cgroups_vanished %" PRIu64 "\n", s->vanished);
}

int render_prometheus(const struct snapshot *s, const char *version, struct strbuf *out)
{
	size_t *cursor = calloc(s->n_records ? s->n_records : 1, sizeof(*cursor));

	if (!cursor)
		return -ENOMEM;
	for (unsigned m = 0; m < _METRIC_MAX;) {
		unsigned end = m + 1;

		while (end < _METRIC_MAX && strcmp(families[end].name, families[m].name) == 0)
			end++;
		render_family(out, s, cursor, m, end);
		m = end;
	}
	free(cursor);
	render_self(out, s, version);
	return strbuf_status(out);
}
