/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdlib.h>

#include "base/u64map.h"
#include "collector/cputime.h"

__extension__ typedef unsigned __int128 u128;

struct cputime_tracker {
	struct u64gen splits; /* struct cputime, by cgroup ID */
};

struct cputime cputime_split(uint64_t run, struct cputime ticks, struct cputime prev)
{
	uint64_t system;

	if (prev.user + prev.system >= run)
		return prev;
	if (ticks.system == 0)
		system = 0;
	else if (ticks.user == 0)
		system = run;
	else
		system = (uint64_t)((u128)ticks.system * run / ((u128)ticks.system + ticks.user));
	if (system > run)
		system = run;
	if (system < prev.system)
		system = prev.system;
	if (run - system < prev.user)
		return (struct cputime){.user = prev.user, .system = run - prev.user};
	return (struct cputime){.user = run - system, .system = system};
}

int cputime_tracker_new(struct cputime_tracker **ret)
{
	struct cputime_tracker *t = malloc(sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->splits = U64GEN_INIT(struct cputime);
	*ret = t;
	return 0;
}

void cputime_tracker_free(struct cputime_tracker *t)
{
	if (!t)
		return;
	u64gen_done(&t->splits);
	free(t);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

struct cputime cputime_tracker_split(struct cputime_tracker *t, uint64_t id, uint64_t run,
				     struct cputime ticks, struct cputime kernel_prev)
{
	const struct cputime *last = NULL;
	struct cputime prev = kernel_prev, *now = NULL;

	if (t && id)
		now = u64gen_put(&t->splits, id, (const void **)&last);
	if (last)
		prev = (struct cputime){.user = max_u64(prev.user, last->user),
					.system = max_u64(prev.system, last->system)};
	/* read twice in one collection (a hierarchy mounted twice): the same split */
	if (now && (now->user || now->system))
		return *now;
	prev = cputime_split(run, ticks, prev);
	if (now)
		*now = prev;
	return prev;
}

void cputime_tracker_end(struct cputime_tracker *t)
{
	if (t)
		u64gen_end(&t->splits);
}
