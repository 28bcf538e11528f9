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

#include "exporter/render.h"
#include "model/snapshot.h"

struct exposition;

/* Takes over *snap (left empty); o is copied and its extra self-metrics are rendered now. */
int exposition_new(struct snapshot *snap, const struct render_options *o, struct exposition **ret);
struct exposition *exposition_ref(struct exposition *e);
void exposition_unref(struct exposition *e);

const struct snapshot *exposition_snapshot(const struct exposition *e);

/*
 * A body of e, read in pieces with exposition_body_read(): the bytes
 * written to buf (at most max), 0 at the end, or -errno. gzip_level 0 is
 * plain text, others are gzip_new()'s. The body holds a reference to e
 * until freed.
 */
struct exposition_body;
int exposition_body_new(struct exposition *e, enum render_format f, unsigned gzip_level,
			struct exposition_body **ret);
ssize_t exposition_body_read(struct exposition_body *b, char *buf, size_t max);
void exposition_body_free(struct exposition_body *b);
