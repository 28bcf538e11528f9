/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "collector/bpf/source.h"

static int deeper_first(const void *a, const void *b)
{
	const struct record *x = ((const struct bpf_cgroup *const *)a)[0]->r;
	const struct record *y = ((const struct bpf_cgroup *const *)b)[0]->r;

	return (x->level < y->level) - (x->level > y->level);
}

/*
 * The walk keeps each cgroup's own wait (cgacct.bpf.c); cpu.stat's, which
 * the metric has, is the subtree's: children add theirs to their parents,
 * the deepest first.
 */
static int sum_waits(struct bpf_source *s)
{
	struct bpf_cgroup **order = calloc(s->records.n ? s->records.n : 1, sizeof(*order));
	const struct record *r;
	const char *name;
	size_t n = 0, pos = 0;

	if (!order)
		return -ENOMEM;
	while ((r = bpf_records_next(&s->records, &pos, &name)))
		order[n++] = u64map_get(&s->index, r->id);
	qsort(order, n, sizeof(*order), deeper_first);
	for (size_t i = 0; i < n; i++) {
		struct bpf_cgroup *parent = u64map_get(&s->index, order[i]->r->parent_id);

		if (parent && (order[i]->r->has & RECORD_HAS_WAIT))
			parent->wait_ns += order[i]->wait_ns;
	}
	free(order);
	return 0;
}

int bpf_source_index(struct bpf_records *records, struct bpf_source *ret)
{
	struct bpf_source s = {.records = *records, .index = U64MAP_INIT(struct bpf_cgroup)};
	const struct record *r;
	const char *name;
	size_t pos = 0;
	bool waits = false;
	int err = 0;

	*records = (struct bpf_records){0};
	while (err == 0 && (r = bpf_records_next(&s.records, &pos, &name))) {
		struct bpf_cgroup *c = r->id ? u64map_put(&s.index, r->id, s.records.n) : NULL;

		if (!r->id)
			err = -EBADMSG;
		else if (!c)
			err = -ENOMEM;
		else if (c->r) /* an ID is one cgroup's */
			err = -EBADMSG;
		else
			*c = (struct bpf_cgroup){.r = r, .wait_ns = r->wait_ns};
		waits |= (r->has & RECORD_HAS_WAIT) != 0;
	}
	/* without cgacct-bpf load --wait, the usual case, there is nothing to sum */
	if (err == 0 && waits)
		err = sum_waits(&s);
	if (err < 0) {
		bpf_source_done(&s);
		return err;
	}
	*ret = s;
	return 0;
}

int bpf_source_read(const char *dir, struct bpf_source *ret)
{
	struct bpf_records records;
	int r = bpf_records_read(dir, &records);

	return r < 0 ? r : bpf_source_index(&records, ret);
}

const struct bpf_cgroup *bpf_source_find(const struct bpf_source *s, uint64_t id)
{
	return id ? u64map_get(&s->index, id) : NULL;
}

void bpf_source_done(struct bpf_source *s)
{
	bpf_records_done(&s->records);
	u64map_done(&s->index);
}
