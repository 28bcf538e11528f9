/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the cgroup hierarchies are mounted and which controllers each holds,
 * learned from /proc/self/mountinfo rather than assumed: v1 mounts can be
 * anywhere with any co-mounting, and hybrid systems have both kinds.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/controllers.h"
#include "model/metric.h"

struct hierarchy {
	char *path;	      /* mount point, with the root prefix applied */
	char name[LABEL_MAX]; /* "cpu,cpuacct" for v1, "unified" for cgroup2 */
	unsigned controllers; /* CONTROLLER_BIT()s of those bound here; 0 for cgroup2 */
	bool unified;
	uint32_t dev_major, dev_minor; /* identifies the hierarchy across bind mounts */
	bool whole;		       /* the mount shows the hierarchy root */
};

/* v1 hierarchies first (mountinfo order), the unified one last. */
struct layout {
	struct hierarchy *hierarchies;
	size_t n;
};

int layout_parse_mountinfo(const char *buf, size_t len, const char *root_prefix,
			   struct layout *ret);
const char *layout_kind(const struct layout *l);
void layout_done(struct layout *l);
