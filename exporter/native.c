/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The native rows, from metric-rows.h, and how their lines are written.
 * Names follow the Prometheus conventions checked by `promtool check
 * metrics`: base units in the name (seconds, bytes), counters end in
 * _total, ratios rather than percentages. Each family means the same on cgroup v1 and v2, so one
 * dashboard and one alert rule serve both; where only one version has a
 * file, the family exists only there.
 */
#include <stddef.h>
#include <string.h>

#include "base/clock.h"
#include "base/util.h"
#include "exporter/native.h"
#include "model/identity.h"

const struct native_row native_rows[_METRIC_MAX] = {
#define METRIC(id, type_, name_, label_, divisor_, info_label_, help_)                             \
	[METRIC_##id] = {.name = name_,                                                            \
			 .help = help_,                                                            \
			 .type = FAMILY_##type_,                                                   \
			 .label = label_,                                                          \
			 .divisor = divisor_,                                                      \
			 .info_label = info_label_},
#include "model/metric-rows.h"
#undef METRIC
};

static const char *row_name(size_t k)
{
	return native_rows[k].name;
}

static size_t record_series(const struct cgroup_record *r)
{
	return r->n_samples;
}

/*
 * cgroup_info's labels for what runs in the cgroup: those its path tells
 * (identity.h) and the name and image its container's runtime gave. One
 * series per cgroup to join on, not labels on every series.
 */
static void write_identity(struct strbuf *b, const struct cgroup_record *r)
{
	const char *path = r->path, *name = NULL, *image = NULL;
	char value[IDENTITY_VALUE_MAX + 1];
	const struct identity *id = &r->identity;
	const struct {
		const char *name;
		const struct identity_span *span; /* the value's place in the path, or */
		const char *const *text;	  /* the value */
	} labels[] = {
	    {"unit", &id->unit, NULL},
	    {"container_runtime", NULL, &id->runtime},
	    {"container_id", &id->container_id, NULL},
	    {"container_name", NULL, &name},
	    {"image", NULL, &image},
	    {"pod_uid", &id->pod_uid, NULL},
	    {"qos_class", NULL, &id->qos_class},
	};

	if (r->container) {
		name = r->container->name;
		image = r->container->image;
	}
	for (size_t i = 0; i < ELEMENTSOF(labels); i++) {
		const char *v = labels[i].text ? *labels[i].text : NULL;

		if (labels[i].span && labels[i].span->len > 0) {
			identity_value(path, labels[i].span, value);
			v = value;
		}
		if (!v)
			continue;
		strbuf_putc(b, ',');
		strbuf_puts(b, labels[i].name);
		strbuf_puts(b, "=\"");
		textformat_label_value(b, v);
		strbuf_putc(b, '"');
	}
}

/* Punctuation of the longest sample line: {cgroup="",="",=""} 1 and the newline. */
#define SAMPLE_PUNCTUATION 32

/*
 * One line, written in place after a single reservation: a scrape renders
 * tens of them per cgroup. path is the record's cgroup label value,
 * already escaped; name_len is the length of row's name; identity, for
 * cgroup_info's rows, write_identity()'s labels.
 */
static void write_sample(struct strbuf *b, const struct native_row *row, size_t name_len,
			 const struct label_text *path, const struct strbuf *identity,
			 const struct cgroup_record *r, const struct sample *s)
{
	const char *label = row->label ? sample_label(r, s) : NULL;
	size_t label_len = label ? strlen(label) : 0;
	char *p = strbuf_space(b, name_len + path->len + NATIVE_LABEL_NAMES_MAX +
				      TEXTFORMAT_LABEL_VALUE_MAX(label_len) +
				      TEXTFORMAT_SCALED_MAX + SAMPLE_PUNCTUATION);

	if (!p)
		return;
	p = mempcpy(p, row->name, name_len);
	p = mempcpy(p, "{cgroup=\"", 9);
	p = mempcpy(p, path->text, path->len);
	*p++ = '"';
	if (row->label) {
		*p++ = ',';
		p = stpcpy(p, row->label);
		p = mempcpy(p, "=\"", 2);
		p = textformat_write_label_value(p, label, label_len);
		*p++ = '"';
	}
	if (row->info_label) {
		*p++ = ',';
		p = stpcpy(p, row->info_label);
		p = mempcpy(p, "=\"", 2);
		p = format_u64(p, s->value);
		*p++ = '"';
		strbuf_commit(b, p);
		if (identity->len > 0)
			strbuf_append(b, identity->buf, identity->len);
		strbuf_puts(b, "} 1\n");
		return;
	}
	p = mempcpy(p, "} ", 2);
	p = textformat_write_scaled(p, s->value, row->divisor);
	*p++ = '\n';
	strbuf_commit(b, p);
}

/*
 * A record's samples are sorted by metric, so its cursor only moves forward
 * across families. cgroup_info has a series per v1 hierarchy: its identity
 * labels are written once per record.
 */
static void family_series(struct family_writer *w, const struct cgroup_record *records,
			  const struct label_text *paths, size_t *cursor, size_t n)
{
	const struct native_row *head = &native_rows[w->first];
	size_t name_len = strlen(head->name);
	struct strbuf identity = {0};

	for (size_t i = 0; i < n; i++) {
		const struct cgroup_record *r = &records[i];

		if (head->info_label) {
			strbuf_truncate(&identity, 0);
			write_identity(&identity, r);
		}
		for (; cursor[i] < r->n_samples && r->samples[cursor[i]].metric < w->end;
		     cursor[i]++) {
			const struct sample *s = &r->samples[cursor[i]];

			if (s->metric < w->first)
				continue;
			family_writer_header(w, head->name, head->help, head->type);
			write_sample(w->b, &native_rows[s->metric], name_len, &paths[i], &identity,
				     r, s);
		}
	}
	strbuf_done(&identity);
}

const struct naming native_naming = {
    .n_rows = _METRIC_MAX,
    .row_name = row_name,
    .record_series = record_series,
    .family_series = family_series,
};
