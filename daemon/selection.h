/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Selection by configuration: which hierarchies and subtrees
 * (cgroup_roots), which cgroups (include/exclude, max_depth), which
 * controllers and whether per-CPU series a collection reads; and the names
 * the exposition uses. The glue between config/ and the collector and
 * renderer, which know nothing of the configuration.
 */
#pragma once

#include "collector/collect.h"
#include "config/config.h"
#include "daemon/cli.h"
#include "exporter/scrape.h"

/* The options of a collection c selects; o stays valid as long as c and cli. */
void selection_collect_options(const struct config *c, const struct cli *cli,
			       struct collect_options *o);

/* What c says of the expositions: min_interval, max_series, naming, gzip_level. */
struct scrape_settings selection_scrape_settings(const struct config *c);
