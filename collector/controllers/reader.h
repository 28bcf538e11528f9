/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reader: what a controller's read_v1/read_v2 run with over one cgroup
 * (struct reader_ctx), and the table-driven helpers most of them are made
 * of, mapping files and keys to metrics. Every file is optional: a helper
 * returns -errno only for real failures, and -ENODEV/-ENOENT from a
 * started read means the cgroup vanished.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/metric.h"
#include "model/snapshot.h"

struct bpf_cgroup;
struct cputime_tracker;
struct devnames;
struct held_cgroup;
struct held_files;
struct load_tracker;
struct readbuf;

/* Huge page sizes as cgroup files spell them ("2MB"), learnt once per collection. */
#define HUGETLB_SIZES_MAX 8
#define PAGESIZE_MAX	  16

struct hugetlb_sizes {
	char size[HUGETLB_SIZES_MAX][PAGESIZE_MAX];
	size_t n;
	bool known;
};

struct reader_ctx {
	int dirfd;		 /* the cgroup's directory */
	struct readbuf *buf;	 /* what reader_read() returns lives here until the next read */
	unsigned *absent;	 /* counts files found missing: the cgroup itself may be gone */
	struct held_files *held; /* files kept open across collections, or NULL */
	struct held_cgroup *held_cgroup; /* this cgroup's; NULL: open every file */
	struct cgroup_record *rec;
	struct devnames *devnames;
	struct hugetlb_sizes *hugetlb; /* NULL: list the directory for every cgroup */
	bool per_cpu;		       /* emit per-CPU series (cardinality: opt-in) */
	long clock_ticks;	       /* USER_HZ, the unit of cpuacct.stat */
	struct load_tracker *loads;    /* NULL: no load averages */
	uint64_t id;		       /* the cgroup's identity in its hierarchy */
	/*
	 * The cgroup's BPF record (collector/bpf/source.h), or NULL: where it
	 * holds a controller's values, the reader takes them instead of
	 * reading the files that print them.
	 */
	const struct bpf_cgroup *bpf;
	struct cputime_tracker *cputimes; /* NULL: the kernel's prev_cputime alone */
	uint64_t page_size;		  /* the unit of the record's memory figures */
};

/* How a single-value file's content is turned into a sample. */
enum value_kind {
	VALUE_COUNT,	    /* plain number */
	VALUE_LIMIT,	    /* "max", or v1's page-counter maximum, means unlimited: no sample */
	VALUE_SIGNED_LIMIT, /* negative (cfs_quota_us -1) means unlimited: no sample */
};

struct file_metric {
	const char *file;
	enum metric metric;
	enum value_kind kind;
	uint64_t scale; /* multiplier to the stored unit; 0 means 1 */
};

struct key_metric {
	const char *key;
	enum metric metric;
	const char *label; /* label value of the sample, or NULL */
	uint64_t scale;	   /* 0 means 1 */
};

/*
 * 1 with the content, 0 if the file does not exist (counted in *c->absent),
 * -errno otherwise. The content is valid until the next read through c.
 */
int reader_read(const struct reader_ctx *c, const char *file, const char **ret, size_t *ret_len);
/* Adds a sample of value times scale; none for CG_UNLIMITED. */
int reader_emit(const struct reader_ctx *c, enum metric m, const char *label, uint64_t value,
		uint64_t scale);
int read_value_file(const struct reader_ctx *c, const char *file, const struct file_metric *fm,
		    const char *label);
/* Reads every file of the table; stops at the first real error. */
int read_file_metrics(const struct reader_ctx *c, const struct file_metric *t, size_t n);
/*
 * A flat keyed file through a key table. The parsed values are also handed
 * back (ret_values, ret_found may be NULL) for readers that derive a second
 * metric from one key, such as memory.events "max" = limit failures.
 */
int read_keyed_file(const struct reader_ctx *c, const char *file, const struct key_metric *t,
		    size_t n, uint64_t *ret_values, uint64_t *ret_found);
/* The same, from the first line that starts with from: what comes before is not looked at. */
int read_keyed_file_from(const struct reader_ctx *c, const char *file, const char *from,
			 const struct key_metric *t, size_t n, uint64_t *ret_values,
			 uint64_t *ret_found);

/*
 * The record of c's cgroup, if the walk found it below the root (whose
 * files are the whole system's, and not in records): a controller it has
 * no values of is not enabled there, and has none of its files. NULL:
 * read the files.
 */
const struct record *reader_record(const struct reader_ctx *c);
/*
 * A record's page counter as its file prints it, in bytes: CG_UNLIMITED
 * ("max") at the counter's largest value, PAGE_COUNTER_MAX, which limits
 * in units of unit pages (hugetlb's) round down to a whole unit.
 */
uint64_t reader_counter_bytes(const struct reader_ctx *c, uint64_t pages, uint64_t unit);
/* Emits a key table's rows whose bit is set in found, from values. */
int reader_emit_keys(const struct reader_ctx *c, const struct key_metric *t, size_t n,
		     const uint64_t *values, uint64_t found);
