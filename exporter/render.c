/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The exposition: each family once, contiguous, "# HELP" and "# TYPE"
 * first; no timestamps, so Prometheus applies staleness when a cgroup
 * disappears. Families without any sample are left out entirely.
 *
 * The per-cgroup families come from a naming (naming.h): native.c or
 * cadvisor.c. This file walks them family by family, a few records at a
 * time so that a stream holds little whatever the tree's size, keeps the
 * max_series cap, and adds the cgacct_* self-metrics, the same in both
 * namings, and OpenMetrics' "# EOF".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "exporter/cadvisor.h"
#include "exporter/native.h"
#include "exporter/render.h"

static const struct naming *const namings[] = {
    [RENDER_NAMING_NATIVE] = &native_naming,
    [RENDER_NAMING_CADVISOR] = &cadvisor_naming,
};

/*
 * How many records (in path order) fit under the series cap, counting each
 * record's series as the naming renders it. Whole cgroups are dropped rather
 * than single series, so what is exported of a cgroup is always complete and
 * the cut is the same on every scrape.
 */
static size_t records_within_cap(const struct snapshot *s, uint64_t cap, const struct naming *n,
				 uint64_t *ret_dropped)
{
	uint64_t series = 0, dropped = 0;
	size_t keep = s->n_records;

	*ret_dropped = 0;
	if (cap == 0) /* no cap: nothing to count */
		return keep;
	for (size_t i = 0; i < s->n_records; i++) {
		size_t k = n->record_series(&s->records[i]);

		if (keep == s->n_records && cap > 0 && series + k > cap)
			keep = i;
		if (keep == s->n_records)
			series += k;
		else
			dropped += k;
	}
	*ret_dropped = dropped;
	return keep;
}

/* A self-metric family of one unlabelled gauge sample, value / divisor. */
static void self_gauge(struct strbuf *b, enum render_format f, const char *name, const char *help,
		       uint64_t value, uint64_t divisor)
{
	textformat_header(b, f, name, help, FAMILY_GAUGE);
	strbuf_puts(b, name);
	strbuf_putc(b, ' ');
	textformat_scaled(b, value, divisor);
	strbuf_putc(b, '\n');
}

/* A self-metric sample with one label: name{label="value"} n. */
static void self_labelled(struct strbuf *b, const char *name, const char *label, const char *value,
			  uint64_t n)
{
	strbuf_puts(b, name);
	strbuf_putc(b, '{');
	strbuf_puts(b, label);
	strbuf_puts(b, "=\"");
	textformat_label_value(b, value);
	strbuf_puts(b, "\"} ");
	strbuf_put_u64(b, n);
	strbuf_putc(b, '\n');
}

