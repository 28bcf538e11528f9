/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one way cgacctd collects, for a scrape and for --once alike: the
 * configuration's selection over what collections keep from one to the
 * next (files held open, identities, runnable time for load averages, the
 * mounted controllers, the container runtimes' names), so that --once
 * prints what a scrape serves.
 */
#pragma once

#include <stdint.h>

#include "collector/collect.h"
#include "config/config.h"
#include "daemon/cli.h"
#include "daemon/log.h"

struct collection {
	const struct cli *cli;
	struct log_target *log;
	unsigned mounted_controllers;	  /* see collect_options */
	struct held_files *held;	  /* NULL: hold none */
	uint64_t held_wanted;		  /* the keep_open_files it was made for */
	struct id_cache *ids;		  /* NULL: out of memory */
	struct load_tracker *loads;	  /* NULL: out of memory, and no load averages */
	struct cputime_tracker *cputimes; /* NULL: out of memory (see collector/cputime.h) */
	int bpf_said; /* where the last collection read: 1 records, -errno files, 0 none yet */
	struct containers *containers; /* NULL: no runtime to ask */
	char *bad_roots; /* what the last collection said of cgroup_roots, for the log */
};

void collection_init(struct collection *c, const struct cli *cli, struct log_target *log);
void collection_done(struct collection *c);

/*
 * A client of cfg's container runtimes into *ret, NULL without any (or
 * without memory: names are extras). Made apart from the collection, so
 * that a reload can start it before taking the lock it swaps under.
 */
void collection_containers_new(const struct collection *c, const struct config *cfg,
			       struct containers **ret);

/* What a root_problem's error says of the root: "does not exist", ... */
const char *collection_root_problem(int error);

/*
 * One collection with cfg into *ret; on_visit (may be NULL) sees every
 * cgroup visited, in walk order. Follows cfg's keep_open_files first.
 */
int collection_run(struct collection *c, const struct config *cfg, collect_visit_fn on_visit,
		   void *userdata, struct snapshot *ret);
