/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Rendering a snapshot as the Prometheus text exposition format 0.0.4 or
 * as OpenMetrics 1.0, under either naming. Pure formatting: the exporter
 * never opens a cgroup file.
 */
#pragma once

#include <stdint.h>

#include "base/strbuf.h"
#include "exporter/textformat.h"
#include "model/snapshot.h"

enum render_naming {
	RENDER_NAMING_NATIVE,	/* the cgroup_* families of native.c */
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
