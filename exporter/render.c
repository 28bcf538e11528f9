/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The exposition, in text format 0.0.4 or OpenMetrics 1.0: each family
 * once, contiguous, "# HELP" and "# TYPE" first; label values escape
 * backslash, double quote and newline; no timestamps, so Prometheus applies
 * staleness when a cgroup disappears. Families without any sample are left
 * out entirely.
 *
 * The two formats differ only in the family headers (OpenMetrics names a
 * counter "x" and its sample "x_total", has an info type, escapes quotes in
 * HELP) and in OpenMetrics' mandatory "# EOF"; everything else is shared.
 * The per-cgroup families are named natively (families.c) or as cAdvisor
 * names them (cadvisor.c); the cgacct_* self-metrics are the same in both.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "exporter/cadvisor.h"
#include "exporter/render.h"

/* Enough digits for every divisor we use (1e9, 1024 needs 10). */
#define FRACTION_DIGITS_MAX 12

/* A cgroup label value, escaped once per stream rather than once per sample. */
struct label_text {
	const char *text;
	size_t len;
	char *owned; /* text, when escaping changed the path */
};

const char *render_content_type(enum render_format f)
{
	return f == RENDER_OPENMETRICS ? OPENMETRICS_CONTENT_TYPE : PROMETHEUS_CONTENT_TYPE;
}

/* HELP text: 0.0.4 escapes backslash and newline, OpenMetrics also '"'. */
static void render_escaped(struct strbuf *b, const char *value, bool quote)
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

/*
 * value / divisor in exact decimal, by long division: nanosecond counters
 * print as "12.000345678" with no float rounding, so tests and the guest
 * comparison can match kernel files digit for digit. dst needs SCALED_MAX.
 */
#define SCALED_MAX (20 + 1 + FRACTION_DIGITS_MAX)

static char *format_scaled(char *dst, uint64_t value, uint64_t divisor)
{
	uint64_t rem;

	if (divisor <= 1)
		return format_u64(dst, value);
	dst = format_u64(dst, value / divisor);
	rem = value % divisor;
	if (rem == 0)
		return dst;
	*dst++ = '.';
	for (int i = 0; i < FRACTION_DIGITS_MAX && rem; i++) {
		rem *= 10;
		*dst++ = (char)('0' + rem / divisor);
		rem %= divisor;
	}
	return dst;
}

void render_scaled(struct strbuf *b, uint64_t value, uint64_t divisor)
{
	char *p = strbuf_space(b, SCALED_MAX);

	if (p)
		strbuf_commit(b, format_scaled(p, value, divisor));
}

void render_header(struct strbuf *b, enum render_format f, const char *name, const char *help,
		   enum family_type type)
{
	static const char *const keywords[][_RENDER_FORMAT_MAX] = {
	    [FAMILY_GAUGE] = {"gauge", "gauge"},
	    [FAMILY_COUNTER] = {"counter", "counter"},
	    [FAMILY_INFO] = {"gauge", "info"},
	    [FAMILY_UNTYPED] = {"untyped", "unknown"},
	};
	bool om = f == RENDER_OPENMETRICS;
	size_t len = strlen(name), suffix = strlen(family_sample_suffix(type));

	if (om && len > suffix && strcmp(name + len - suffix, family_sample_suffix(type)) == 0)
		len -= suffix;
	strbuf_printf(b, "# HELP %.*s ", (int)len, name);
	render_escaped(b, help, om);
	strbuf_printf(b, "\n# TYPE %.*s %s\n", (int)len, name, keywords[type][f]);
}

/* A label value escaped at dst (which needs 2 * len bytes); returns the end. */
static char *format_label_value(char *dst, const char *value, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		char c = value[i];

		if (c == '\\' || c == '"' || c == '\n') {
			*dst++ = '\\';
			c = c == '\n' ? 'n' : c;
		}
		*dst++ = c;
	}
	return dst;
}

void render_label_value(struct strbuf *b, const char *value)
{
	size_t len = strlen(value);
	char *p = strbuf_space(b, 2 * len);

	if (p)
		strbuf_commit(b, format_label_value(p, value, len));
}

