/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Load averages from runnable time. Where the kernel has wait_usec (the
 * kernel series), a v2 cgroup's usage_usec + wait_usec is the integral over
 * time of its runnable tasks, waits still in progress included, so its
 * growth between two reads, over the time between them, is the mean number
 * of runnable tasks in that interval, exactly. The tracker folds each such
 * mean into 1, 5 and 15-minute averages by /proc/loadavg's rule,
 *
 *     avg = mean + (avg - mean) * exp(-interval / window),
 *
 * which for its 5-second samples is kernel/sched/loadavg.c's EXP_1, EXP_5
 * and EXP_15: the same averages, for intervals of any length, so they do
 * not depend on how often, or by how many, cgacctd is scraped. Nothing
 * runs between collections. A cgroup's first read has no interval: its
 * averages start at the second, from the mean of the first interval.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#define LOADAVG_WINDOWS 3

/* The windows, in seconds and as the window label gives them. */
extern const struct loadavg_window {
	unsigned seconds;
	const char *label;
} loadavg_windows[LOADAVG_WINDOWS];

struct load_tracker;

int load_tracker_new(struct load_tracker **ret);
void load_tracker_free(struct load_tracker *t);

/*
 * Folds the runnable time of the cgroup with ID id, read at now_nsec;
 * false, with no averages, on its first read (or when out of memory).
 * The averages are in thousandths of a task.
 */
bool load_tracker_fold(struct load_tracker *t, uint64_t id, uint64_t runnable_nsec,
		       uint64_t now_nsec, uint64_t ret_avg[LOADAVG_WINDOWS]);
/* Ends a collection: cgroups it did not read are forgotten. */
void load_tracker_end(struct load_tracker *t);
