/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Selection by configuration: which hierarchies and subtrees
 * (cgroup_roots), which cgroups (include/exclude, max_depth), which
 * controllers and whether per-CPU series a collection reads; and the names
 * the exposition uses. The glue between config/ and the collector and
 * renderer, which know nothing of the configuration.
 */
#pragma once

#include "config/config.h"
#include "daemon/cli.h"
#include "collector/collect.h"
#include "exporter/render.h"

/* The options of a collection c selects; o stays valid as long as c and cli. */
void selection_collect_options(const struct config *c, const struct cli *cli,
			       struct collect_options *o);

/* naming: native or cadvisor, as the renderer calls it. */
enum render_naming selection_naming(const struct config *c);
