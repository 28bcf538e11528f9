/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pids controller (kernel/cgroup/pids.c): identical files on v1 and v2.
 * pids.events "max" counts forks refused by the limit, the pids analogue
 * of memory's failcnt. A BPF record (collector/bpf/) holds all three.
 */
#include "base/util.h"
#include "collector/bpf/source.h"
#include "collector/controllers/controller.h"
#include "collector/parse.h"

/* pids.max prints "max" from PIDS_MAX, PID_MAX_LIMIT + 1, on: 4194305 on 64-bit kernels. */
#define PIDS_MAX 4194305

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

static int pids_read_v2(const struct reader_ctx *c)
{
	const struct record *rec = reader_record(c);
	int r;

	if (!rec)
		return pids_read(c);
	if (!(rec->has & RECORD_HAS_PIDS)) /* not enabled here */
		return 0;
	r = reader_emit(c, METRIC_PIDS_CURRENT, NULL, rec->pids_current, 1);
	if (r >= 0)
		r = reader_emit(c, METRIC_PIDS_LIMIT, NULL,
				rec->pids_max >= PIDS_MAX ? CG_UNLIMITED : rec->pids_max, 1);
	if (r >= 0)
		r = reader_emit(c, METRIC_PIDS_LIMIT_FAILURES, NULL, rec->pids_events_max, 1);
	return r;
}

const struct controller_reader reader_pids = {
    .read_v1 = pids_read,
    .read_v2 = pids_read_v2,
};
