/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Rendering a snapshot as the Prometheus text exposition format 0.0.4 or
 * as OpenMetrics 1.0. Pure formatting: the exporter never opens a cgroup
 * file.
 */
#pragma once

#include <stdint.h>

#include "base/strbuf.h"
#include "exporter/model/snapshot.h"
#include "exporter/native.h"

#define PROMETHEUS_CONTENT_TYPE	 "text/plain; version=0.0.4; charset=utf-8"
#define OPENMETRICS_CONTENT_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

enum render_format {
	RENDER_TEXT,	    /* 0.0.4, what promtool and every Prometheus parse */
	RENDER_OPENMETRICS, /* 1.0.0: counters and infos typed by family name, "# EOF" */
	_RENDER_FORMAT_MAX,
};

enum render_naming {
	RENDER_NAMING_NATIVE,	/* the cgroup_* families of families.c */
	RENDER_NAMING_CADVISOR, /* cAdvisor's container_* names and labels, cadvisor.c */
};

struct render_options {
	enum render_format format;
	enum render_naming naming;
	const char *version; /* for cgacct_build_info */
	uint64_t max_series; /* cap on per-cgroup series, 0 = none; whole cgroups are dropped */
	/* More self-metric families, written before OpenMetrics' end marker; may be NULL. */
	void (*extra)(struct strbuf *b, enum render_format f, const void *userdata);
	const void *extra_userdata;
};

/* The whole exposition, appended to out. */
int render_exposition(const struct snapshot *s, const struct render_options *o, struct strbuf *out);

/*
 * The same piece by piece, for bodies too large to hold whole: each
 * render_stream_next() appends the next part to out and returns 1, then 0
 * at the end. s must outlive the stream.
 */
struct render_stream;
int render_stream_new(const struct snapshot *s, const struct render_options *o,
		      struct render_stream **ret);
int render_stream_next(struct render_stream *rs, struct strbuf *out);
void render_stream_free(struct render_stream *rs);
/* The text format without a cap or extra families, as cgacctd --once prints it. */
int render_prometheus(const struct snapshot *s, const char *version, struct strbuf *out);

/* "# HELP" and "# TYPE" of a family, named as the format wants. */
void render_header(struct strbuf *b, enum render_format f, const char *name, const char *help,
		   enum family_type type);
void render_label_value(struct strbuf *b, const char *value);
void render_scaled(struct strbuf *b, uint64_t value, uint64_t divisor);
const char *render_content_type(enum render_format f);