/* Punctuation of the longest sample line: {cgroup="",="",=""} 1 and the newline. */
#define SAMPLE_PUNCTUATION 32

/*
 * One line, written in place after a single reservation: a scrape of 10,000
 * cgroups renders 650,000 of them. path is the record's cgroup label value,
 * already escaped.
 */
static void render_sample(struct strbuf *b, const struct family *f, size_t name_len,
			  const struct label_text *path, const struct cgroup_record *r,
			  const struct sample *s)
{
	const char *label = f->label ? sample_label(r, s) : NULL;
	size_t label_len = label ? strlen(label) : 0;
	char *p = strbuf_space(b, name_len + path->len + FAMILY_LABEL_NAMES_MAX + 2 * label_len +
				      SCALED_MAX + SAMPLE_PUNCTUATION);

	if (!p)
		return;
	p = mempcpy(p, f->name, name_len);
	p = mempcpy(p, "{cgroup=\"", 9);
	p = mempcpy(p, path->text, path->len);
	*p++ = '"';
	if (f->label) {
		*p++ = ',';
		p = stpcpy(p, f->label);
		p = mempcpy(p, "=\"", 2);
		p = format_label_value(p, label, label_len);
		*p++ = '"';
	}
	if (f->info_label) {
		*p++ = ',';
		p = stpcpy(p, f->info_label);
		p = mempcpy(p, "=\"", 2);
		p = format_u64(p, s->value);
		p = mempcpy(p, "\"} 1\n", 5);
	} else {
		p = mempcpy(p, "} ", 2);
		p = format_scaled(p, s->value, f->divisor);
		*p++ = '\n';
	}
	strbuf_commit(b, p);
}

/* Metrics [first, end) share a name: one family. */
static size_t family_end(size_t first)
{
	size_t end = first + 1;

	while (end < _METRIC_MAX && strcmp(families[end].name, families[first].name) == 0)
		end++;
	return end;
}

/*
 * Family [first, end) over records [from, to). Records' samples are sorted
 * by metric, so each record's cursor only moves forward across families.
 */
static void render_family(struct strbuf *b, enum render_format f, const struct snapshot *s,
			  const struct label_text *paths, size_t from, size_t to, size_t *cursor,
			  size_t first, size_t end, bool *header)
{
	const struct family *fam = &families[first];
	size_t name_len = strlen(fam->name);

	for (size_t i = from; i < to; i++) {
		const struct cgroup_record *r = &s->records[i];

		for (; cursor[i] < r->n_samples && r->samples[cursor[i]].metric < end;
		     cursor[i]++) {
			const struct sample *sm = &r->samples[cursor[i]];

			if (sm->metric < first)
				continue;
			if (!*header) {
				render_header(b, f, fam->name, fam->help, fam->type);
				*header = true;
			}
			render_sample(b, &families[sm->metric], name_len, &paths[i], r, sm);
		}
	}
}

static size_t record_series_native(const struct cgroup_record *r)
{
	return r->n_samples;
}

/*
 * How many records (in path order) fit under the series cap, counting each
 * record's series as the naming renders it. Whole cgroups are dropped rather
 * than single series, so what is exported of a cgroup is always complete and
 * the cut is the same on every scrape.
 */
static size_t records_within_cap(const struct snapshot *s, uint64_t cap,
				 size_t (*series_of)(const struct cgroup_record *r),
				 uint64_t *ret_dropped)
{
	uint64_t series = 0, dropped = 0;
	size_t keep = s->n_records;

	for (size_t i = 0; i < s->n_records; i++) {
		size_t n = series_of(&s->records[i]);

		if (keep == s->n_records && cap > 0 && series + n > cap)
			keep = i;
		if (keep == s->n_records)
			series += n;
		else
			dropped += n;
	}
	*ret_dropped = dropped;
	return keep;
}