static void render_self(struct strbuf *b, enum render_format f, const struct snapshot *s,
			const char *version, size_t kept, uint64_t dropped)
{
	textformat_header(b, f, "cgacct_build_info", "cgacct version, value always 1.",
			  FAMILY_INFO);
	self_labelled(b, "cgacct_build_info", "version", version, 1);
	self_gauge(b, f, "cgacct_collection_duration_seconds",
		   "Time the collection behind this exposition took.", s->duration_ns,
		   NSEC_PER_SEC);

	textformat_header(b, f, "cgacct_collector_success",
			  "1 if the collector read every cgroup without error.", FAMILY_GAUGE);
	for (size_t i = 0; i < s->n_collectors; i++)
		self_labelled(b, "cgacct_collector_success", "collector", s->collectors[i].name,
			      s->collectors[i].errors == 0);
	textformat_header(b, f, "cgacct_collector_errors",
			  "Cgroups or hierarchies the collector failed to read.", FAMILY_GAUGE);
	for (size_t i = 0; i < s->n_collectors; i++)
		self_labelled(b, "cgacct_collector_errors", "collector", s->collectors[i].name,
			      s->collectors[i].errors);
	textformat_header(b, f, "cgacct_cgroups", "Cgroups collected per hierarchy.", FAMILY_GAUGE);
	for (size_t i = 0; i < s->n_hierarchies; i++)
		self_labelled(b, "cgacct_cgroups", "hierarchy", s->hierarchies[i].name,
			      s->hierarchies[i].cgroups);

	textformat_header(b, f, "cgacct_collection_source",
			  "Where the values came from: bpf (the BPF records of bpf_pins, files for "
			  "what they lack) or files; value always 1.",
			  FAMILY_GAUGE);
	self_labelled(b, "cgacct_collection_source", "source", s->bpf_records ? "bpf" : "files", 1);
	self_gauge(b, f, "cgacct_cgroups_vanished",
		   "Cgroups removed while the collection was reading them.", s->vanished, 1);
	self_gauge(b, f, "cgacct_held_files",
		   "Cgroup files kept open for the next collection (keep_open_files).",
		   s->held_files, 1);
	self_gauge(b, f, "cgacct_held_directories",
		   "Cgroup directories kept open for the next collection (keep_open_files).",
		   s->held_dirs, 1);
	self_gauge(b, f, "cgacct_series_limit_hit",
		   "1 if max_series cut cgroups from this exposition.", kept < s->n_records, 1);
	self_gauge(b, f, "cgacct_series_dropped",
		   "Series left out of this exposition by max_series.", dropped, 1);
	if (s->n_runtimes == 0) /* container_runtime_sockets: none */
		return;
	textformat_header(b, f, "cgacct_container_runtime_up",
			  "1 if the container runtime answered with its list when last asked.",
			  FAMILY_GAUGE);
	for (size_t i = 0; i < s->n_runtimes; i++)
		self_labelled(b, "cgacct_container_runtime_up", "socket", s->runtimes[i].socket,
			      s->runtimes[i].up);
	textformat_header(b, f, "cgacct_container_runtime_containers",
			  "Containers in the last list the container runtime gave.", FAMILY_GAUGE);
	for (size_t i = 0; i < s->n_runtimes; i++)
		self_labelled(b, "cgacct_container_runtime_containers", "socket",
			      s->runtimes[i].socket, s->runtimes[i].containers);
}

/*
 * Records one step renders of a family: a few KiB to some tens of KiB of
 * text, so that a stream holds only that much, whatever the tree's size.
 */
#define RECORDS_PER_STEP 64

struct render_stream {
	const struct snapshot *s;
	struct render_options o;
	const struct naming *naming;
	size_t kept;		     /* records within max_series */
	uint64_t dropped;	     /* series left out by max_series */
	struct family_writer family; /* the current one */
	size_t record;		     /* its next record */
	bool done;
	size_t *cursor;		  /* per record, for the naming: its place in the samples */
	struct label_text *paths; /* per kept record, its escaped path */
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
		if (textformat_label_value_plain(path, len))
			continue;
		paths[i].owned = malloc(TEXTFORMAT_LABEL_VALUE_MAX(len) + 1);
		if (!paths[i].owned) {
			free_paths(paths, i);
			return NULL;
		}
		paths[i].len = (size_t)(textformat_write_label_value(paths[i].owned, path, len) -
					paths[i].owned);
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
	rs->naming = namings[o->naming];
	rs->kept = records_within_cap(s, o->max_series, rs->naming, &rs->dropped);
	rs->family = (struct family_writer){
	    .s = rs->s, .format = o->format, .end = naming_family_end(rs->naming, 0)};
	rs->cursor = calloc(s->n_records ? s->n_records : 1, sizeof(*rs->cursor));
	rs->paths = escape_paths(s, rs->kept);
	if (!rs->cursor || !rs->paths) {
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
	struct family_writer *w = &rs->family;
	size_t from = rs->record,
	       to = from + RECORDS_PER_STEP < rs->kept ? from + RECORDS_PER_STEP : rs->kept;

	w->b = out;
	if (from < to) /* an empty snapshot's records are NULL */
		rs->naming->family_series(w, &rs->s->records[from], &rs->paths[from],
					  &rs->cursor[from], to - from);
	rs->record = to;
	if (rs->record < rs->kept)
		return;
	rs->record = 0;
	w->first = w->end;
	w->header = false;
	if (w->first < rs->naming->n_rows)
		w->end = naming_family_end(rs->naming, w->first);
}

int render_stream_next(struct render_stream *rs, struct strbuf *out)
{
	const struct render_options *o = &rs->o;

	if (rs->done)
		return 0;
	if (rs->family.first < rs->naming->n_rows) {
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
