/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu controller (kernel/sched/core.c): weight, CFS bandwidth and its
 * throttling statistics. On v2, cpu.stat is a core file present in every
 * cgroup and also carries the usage/user/system times that cpuacct gives
 * on v1, so both map to the same metrics.
 *
 * Weight: v1 cpu.shares (default 1024) and v2 cpu.weight (default 100) are
 * one quantity on two scales; the kernel converts weight to shares as
 * weight * 1024 / 100. We export the v2 scale, so a dashboard reads "100"
 * for a default group on both. To stay exact, the stored unit is 1/1024 of
 * a weight: v2 weight * 1024, v1 shares * 100 (shares * 100 / 1024 is
 * always a finite binary fraction, so the exporter prints it exactly).
 *
 * Run-queue wait comes from our kernel series, on v2 only, and is absent
 * elsewhere (stock kernels, v1, the root cgroup): cpu.stat wait_usec is
 * the time the group's tasks waited for a CPU, throttled time and waits
 * still in progress included. Runnable time, running or waiting, is
 * usage_usec + wait_usec, and its load averages follow from it
 * (collector/loadavg.h).
 *
 * A BPF record (collector/bpf/) holds what cpu.stat, cpu.max, cpu.max.burst
 * and cpu.weight print, before the kernel prints it: the same figures are
 * derived from it as the files would show, in the files' units.
 */
#include <errno.h>
#include <string.h>

#include "base/clock.h"
#include "base/util.h"
#include "collector/bpf/source.h"
#include "collector/controllers/controller.h"
#include "collector/controllers/cpu.h"
#include "collector/cputime.h"
#include "collector/loadavg.h"
#include "collector/parse.h"

/* v2 cpu.max: "$QUOTA $PERIOD" with QUOTA "max" when unlimited. */
int parse_cpu_max(const char *buf, size_t len, uint64_t *ret_quota, uint64_t *ret_period)
{
	struct span rest = span_make(buf, len), line, quota, period, extra;

	if (!span_next_line(&rest, &line) || rest.len > 0 || !span_next_word(&line, &quota) ||
	    !span_next_word(&line, &period) || span_next_word(&line, &extra))
		return -EBADMSG;
	if (parse_u64_or_max(quota, ret_quota) < 0 || parse_u64(period, ret_period) < 0)
		return -EBADMSG;
	return 0;
}

static const struct file_metric cpu_v1_files[] = {
    {"cpu.shares", METRIC_CPU_WEIGHT, VALUE_COUNT, 100},
    {"cpu.cfs_quota_us", METRIC_CPU_QUOTA, VALUE_SIGNED_LIMIT, 0},
    {"cpu.cfs_period_us", METRIC_CPU_PERIOD, VALUE_COUNT, 0},
    {"cpu.cfs_burst_us", METRIC_CPU_BURST_QUOTA, VALUE_COUNT, 0},
};

static const struct key_metric cpu_v1_stat[] = {
    {"nr_periods", METRIC_CPU_PERIODS, NULL, 0},
    {"nr_throttled", METRIC_CPU_THROTTLED_PERIODS, NULL, 0},
    {"throttled_time", METRIC_CPU_THROTTLED_TIME, NULL, 0},
    {"nr_bursts", METRIC_CPU_BURSTS, NULL, 0},
    {"burst_time", METRIC_CPU_BURST_TIME, NULL, 0},
};

static int cpu_read_v1(const struct reader_ctx *c)
{
	int r = read_file_metrics(c, cpu_v1_files, ELEMENTSOF(cpu_v1_files));

	if (r >= 0)
		r = read_keyed_file(c, "cpu.stat", cpu_v1_stat, ELEMENTSOF(cpu_v1_stat), NULL,
				    NULL);
	return r;
}

static const struct file_metric cpu_v2_files[] = {
    {"cpu.max.burst", METRIC_CPU_BURST_QUOTA, VALUE_COUNT, 0},
    {"cpu.weight", METRIC_CPU_WEIGHT, VALUE_COUNT, 1024},
};