static void render_self(struct strbuf *b, enum render_format f, const struct snapshot *s,
			const char *version, size_t kept, uint64_t dropped)
{
	render_header(b, f, "cgacct_build_info", "cgacct version, value always 1.", FAMILY_INFO);
	strbuf_puts(b, "cgacct_build_info{version=\"");
	render_label_value(b, version);
	strbuf_puts(b, "\"} 1\n");

	render_header(b, f, "cgacct_collection_duration_seconds",
		      "Time the collection behind this exposition took.", FAMILY_GAUGE);
	strbuf_puts(b, "cgacct_collection_duration_seconds ");
	render_scaled(b, s->duration_ns, 1000000000u);
	strbuf_putc(b, '\n');

	render_header(b, f, "cgacct_collector_success",
		      "1 if the collector read every cgroup without error.", FAMILY_GAUGE);
	for (size_t i = 0; i < s->n_collectors; i++)
		strbuf_printf(b, "cgacct_collector_success{collector=\"%s\"} %d\n",
			      s->collectors[i].name, s->collectors[i].errors == 0);

	render_header(b, f, "cgacct_collector_errors",
		      "Cgroups or hierarchies the collector failed to read.", FAMILY_GAUGE);
	for (size_t i = 0; i < s->n_collectors; i++)
		strbuf_printf(b, "cgacct_collector_errors{collector=\"%s\"} %u\n",
			      s->collectors[i].name, s->collectors[i].errors);

	render_header(b, f, "cgacct_cgroups", "Cgroups collected per hierarchy.", FAMILY_GAUGE);
	for (size_t i = 0; i < s->n_hierarchies; i++) {
		strbuf_puts(b, "cgacct_cgroups{hierarchy=\"");
		render_label_value(b, s->hierarchies[i].name);
		strbuf_printf(b, "\"} %zu\n", s->hierarchies[i].cgroups);
	}

	render_header(b, f, "cgacct_cgroups_vanished",
		      "Cgroups removed while the collection was reading them.", FAMILY_GAUGE);
	strbuf_printf(b, "cgacct_cgroups_vanished %" PRIu64 "\n", s->vanished);

	render_header(b, f, "cgacct_held_files",
		      "Cgroup files kept open for the next collection (keep_open_files).",
		      FAMILY_GAUGE);
	strbuf_printf(b, "cgacct_held_files %" PRIu64 "\n", s->held_files);
	render_header(b, f, "cgacct_held_directories",
		      "Cgroup directories kept open for the next collection (keep_open_files).",
		      FAMILY_GAUGE);
	strbuf_printf(b, "cgacct_held_directories %" PRIu64 "\n", s->held_dirs);

	render_header(b, f, "cgacct_series_limit_hit",
		      "1 if max_series cut cgroups from this exposition.", FAMILY_GAUGE);
	strbuf_printf(b, "cgacct_series_limit_hit %d\n", kept < s->n_records);
	render_header(b, f, "cgacct_series_dropped",
		      "Series left out of this exposition by max_series.", FAMILY_GAUGE);
	strbuf_printf(b, "cgacct_series_dropped %" PRIu64 "\n", dropped);
}

/*
 * Records one step renders of a family: a few KiB to some tens of KiB of
 * text, so that a stream holds only that much, whatever the tree's size.
 */
#define RECORDS_PER_STEP 64

struct render_stream {
	const struct snapshot *s;
	struct render_options o;
	bool cadvisor;
	size_t kept;	   /* records within max_series */
	uint64_t dropped;  /* series left out by max_series */
	size_t first, end; /* the current family: metrics (native) or rows (cAdvisor) */
	size_t record;	   /* its next record */
	bool header;	   /* its header is out */
	bool done;
	size_t *cursor;		  /* native: per record, its next sample */
	struct label_text *paths; /* native: per record, its escaped path */
};

static void free_paths(struct label_text *paths, size_t n)
{
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i].owned);
	free(paths);
}

/* Escapes each kept record's path once; nearly every path needs nothing, and is borrowed. */
static struct label_text *escape_paths(const struct snapshot *s, size_t n)
{
	struct label_text *paths = calloc(n ? n : 1, sizeof(*paths));

