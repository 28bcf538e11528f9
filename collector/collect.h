/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One collection: find the hierarchies, walk each, run the controllers
 * bound there on every cgroup, attach to each record what its path says
 * and what the container runtimes say of it, and freeze the result into a
 * snapshot.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "collector/cputime.h"
#include "collector/heldfiles.h"
#include "collector/idcache.h"
#include "collector/loadavg.h"
#include "collector/runtime/containers.h"
#include "model/snapshot.h"

/*
 * Called once per visited cgroup, in walk order, after it was read: kept is
 * false if it vanished meanwhile. The snapshot sorts records by path, so
 * this is the only place the walk order (depth first, siblings by identity)
 * can be observed; cgacctd --walk-order prints it for the guest tests.
 */
typedef void (*collect_visit_fn)(void *userdata, const char *hierarchy, const char *path,
				 uint64_t id, bool kept);

/*
 * Whether to read a cgroup: mount is the hierarchy's mount point as in
 * mountinfo (without the root prefix), path the cgroup below it ("/" for
 * its root) and depth its distance from there. A cgroup not selected is
 * not read, but the walk still descends into it.
 */
typedef bool (*collect_select_fn)(void *userdata, const char *mount, const char *path,
				  unsigned depth);

struct collect_options {
	const char *mountinfo;	   /* file to read the mount table from */
	const char *root;	   /* prefix for mount points and /sys ("" = real root) */
	bool per_cpu;		   /* per-CPU CPU time series (one per CPU per cgroup) */
	collect_visit_fn on_visit; /* may be NULL */
	void *userdata;		   /* for on_visit */
	collect_select_fn select;  /* NULL: every cgroup */
	void *select_userdata;
	unsigned skip_controllers; /* CONTROLLER_BIT(i) set: controller i is not read */
	/*
	 * In and out, may be NULL: bit i is set once controller i was found
	 * mounted. One that was mounted and is not any more fails its collector
	 * until it is back, so an unmounted hierarchy shows in
	 * cgacct_collector_success; one never mounted is simply not collected.
	 */
	unsigned *mounted_controllers;
	struct held_files *held;       /* may be NULL: files to keep open between collections */
	struct id_cache *ids;	       /* may be NULL: identities remembered between collections */
	struct load_tracker *loads;    /* may be NULL: no load averages */
	struct containers *containers; /* may be NULL: ask no runtime for names */
	/*
	 * May be NULL: the folder where cgacct-bpf pinned the BPF bulk reader.
	 * Its records replace the files they hold the values of, on the v2
	 * hierarchy; without them (not loaded, not readable, another version)
	 * every value is read from files, and the snapshot says why.
	 */
	const char *bpf_pins;
	struct cputime_tracker *cputimes; /* may be NULL: see collector/cputime.h */
	/*
	 * NULL-terminated, may be NULL: the subtrees the selection reads. One
	 * that is not a cgroup of a mounted hierarchy fails the walk
	 * collector and is named in snapshot.bad_roots.
	 */
	char *const *roots;
};

int collect_snapshot(const struct collect_options *o, struct snapshot *ret);

/* The roots of o that are no cgroup, and why, into a new array (*ret_n 0: all are). */
int collect_check_roots(const struct collect_options *o, struct root_problem **ret, size_t *ret_n);
