/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The result of one collection as HTTP serves it: the immutable snapshot
 * and its renderings, each made on first request (text or OpenMetrics,
 * plain or gzip) and then shared. Reference counted, because an HTTP
 * response keeps sending a body after a newer collection has replaced it.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "render.h"
#include "snapshot.h"

struct exposition;

/* Takes over *snap (left empty); o is copied, its extra_userdata must outlive e. */
int exposition_new(struct snapshot *snap, const struct render_options *o, struct exposition **ret);
struct exposition *exposition_ref(struct exposition *e);
void exposition_unref(struct exposition *e);

const struct snapshot *exposition_snapshot(const struct exposition *e);

/* The body in format f, gzip'd or not; valid while the reference is held. */
int exposition_body(struct exposition *e, enum render_format f, bool gzip, const char **ret,
		    size_t *ret_len);
