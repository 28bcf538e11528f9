/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One collection's result. Readers append samples to a scratch record per
 * visited cgroup, which snapshot_take_record() files under its path: the
 * same path from several v1 hierarchies is one logical cgroup, one record.
 * The collector is the one writer: it attaches each record's identity,
 * container names and the devices before snapshot_finalize(), after which
 * nothing changes, so renderers on several threads only read it.
 */
#pragma once

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/identity.h"
#include "model/metric.h"

/* A sample's label offset when it has no label. */
#define SAMPLE_NO_LABEL UINT16_MAX

/*
 * A snapshot holds tens of them per cgroup, so a sample is kept to two
 * words: label values live once per record (labels below), not in every
 * sample.
 */
struct sample {
	uint64_t value;
	uint16_t metric;
	uint16_t label; /* offset into the record's labels, or SAMPLE_NO_LABEL */
};
static_assert(sizeof(struct sample) == 16, "a sample is two words");
static_assert(_METRIC_MAX <= UINT16_MAX, "a metric fits sample.metric");

/* What a container runtime says of the container in a record's cgroup. */
struct container_names {
	char *name, *image;
};

/* How a container runtime's socket answered when last asked. */
struct runtime_status {
	char *socket;
	bool up;	   /* its last answer was a list */
	size_t containers; /* in the last list it gave */
};

struct cgroup_record {
	char *path;		  /* relative to the hierarchy root, "/" for the root */
	bool merged;		  /* holds samples from more than one hierarchy */
	struct identity identity; /* what the path says runs there */
	const struct container_names *container; /* NULL: no runtime named it */
	struct sample *samples;
	size_t n_samples;
	size_t cap;
	char *labels; /* the samples' label values, each NUL-terminated */
	size_t labels_len;
	size_t labels_cap;
};

struct collector_status {
	const char *name;
	unsigned errors;
};

struct hierarchy_status {
	char name[LABEL_MAX];
	size_t cgroups;
};

/*
 * A configured cgroup root that is no cgroup: -ENOENT (missing), -ENOTDIR,
 * or -EMEDIUMTYPE (in no mounted cgroup hierarchy).
 */
struct root_problem {
	char *path;
	int error;
};

/* A block device a device label names: the name, or "8:0" where it has none. */
struct block_device {
	uint32_t major, minor;
	char name[LABEL_MAX];
};

struct snapshot {
	struct cgroup_record *records; /* sorted by path after finalize */
	size_t n_records;
	size_t cap;
	uint32_t *slots; /* until finalize: records by path, open addressing, index + 1 */
	size_t n_slots;
	struct collector_status *collectors;
	size_t n_collectors;
	struct hierarchy_status *hierarchies;
	size_t n_hierarchies;
	uint64_t vanished;
	uint64_t held_files;	      /* kept open for the next collection (heldfiles.h) */
	uint64_t held_dirs;	      /* cgroup directories, likewise */
	struct block_device *devices; /* those the samples' device labels name */
	size_t n_devices;
	struct container_names *containers; /* the records' container fields point here */
	size_t n_containers;
	struct runtime_status *runtimes; /* container_runtime_sockets, in their order */
	size_t n_runtimes;
	struct root_problem *bad_roots; /* each fails the walk collector */
	size_t n_bad_roots;
	uint64_t duration_ns;
	/*
	 * Whether this collection took from BPF records (collect_options
	 * .bpf_pins) the values they hold, and if not, why: -errno, 0 when
	 * none were asked for.
	 */
	bool bpf_records;
	int bpf_error;
	bool finalized; /* no writer may change it any more */
};

int record_add_slow(struct cgroup_record *r, enum metric m, const char *label, uint64_t value);

/*
 * Adds a sample. Inline for the common case, tens of times per cgroup: no
 * label, into the scratch record's room left from the cgroup before.
 */
static inline int record_add(struct cgroup_record *r, enum metric m, const char *label,
			     uint64_t value)
{
	if (label || r->n_samples == r->cap)
		return record_add_slow(r, m, label, value);
	r->samples[r->n_samples++] =
	    (struct sample){.value = value, .metric = (uint16_t)m, .label = SAMPLE_NO_LABEL};
	return 0;
}

/* The sample's label value, "" for none. */
const char *sample_label(const struct cgroup_record *r, const struct sample *s);
void record_done(struct cgroup_record *r);

/* Files the samples read into r as path's, and empties r for the next cgroup. */
int snapshot_take_record(struct snapshot *s, const char *path, struct cgroup_record *r);
/* Orders the records by path and each record's samples by metric; the end of writing. */
int snapshot_finalize(struct snapshot *s);
/* The device a device label names, NULL if the collection did not keep it. */
const struct block_device *snapshot_device(const struct snapshot *s, const char *name);
void snapshot_free(struct snapshot *s);
void root_problems_free(struct root_problem *v, size_t n);
/* Why a collection read no BPF records, as words after the pins' folder: snapshot.bpf_error. */
const char *snapshot_bpf_problem(int error);
