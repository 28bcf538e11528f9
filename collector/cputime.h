/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpu.stat's user_usec and system_usec from the kernel's raw figures, as
 * cgroup_base_stat_cputime_show() prints them: cputime_adjust() splits the
 * cgroup's exact run time (sum_exec_runtime) by the user:system ratio of
 * its sampled ticks, and never gives either less than it gave before (the
 * cgroup's prev_cputime). A BPF record carries the raw figures and the
 * kernel's prev_cputime, which only readers of cpu.stat move; the tracker
 * keeps what it gave cgacctd, so neither counter goes back between two
 * collections whether or not anyone reads cpu.stat in between.
 */
#pragma once

#include <stdint.h>

struct cputime {
	uint64_t user, system; /* nanoseconds */
};

/* cputime_adjust() of kernel/sched/cputime.c: run time split by the ticks, from prev on. */
struct cputime cputime_split(uint64_t run, struct cputime ticks, struct cputime prev);

struct cputime_tracker;

int cputime_tracker_new(struct cputime_tracker **ret);
void cputime_tracker_free(struct cputime_tracker *t);
/*
 * The split for cgroup id, from the larger of the kernel's prev and the
 * last collection's split of id; t may be NULL (the kernel's alone).
 */
struct cputime cputime_tracker_split(struct cputime_tracker *t, uint64_t id, uint64_t run,
				     struct cputime ticks, struct cputime kernel_prev);
/* Ends a collection: cgroups it did not read are forgotten. */
void cputime_tracker_end(struct cputime_tracker *t);
