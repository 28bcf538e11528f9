/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The common interface of the per-controller readers, one per file, and
 * their one table (registry.c). A struct controller is a cgroup controller
 * as cgacct reads it: its name, and a reader per hierarchy kind that reads
 * one cgroup's files of that controller through the reader (reader.h).
 * The snapshot counts each controller's failures under the same name as a
 * "collector" (struct collector_status, cgacct_collector_success), beside
 * the walk's own; collectors[i] is controllers[i].
 *
 * A reader returns -errno only for real failures; -ENODEV/-ENOENT from a
 * started read means the cgroup vanished.
 */
#pragma once

#include <stddef.h>

#include "collector/controllers/reader.h"

struct controller {
	const char *name; /* collector label; for v1 also the controller's mount option */
	unsigned v1_mask; /* CONTROLLER_* that must be bound for read_v1; 0: not on v1 */
	int (*read_v1)(const struct reader_ctx *c);
	int (*read_v2)(const struct reader_ctx *c);
};

extern const struct controller *const controllers[];
extern const size_t n_controllers;

extern const struct controller controller_cpuacct, controller_cpu, controller_memory,
    controller_hugetlb, controller_blkio, controller_pids, controller_pressure;
