/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The result of one collection as HTTP serves it: the immutable snapshot,
 * and bodies (text or OpenMetrics, plain or gzip) rendered from it piece by
 * piece as they are sent. Reference counted, because an HTTP response keeps
 * sending a body after a newer collection has replaced it.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "exporter/model/snapshot.h"
#include "exporter/render.h"

struct exposition;

/* Takes over *snap (left empty); o is copied and its extra self-metrics are rendered now. */
int exposition_new(struct snapshot *snap, const struct render_options *o, struct exposition **ret);
struct exposition *exposition_ref(struct exposition *e);
void exposition_unref(struct exposition *e);

const struct snapshot *exposition_snapshot(const struct exposition *e);

/*
 * A body of e, read in pieces with body_stream_read(): the bytes written to
 * buf (at most max), 0 at the end, or -errno. The stream holds a reference
 * to e until freed.
 */
struct body_stream;
int exposition_stream(struct exposition *e, enum render_format f, bool gzip,
		      struct body_stream **ret);
ssize_t body_stream_read(struct body_stream *b, char *buf, size_t max);
void body_stream_free(struct body_stream *b);