/* The rows of cpu_v2_stat that runnable time is the sum of, and the rest a record fills. */
enum {
	STAT_USAGE,
	STAT_WAIT,
	STAT_USER,
	STAT_SYSTEM,
	STAT_PERIODS,
	STAT_THROTTLED,
	STAT_THROTTLED_TIME,
	STAT_BURSTS,
	STAT_BURST_TIME,
};

/* v2 reports microseconds where v1 reports nanoseconds. */
static const struct key_metric cpu_v2_stat[] = {
    [STAT_USAGE] = {"usage_usec", METRIC_CPU_USAGE, NULL, 1000},
    [STAT_WAIT] = {"wait_usec", METRIC_CPU_WAIT, NULL, 1000},
    [STAT_USER] = {"user_usec", METRIC_CPU_USER, NULL, 1000},
    [STAT_SYSTEM] = {"system_usec", METRIC_CPU_SYSTEM, NULL, 1000},
    [STAT_PERIODS] = {"nr_periods", METRIC_CPU_PERIODS, NULL, 0},
    [STAT_THROTTLED] = {"nr_throttled", METRIC_CPU_THROTTLED_PERIODS, NULL, 0},
    [STAT_THROTTLED_TIME] = {"throttled_usec", METRIC_CPU_THROTTLED_TIME, NULL, 1000},
    [STAT_BURSTS] = {"nr_bursts", METRIC_CPU_BURSTS, NULL, 0},
    [STAT_BURST_TIME] = {"burst_usec", METRIC_CPU_BURST_TIME, NULL, 1000},
};

static int read_cpu_max(const struct reader_ctx *c)
{
	const char *buf;
	uint64_t quota, period;
	size_t len;
	int r;

	r = reader_read(c, "cpu.max", &buf, &len);
	if (r <= 0)
		return r;
	r = parse_cpu_max(buf, len, &quota, &period);
	if (r >= 0)
		r = reader_emit(c, METRIC_CPU_QUOTA, NULL, quota, 1);
	if (r >= 0)
		r = reader_emit(c, METRIC_CPU_PERIOD, NULL, period, 1);
	return r;
}

/*
 * Runnable time from one read of cpu.stat, so that usage and wait agree.
 * Only where the kernel has wait_usec: 0 would say that no task waited.
 */
static int emit_cpu_runnable(const struct reader_ctx *c,
			     const uint64_t values[ELEMENTSOF(cpu_v2_stat)], uint64_t found)
{
	const uint64_t both = (UINT64_C(1) << STAT_USAGE) | (UINT64_C(1) << STAT_WAIT);

	const uint64_t scale = cpu_v2_stat[STAT_USAGE].scale;
	uint64_t runnable, avg[LOADAVG_WINDOWS];
	int r;

	if ((found & both) != both)
		return 0;
	if (values[STAT_WAIT] > UINT64_MAX / scale ||
	    values[STAT_USAGE] > UINT64_MAX / scale - values[STAT_WAIT])
		return -ERANGE;
	runnable = values[STAT_USAGE] + values[STAT_WAIT];
	r = reader_emit(c, METRIC_CPU_RUNNABLE, NULL, runnable, scale);
	if (r < 0 || !c->loads ||
	    !load_tracker_fold(c->loads, c->id, runnable * scale, now_nsec(), avg))
		return r;
	for (size_t i = 0; r >= 0 && i < LOADAVG_WINDOWS; i++)
		r = reader_emit(c, METRIC_CPU_LOAD_AVERAGE, loadavg_windows[i].label, avg[i], 1);
	return r;
}

/*
 * cpu.stat's values from a record, in the file's microseconds: the kernel
 * divides each of its nanosecond figures by 1000. The wait is the series'
 * where the kernel has it, else the one the BPF programs keep (--wait).
 */
