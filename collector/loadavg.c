/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One entry per cgroup ID, from one collection to the next (base/u64map.h);
 * a cgroup read twice in one collection (a hierarchy mounted twice) is
 * folded once.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "base/clock.h"
#include "base/u64map.h"
#include "collector/loadavg.h"

const struct loadavg_window loadavg_windows[LOADAVG_WINDOWS] = {
    {60, "1m"},
    {300, "5m"},
    {900, "15m"},
};

struct load_entry {
	uint64_t runnable_nsec, at_nsec;
	double avg[LOADAVG_WINDOWS];
	bool averaged; /* avg holds something: there was an interval */
};

struct load_tracker {
	struct u64gen entries;
};

int load_tracker_new(struct load_tracker **ret)
{
	struct load_tracker *t = malloc(sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->entries = U64GEN_INIT(struct load_entry);
	*ret = t;
	return 0;
}

void load_tracker_free(struct load_tracker *t)
{
	if (!t)
		return;
	u64gen_done(&t->entries);
	free(t);
}

static void fold(struct load_entry *e, const struct load_entry *before)
{
	double seconds = (double)(e->at_nsec - before->at_nsec) / NSEC_PER_SEC;
	double mean = (double)(e->runnable_nsec - before->runnable_nsec) /
		      (double)(e->at_nsec - before->at_nsec);

	for (size_t i = 0; i < LOADAVG_WINDOWS; i++)
		e->avg[i] = before->averaged ? mean + (before->avg[i] - mean) *
							  exp(-seconds / loadavg_windows[i].seconds)
					     : mean;
	e->averaged = true;
}

bool load_tracker_fold(struct load_tracker *t, uint64_t id, uint64_t runnable_nsec,
		       uint64_t now_nsec, uint64_t ret_avg[LOADAVG_WINDOWS])
{
	const struct load_entry *before;
	struct load_entry *e;

	if (id == 0)
		return false;
	e = u64gen_put(&t->entries, id, (const void **)&before);
	if (!e)
		return false;
	if (e->at_nsec) /* read already in this collection */
		goto out;
	*e = (struct load_entry){.runnable_nsec = runnable_nsec, .at_nsec = now_nsec};
	/* a counter that went back is a new count: start over */
	if (before && now_nsec > before->at_nsec && runnable_nsec >= before->runnable_nsec)
		fold(e, before);
	else if (before && now_nsec == before->at_nsec)
		*e = *before;
out:
	for (size_t i = 0; e->averaged && i < LOADAVG_WINDOWS; i++)
		ret_avg[i] = (uint64_t)llround(e->avg[i] * 1000);
	return e->averaged;
}

void load_tracker_end(struct load_tracker *t)
{
	u64gen_end(&t->entries);
}
