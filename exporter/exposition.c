/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Lazily rendered bodies behind a mutex: most scrapers ask for one variant,
 * so rendering all four up front would waste three.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "exposition.h"
#include "gzip.h"

struct body {
	char *data;
	size_t len;
	bool done;
};

struct exposition {
	atomic_uint refs;
	struct snapshot snap;
	struct render_options options;
	pthread_mutex_t lock;
	struct body bodies[_RENDER_FORMAT_MAX][2]; /* [format][gzip] */
};

int exposition_new(struct snapshot *snap, const struct render_options *o, struct exposition **ret)
{
	struct exposition *e = calloc(1, sizeof(*e));

	if (!e)
		return -ENOMEM;
	atomic_init(&e->refs, 1);
	e->snap = *snap;
	*snap = (struct snapshot){0};
	e->options = *o;
	pthread_mutex_init(&e->lock, NULL);
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
		for (size_t z = 0; z < 2; z++)
			free(e->bodies[f][z].data);
	pthread_mutex_destroy(&e->lock);
	snapshot_free(&e->snap);
	free(e);
}

const struct snapshot *exposition_snapshot(const struct exposition *e)
{
	return &e->snap;
}

static int render_body(struct exposition *e, enum render_format f, struct body *ret)
{
	struct render_options o = e->options;
	struct strbuf b = {0};
	int r;

	o.format = f;
	r = render_exposition(&e->snap, &o, &b);
	if (r < 0) {
		strbuf_done(&b);
		return r;
	}
	*ret = (struct body){.data = b.buf, .len = b.len, .done = true};
	return 0;
}

/* Called with e->lock held. */
static int make_body(struct exposition *e, enum render_format f, bool gzip)
{
	struct body *plain = &e->bodies[f][0], *z = &e->bodies[f][1];
	int r;

	if (!plain->done) {
		r = render_body(e, f, plain);
		if (r < 0)
			return r;
	}
	if (gzip && !z->done) {
		r = gzip_compress(plain->data, plain->len, &z->data, &z->len);
		if (r < 0)
			return r;
		z->done = true;
	}
	return 0;
}

int exposition_body(struct exposition *e, enum render_format f, bool gzip, const char **ret,
		    size_t *ret_len)
{
	int r;

	pthread_mutex_lock(&e->lock);
	r = make_body(e, f, gzip);
	pthread_mutex_unlock(&e->lock);
	if (r < 0)
		return r;
	/* Once done, a body never changes, so it may be read without the lock. */
	*ret = e->bodies[f][gzip].data;
	*ret_len = e->bodies[f][gzip].len;
	return 0;
}