static void cpu_stat_from_record(const struct reader_ctx *c, const struct record *rec,
				 uint64_t values[ELEMENTSOF(cpu_v2_stat)], uint64_t *found)
{
	const struct cputime ticks = {.user = rec->cpu_user_ns, .system = rec->cpu_system_ns};
	const struct cputime prev = {.user = rec->cpu_prev_user_ns,
				     .system = rec->cpu_prev_system_ns};
	struct cputime split =
	    cputime_tracker_split(c->cputimes, c->id, rec->cpu_usage_ns, ticks, prev);

	values[STAT_USAGE] = rec->cpu_usage_ns / 1000;
	values[STAT_USER] = split.user / 1000;
	values[STAT_SYSTEM] = split.system / 1000;
	*found = (1u << STAT_USAGE) | (1u << STAT_USER) | (1u << STAT_SYSTEM);
	if (rec->has & (RECORD_HAS_KERNEL_WAIT | RECORD_HAS_WAIT)) {
		values[STAT_WAIT] = rec->has & RECORD_HAS_KERNEL_WAIT ? rec->kernel_wait_usec
								      : c->bpf->wait_ns / 1000;
		*found |= 1u << STAT_WAIT;
	}
	if (!(rec->has & RECORD_HAS_CPU_CONTROLLER))
		return;
	values[STAT_PERIODS] = rec->cpu_periods;
	values[STAT_THROTTLED] = rec->cpu_throttled_periods;
	values[STAT_THROTTLED_TIME] = rec->cpu_throttled_ns / 1000;
	values[STAT_BURSTS] = rec->cpu_bursts;
	values[STAT_BURST_TIME] = rec->cpu_burst_ns / 1000;
	*found |= (1u << STAT_PERIODS) | (1u << STAT_THROTTLED) | (1u << STAT_THROTTLED_TIME) |
		  (1u << STAT_BURSTS) | (1u << STAT_BURST_TIME);
}

/* The cpu controller's files from a record: cpu.max, cpu.max.burst, cpu.weight. */
static int cpu_files_from_record(const struct reader_ctx *c, const struct record *rec)
{
	/* tg_weight(): scale_load_down() of the shares, 64-bit kernels' fixed point */
	uint64_t shares = rec->cpu_shares ? rec->cpu_shares >> 10 : 0;
	uint64_t weight;
	int r;

	if (rec->cpu_shares && shares < 2)
		shares = 2;
	/* sched_weight_to_cgroup(): rounded to the nearest, within 1..10000 */
	weight = (shares * 100 + 512) / 1024;
	weight = weight < 1 ? 1 : weight > 10000 ? 10000 : weight;
	r = reader_emit(
	    c, METRIC_CPU_QUOTA, NULL,
	    rec->cpu_quota_ns == RECORD_UNLIMITED ? CG_UNLIMITED : rec->cpu_quota_ns / 1000, 1);
	if (r >= 0)
		r = reader_emit(c, METRIC_CPU_PERIOD, NULL, rec->cpu_period_ns / 1000, 1);
	if (r >= 0)
		r = reader_emit(c, METRIC_CPU_BURST_QUOTA, NULL, rec->cpu_burst_quota_ns / 1000, 1);
	if (r >= 0)
		r = reader_emit(c, METRIC_CPU_WEIGHT, NULL, weight, 1024);
	return r;
}

/* Nearly in the order of the metrics (metric.h): the record needs little sorting. */
static int cpu_read_v2(const struct reader_ctx *c)
{
	const struct record *rec = reader_record(c);
	uint64_t values[ELEMENTSOF(cpu_v2_stat)], found = 0;
	int r;

	if (rec) {
		cpu_stat_from_record(c, rec, values, &found);
		r = reader_emit_keys(c, cpu_v2_stat, ELEMENTSOF(cpu_v2_stat), values, found);
	} else {
		r = read_keyed_file(c, "cpu.stat", cpu_v2_stat, ELEMENTSOF(cpu_v2_stat), values,
				    &found);
	}
	if (r >= 0)
		r = emit_cpu_runnable(c, values, found);
	if (r < 0)
		return r;
	if (rec) /* none without the controller: it is not enabled here */
		return rec->has & RECORD_HAS_CPU_CONTROLLER ? cpu_files_from_record(c, rec) : 0;
	r = read_cpu_max(c);
	if (r >= 0)
		r = read_file_metrics(c, cpu_v2_files, ELEMENTSOF(cpu_v2_files));
	return r;
}

const struct controller_reader reader_cpu = {
    .read_v1 = cpu_read_v1,
    .read_v2 = cpu_read_v2,
};
