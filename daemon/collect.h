/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One collection: find the hierarchies, walk each, run the controllers
 * bound there on every cgroup, and freeze the result into a snapshot.
 */
#pragma once

#include <stdbool.h>

#include "snapshot.h"

struct collect_options {
	const char *mountinfo; /* file to read the mount table from */
	const char *root;      /* prefix for mount points and /sys ("" = real root) */
	bool per_cpu;	       /* per-CPU CPU time series (one per CPU per cgroup) */
};

int collect_snapshot(const struct collect_options *o, struct snapshot *ret);
