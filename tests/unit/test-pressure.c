/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pressure reader (collector/controllers/pressure.c), v2 only, and its
 * parser of the *.pressure files.
 *
 * On the fixture files of one cgroup (tests/fixtures/v1, v2, hybrid,
 * captured from the guest kernel by tests/fixtures/capture): the exact list
 * of samples the reader produces, so a changed table row, unit or
 * "unlimited" rule shows up as a difference. Each layout's /a ran the same
 * workloads under the same limits, so the settled values agree across
 * layouts; the counters differ from run to run.
 */
#include <errno.h>

#include "base/util.h"
#include "collector/controllers/pressure.h"
#include "helpers-collector.h"

TEST(pressure_exports_totals_in_usec)
{
	static const struct expect e[] = {
	    {METRIC_PRESSURE_CPU_WAITING, NULL, 8984332},
	    {METRIC_PRESSURE_CPU_STALLED, NULL, 8845263},
	    {METRIC_PRESSURE_MEMORY_WAITING, NULL, 1380413},
	    {METRIC_PRESSURE_MEMORY_STALLED, NULL, 1380413},
	    {METRIC_PRESSURE_IO_WAITING, NULL, 182161},
	    {METRIC_PRESSURE_IO_STALLED, NULL, 147743},
	};
	struct cgroup_record r = read_fixture("v2", &reader_pressure, true, false);

	check_samples(&r, e, ELEMENTSOF(e));
	record_done(&r);
}

TEST(pressure_parser_takes_each_line_total_once)
{
	uint64_t totals[2], found;

	ASSERT_EQ(
	    parse_pressure(LIT("some avg10=0.00 avg60=0.00 avg300=0.00 total=5\n"), totals, &found),
	    0);
	ASSERT_EQ_U64(found, 1u << PRESSURE_SOME);
	ASSERT_EQ_U64(totals[PRESSURE_SOME], 5);
	ASSERT_EQ(parse_pressure(LIT("some avg10=0.00\n"), totals, &found), -EBADMSG);
	ASSERT_EQ(parse_pressure(
		      LIT("some avg10=0.00 avg60=0.00 avg300=0.00 total=7 \n"
			  "full avg10=0.00 avg60=0.00 avg300=0.00 total=18446744073709551615\n"),
		      totals, &found),
		  0);
	ASSERT_EQ_U64(found, (1u << PRESSURE_SOME) | (1u << PRESSURE_FULL));
	ASSERT_EQ_U64(totals[PRESSURE_SOME], 7);
	ASSERT_EQ_U64(totals[PRESSURE_FULL], UINT64_MAX);
	ASSERT_EQ(parse_pressure(LIT("full total=\n"), totals, &found), -EBADMSG);
	ASSERT_EQ(parse_pressure(LIT("full xtotal=1\n"), totals, &found), -EBADMSG);
	ASSERT_EQ(parse_pressure(LIT("some total=1\nsome total=2\n"), totals, &found), -EBADMSG);
	ASSERT_EQ(parse_pressure(LIT("some\n"), totals, &found), -EBADMSG);
}
