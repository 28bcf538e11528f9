/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A collection's snapshot, shared by the scrapes that serve it, and the
 * bodies made from it. A body is rendered (and gzipped) as it is sent, one
 * piece at a time: on a large host the text runs to tens of MiB, which no
 * scrape should have to hold.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "exporter/exposition.h"
#include "exporter/gzip.h"

struct exposition {
	atomic_uint refs;
	struct snapshot snap;
	struct render_options options;
	/*
	 * The options' extra self-metrics as they were when the collection
	 * finished: every body of one collection is the same, however late
	 * it is rendered.
	 */
	struct strbuf extra[_RENDER_FORMAT_MAX];
};

struct exposition_body {
	struct exposition *e; /* a reference: the snapshot outlives the body */
	struct render_stream *render;
	struct gzip *gzip;  /* NULL: plain text */
	struct strbuf text; /* rendered, from pos on not yet handed out */
	size_t pos;
	bool rendered; /* the renderer has nothing more */
};

static void frozen_extra(struct strbuf *b, enum render_format f, const void *userdata)
{
	const struct exposition *e = userdata;

	strbuf_append(b, e->extra[f].buf, e->extra[f].len);
}

int exposition_new(struct snapshot *snap, const struct render_options *o, struct exposition **ret)
{
	struct exposition *e = calloc(1, sizeof(*e));

	if (!e)
		return -ENOMEM;
	atomic_init(&e->refs, 1);
	e->options = *o;
	if (o->extra) {
		for (size_t f = 0; f < _RENDER_FORMAT_MAX; f++) {
			o->extra(&e->extra[f], (enum render_format)f, o->extra_userdata);
			if (strbuf_status(&e->extra[f]) < 0) {
				exposition_unref(e);
				return -ENOMEM;
			}
		}
		e->options.extra = frozen_extra;
		e->options.extra_userdata = e;
	}
	e->snap = *snap;
	*snap = (struct snapshot){0};
	*ret = e;
	return 0;
}

struct exposition *exposition_ref(struct exposition *e)
{
	atomic_fetch_add(&e->refs, 1);
	return e;
}

void exposition_unref(struct exposition *e)
{
	if (!e || atomic_fetch_sub(&e->refs, 1) != 1)
		return;
	for (size_t f = 0; f < _RENDER_FORMAT_MAX; f++)
		strbuf_done(&e->extra[f]);
	snapshot_free(&e->snap);
	free(e);
}

const struct snapshot *exposition_snapshot(const struct exposition *e)
{
	return &e->snap;
}

int exposition_body_new(struct exposition *e, enum render_format f, unsigned gzip_level,
			struct exposition_body **ret)
{
	struct render_options o = e->options;
	struct exposition_body *b = calloc(1, sizeof(*b));
	int r;

	if (!b)
		return -ENOMEM;
	o.format = f;
	r = render_stream_new(&e->snap, &o, &b->render);
	if (r >= 0 && gzip_level > 0)
		r = gzip_new(gzip_level, &b->gzip);
	if (r < 0) {
		render_stream_free(b->render);
		free(b);
		return r;
	}
	b->e = exposition_ref(e);
	*ret = b;
	return 0;
}

/* Renders more once everything rendered was handed out; 0 when there is no more. */
static int refill(struct exposition_body *b)
{
	while (b->pos == b->text.len && !b->rendered) {
		int r;

		strbuf_truncate(&b->text, 0);
		b->pos = 0;
		r = render_stream_next(b->render, &b->text);
		if (r < 0)
			return r;
		b->rendered = r == 0;
	}
	return b->pos < b->text.len;
}

ssize_t exposition_body_read(struct exposition_body *b, char *buf, size_t max)
{
	size_t n = 0;

	while (n < max) {
		const char *in;
		size_t in_len;
		ssize_t got;
		int r = refill(b);

		if (r < 0)
			return r;
		in = b->text.buf + b->pos;
		in_len = b->text.len - b->pos;
		if (!b->gzip) {
			if (r == 0)
				break;
			got = (ssize_t)(in_len < max - n ? in_len : max - n);
			memcpy(buf + n, in, (size_t)got);
			b->pos += (size_t)got;
		} else {
			if (gzip_done(b->gzip))
				break;
			got = gzip_deflate(b->gzip, &in, &in_len, b->rendered, buf + n, max - n);
			if (got < 0)
				return got;
			b->pos = b->text.len - in_len;
		}
		n += (size_t)got;
	}
	return (ssize_t)n;
}

void exposition_body_free(struct exposition_body *b)
{
	if (!b)
		return;
	render_stream_free(b->render);
	gzip_free(b->gzip);
	strbuf_done(&b->text);
	exposition_unref(b->e);
	free(b);
}
