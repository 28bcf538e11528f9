/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel's structures, as far as the programs read them. CO-RE matches
 * them by name against the running kernel's BTF and relocates every field
 * access, so only the fields read are declared, in any order, and one
 * object runs on 6.1 and 6.12 alike. Enumerators whose values depend on
 * the kernel's configuration are read with bpf_core_enum_value().
 */
#pragma once

#define __kernel_type __attribute__((preserve_access_index))

struct kernfs_node {
	struct kernfs_node *parent;
	const char *name;
	__u64 id;
} __kernel_type;

struct cgroup_subsys_state {
	struct cgroup *cgroup;
} __kernel_type;

struct task_cputime {
	__u64 stime;
	__u64 utime;
	unsigned long long sum_exec_runtime;
} __kernel_type;

struct cgroup_base_stat {
	struct task_cputime cputime;
} __kernel_type;

struct prev_cputime {
	__u64 utime;
	__u64 stime;
} __kernel_type;

/* The array's length does not matter to CO-RE: the index is a relocated enumerator. */
struct cgroup {
	struct cgroup_subsys_state self;
	int level;
	struct kernfs_node *kn;
	struct cgroup_subsys_state *subsys[16];
	struct cgroup_base_stat bstat;
	struct prev_cputime prev_cputime;
	__u64 wait_usec; /* the kernel series' (kernel/), flushed with bstat */
	struct psi_group *psi;
} __kernel_type;

/*
 * total is [NR_PSI_AGGREGATORS][NR_PSI_STATES - 1] in C, but pahole writes
 * a two-dimensional array into BTF as one dimension of all its elements,
 * and CO-RE matches a field only to the same shape: declared flat, its
 * offset is relocated and the element found from it (cgacct.bpf.c).
 */
struct psi_group {
	bool enabled;
	__u64 total[1];
} __kernel_type;

enum psi_states {
	PSI_IO_SOME,
	PSI_IO_FULL,
	PSI_MEM_SOME,
	PSI_MEM_FULL,
	PSI_CPU_SOME,
	PSI_CPU_FULL,
	NR_PSI_STATES,
};

enum psi_aggregators {
	PSI_AVGS,
};

enum cgroup_subsys_id {
	cpu_cgrp_id,
	memory_cgrp_id,
	pids_cgrp_id,
	hugetlb_cgrp_id,
};

struct cfs_bandwidth {
	__s64 period; /* ktime_t */
	__u64 quota;
	__u64 burst;
	int nr_periods;
	int nr_throttled;
	int nr_burst;
	__u64 throttled_time;
	__u64 burst_time;
} __kernel_type;

struct task_group {
	struct cgroup_subsys_state css;
	unsigned long shares;
	struct cfs_bandwidth cfs_bandwidth;
} __kernel_type;

/* atomic_long_t and atomic64_t are structures: CO-RE wants the same kind. */
typedef struct {
	long counter;
} atomic_long_t;

typedef struct {
	__s64 counter;
} atomic64_t;

struct page_counter {
	atomic_long_t usage;
	unsigned long watermark;
	unsigned long min;
	unsigned long low;
	unsigned long high;
	unsigned long max;
} __kernel_type;

enum memcg_memory_event {
	MEMCG_LOW,
	MEMCG_HIGH,
	MEMCG_MAX,
	MEMCG_OOM,
	MEMCG_OOM_KILL,
	MEMCG_OOM_GROUP_KILL,
	MEMCG_SWAP_HIGH,
	MEMCG_SWAP_MAX,
	MEMCG_SWAP_FAIL,
};

struct mem_cgroup {
	struct cgroup_subsys_state css;
	struct page_counter memory;
	struct page_counter swap;
	atomic_long_t memory_events[8];
	atomic_long_t memory_events_local[8];
} __kernel_type;

/*
 * hugepage[HUGE_MAX_HSTATE] and events_local[HUGE_MAX_HSTATE]
 * [HUGETLB_NR_MEMORY_EVENTS] (flat in BTF, as psi_group's total) are
 * reached by offset: the first length is the architecture's, the second
 * the kernel's.
 */
struct hugetlb_cgroup {
	struct cgroup_subsys_state css;
	struct page_counter hugepage[1];
	atomic_long_t events_local[1];
} __kernel_type;

enum hugetlb_memory_event {
	HUGETLB_MAX,
	HUGETLB_NR_MEMORY_EVENTS,
};

/* pids.events "max": the subtree's count since 6.12 (events[PIDCG_MAX]), events_limit before. */
enum pidcg_event {
	PIDCG_MAX,
};

struct pids_cgroup {
	struct cgroup_subsys_state css;
	atomic64_t counter;
	atomic64_t limit;
	atomic64_t events[2];
} __kernel_type;

struct pids_cgroup___6_1 {
	atomic64_t events_limit;
} __kernel_type;

struct css_set {
	struct cgroup *dfl_cgrp;
} __kernel_type;

struct sched_info {
	unsigned long long run_delay;
	unsigned long long last_queued;
} __kernel_type;

struct task_struct {
	int pid;
	struct css_set *cgroups;
	struct sched_info sched_info;
} __kernel_type;

struct rq {
	__u64 clock;
} __kernel_type;

/* The iterators' contexts. */
struct seq_file;
struct bpf_iter_meta {
	struct seq_file *seq;
	__u64 session_id;
	__u64 seq_num;
} __kernel_type;

struct bpf_iter__cgroup {
	struct bpf_iter_meta *meta;
	struct cgroup *cgroup;
} __kernel_type;

struct bpf_map;
struct bpf_iter__bpf_map_elem {
	struct bpf_iter_meta *meta;
	struct bpf_map *map;
	void *key;
	void *value;
} __kernel_type;
