/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pids controller (kernel/cgroup/pids.c): identical files on v1 and v2.
 * pids.events "max" counts forks refused by the limit, the pids analogue
 * of memory's failcnt.
 */
#include "base/util.h"
#include "collector/controllers/controller.h"

static const struct file_metric pids_files[] = {
    {"pids.current", METRIC_PIDS_CURRENT, VALUE_COUNT, 0},
    {"pids.max", METRIC_PIDS_LIMIT, VALUE_LIMIT, 0},
};

static const struct key_metric pids_events[] = {
    {"max", METRIC_PIDS_LIMIT_FAILURES, NULL, 0},
};

static int pids_read(const struct reader_ctx *c)
{
	int r = read_file_metrics(c, pids_files, ELEMENTSOF(pids_files));

	if (r < 0)
		return r;
	return read_keyed_file(c, "pids.events", pids_events, ELEMENTSOF(pids_events), NULL, NULL);
}

const struct controller_reader reader_pids = {
    .read_v1 = pids_read,
    .read_v2 = pids_read,
};