	for (size_t i = 0; paths && i < n; i++) {
		const char *path = s->records[i].path;
		size_t len = strlen(path);

		paths[i] = (struct label_text){.text = path, .len = len};
		if (strcspn(path, "\\\"\n") == len)
			continue;
		paths[i].owned = malloc(2 * len + 1);
		if (!paths[i].owned) {
			free_paths(paths, i);
			return NULL;
		}
		paths[i].len =
		    (size_t)(format_label_value(paths[i].owned, path, len) - paths[i].owned);
		paths[i].text = paths[i].owned;
	}
	return paths;
}

int render_stream_new(const struct snapshot *s, const struct render_options *o,
		      struct render_stream **ret)
{
	struct render_stream *rs = calloc(1, sizeof(*rs));

	if (!rs)
		return -ENOMEM;
	rs->s = s;
	rs->o = *o;
	rs->cadvisor = o->naming == RENDER_NAMING_CADVISOR;
	rs->kept = records_within_cap(s, o->max_series,
				      rs->cadvisor ? cadvisor_record_series : record_series_native,
				      &rs->dropped);
	rs->end = rs->cadvisor ? cadvisor_family_end(0) : family_end(0);
	rs->cursor = calloc(s->n_records ? s->n_records : 1, sizeof(*rs->cursor));
	if (!rs->cadvisor)
		rs->paths = escape_paths(s, rs->kept);
	if (!rs->cursor || (!rs->cadvisor && !rs->paths)) {
		render_stream_free(rs);
		return -ENOMEM;
	}
	*ret = rs;
	return 0;
}

void render_stream_free(struct render_stream *rs)
{
	if (!rs)
		return;
	free_paths(rs->paths, rs->kept);
	free(rs->cursor);
	free(rs);
}

/* One step of the per-cgroup families; moves on to the next family at its end. */
static void render_step(struct render_stream *rs, struct strbuf *out)
{
	size_t to =
	    rs->record + RECORDS_PER_STEP < rs->kept ? rs->record + RECORDS_PER_STEP : rs->kept;

	if (rs->cadvisor)
		cadvisor_render_family(out, rs->o.format, rs->s, rs->record, to, rs->first, rs->end,
				       &rs->header);
	else
		render_family(out, rs->o.format, rs->s, rs->paths, rs->record, to, rs->cursor,
			      rs->first, rs->end, &rs->header);
	rs->record = to;
	if (rs->record < rs->kept)
		return;
	rs->first = rs->end;
	rs->record = 0;
	rs->header = false;
	if (rs->first < (rs->cadvisor ? n_cadvisor_families : _METRIC_MAX))
		rs->end = rs->cadvisor ? cadvisor_family_end(rs->first) : family_end(rs->first);
}

int render_stream_next(struct render_stream *rs, struct strbuf *out)
{
	const struct render_options *o = &rs->o;

	if (rs->done)
		return 0;
	if (rs->first < (rs->cadvisor ? n_cadvisor_families : _METRIC_MAX)) {
		render_step(rs, out);
		return strbuf_status(out) < 0 ? -ENOMEM : 1;
	}
	render_self(out, o->format, rs->s, o->version, rs->kept, rs->dropped);
	if (o->extra)
		o->extra(out, o->format, o->extra_userdata);
	if (o->format == RENDER_OPENMETRICS)
		strbuf_puts(out, "# EOF\n");
	rs->done = true;
	return strbuf_status(out) < 0 ? -ENOMEM : 1;
}

int render_exposition(const struct snapshot *s, const struct render_options *o, struct strbuf *out)
{
	struct render_stream *rs;
	int r = render_stream_new(s, o, &rs);

	if (r < 0)
		return r;
	while ((r = render_stream_next(rs, out)) > 0)
		;
	render_stream_free(rs);
	return r;
}

int render_prometheus(const struct snapshot *s, const char *version, struct strbuf *out)
{
	const struct render_options o = {.format = RENDER_TEXT, .version = version};

	return render_exposition(s, &o, out);
}
