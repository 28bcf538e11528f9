/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pids reader (collector/controllers/pids.c) on both hierarchies.
 *
 * On the fixture files of one cgroup (tests/fixtures/v1, v2, hybrid,
 * captured from the guest kernel by tests/fixtures/capture): the exact list
 * of samples the reader produces, so a changed table row, unit or
 * "unlimited" rule shows up as a difference. Each layout's /a ran the same
 * workloads under the same limits, so the settled values agree across
 * layouts; the counters differ from run to run.
 */
#include <fcntl.h>
#include <unistd.h>

#include "base/fileio.h"
#include "base/util.h"
#include "helpers-collector.h"

TEST(pids_limit_failures_from_events_and_max_is_absent)
{
	static const struct expect e[] = {
	    {METRIC_PIDS_CURRENT, NULL, 3},
	    {METRIC_PIDS_LIMIT, NULL, 64},
	    {METRIC_PIDS_LIMIT_FAILURES, NULL, 0},
	};
	struct cgroup_record r = read_fixture("v1", &reader_pids, false, false);
	char *dir = tmpdir_make();
	struct reading max;

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
	r = read_fixture("v2", &reader_pids, true, false);
	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);

	/* the fixtures have a limit; "max" is unlimited: no sample */
	file_write(dir, "pids.max", "max\n");
	reading_open(&max, dir);
	ASSERT_EQ(reader_pids.read_v2(&max.ctx), 0);
	ASSERT_EQ(max.rec.n_samples, 0);
	reading_close(&max);
	tmpdir_remove(dir);
	free(dir);
}
