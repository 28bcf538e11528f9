/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BPF records of one collection, found by cgroup ID: where a record
 * holds a controller's values, its reader takes them instead of reading
 * the files (collector/controllers/), and reads files for the rest.
 */
#pragma once

#include <stdint.h>

#include "base/u64map.h"
#include "collector/bpf/records.h"

struct bpf_cgroup {
	const struct record *r;
	uint64_t wait_ns; /* the subtree's: the record's wait_ns and its descendants' */
};

struct bpf_source {
	struct bpf_records records;
	struct u64map index; /* cgroup ID -> struct bpf_cgroup */
};

/* Runs the walk pinned in dir and indexes its records; -errno as bpf_records_read(). */
int bpf_source_read(const char *dir, struct bpf_source *ret);
/* Indexes records read already; takes them over, also on failure. */
int bpf_source_index(struct bpf_records *records, struct bpf_source *ret);
/* The cgroup's record, or NULL: it was made after the walk, or the walk did not reach it. */
const struct bpf_cgroup *bpf_source_find(const struct bpf_source *s, uint64_t id);
void bpf_source_done(struct bpf_source *s);
