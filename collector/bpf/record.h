/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the BPF programs (cgacct.bpf.c) hand to user space: one record per
 * cgroup of the v2 tree, fixed-width fields in the kernel's own units,
 * then the cgroup's name (name_len bytes, no NUL), padded to 8 bytes.
 * Shared by the programs and the reader, so that both agree on the layout;
 * RECORD_MAGIC changes with it, and a reader that meets another magic
 * refuses the stream rather than misreading it.
 */
#pragma once

#ifndef __bpf__
#include <stdint.h>
typedef uint16_t record_u16;
typedef uint32_t record_u32;
typedef uint64_t record_u64;
#else
typedef __u16 record_u16;
typedef __u32 record_u32;
typedef __u64 record_u64;
#endif

#define RECORD_MAGIC 0x63676163637435ULL /* "cgacct5" */

/* Which controllers' fields hold values: those whose state the cgroup has. */
enum record_has {
	RECORD_HAS_CPU = 1 << 0, /* cpu.stat's usage, user and system */
	RECORD_HAS_MEMORY = 1 << 1,
	RECORD_HAS_PIDS = 1 << 2,
	RECORD_HAS_WAIT = 1 << 3,	    /* cgacct-bpf load --wait */
	RECORD_HAS_CPU_CONTROLLER = 1 << 4, /* the rest of cpu.stat, cpu.max, cpu.weight */
	RECORD_HAS_KERNEL_WAIT = 1 << 5,    /* cpu.stat wait_usec: a kernel with the series */
	RECORD_HAS_PRESSURE = 1 << 6,	    /* the cgroup's pressure files are shown */
	RECORD_HAS_HUGETLB = 1 << 7,
};

/* memory.events, in the order the file lists them. */
enum record_memory_event {
	RECORD_MEMORY_LOW,
	RECORD_MEMORY_HIGH,
	RECORD_MEMORY_MAX,
	RECORD_MEMORY_OOM,
	RECORD_MEMORY_OOM_KILL,
	RECORD_MEMORY_OOM_GROUP_KILL,
	RECORD_MEMORY_EVENTS,
};

/* memory.swap.events, in the order the file lists them. */
enum record_swap_event {
	RECORD_SWAP_HIGH,
	RECORD_SWAP_MAX,
	RECORD_SWAP_FAIL,
	RECORD_SWAP_EVENTS,
};

/* The pressure files' totals, in the order cgacctd reads the files. */
enum record_pressure {
	RECORD_PRESSURE_CPU_SOME,
	RECORD_PRESSURE_CPU_FULL,
	RECORD_PRESSURE_MEMORY_SOME,
	RECORD_PRESSURE_MEMORY_FULL,
	RECORD_PRESSURE_IO_SOME,
	RECORD_PRESSURE_IO_FULL,
	RECORD_PRESSURE_TOTALS,
};

/* Huge page sizes a record holds, by the kernel's index of each (its hstate). */
#define RECORD_HUGETLB_SIZES 4

struct record {
	record_u64 magic;
	record_u64 id;	      /* the cgroup's ID: its directory's inode number */
	record_u64 parent_id; /* 0 for the root */
	record_u32 level;
	record_u32 has; /* enum record_has */

	/* cpu.stat before scaling: nanoseconds */
	record_u64 cpu_usage_ns;
	record_u64 cpu_user_ns;
	record_u64 cpu_system_ns;
	record_u64 cpu_periods;
	record_u64 cpu_throttled_periods;
	record_u64 cpu_throttled_ns;
	record_u64 cpu_bursts;
	record_u64 cpu_burst_ns;
	/* what cputime_adjust() last made of user and system for cpu.stat's readers */
	record_u64 cpu_prev_user_ns;
	record_u64 cpu_prev_system_ns;

	/* cpu.max and cpu.max.burst: nanoseconds, RECORD_UNLIMITED for "max" */
	record_u64 cpu_quota_ns;
	record_u64 cpu_period_ns;
	record_u64 cpu_burst_quota_ns;
	record_u64 cpu_shares; /* the task group's load weight, as cpu.weight derives from it */

	/* memory.current, memory.peak, memory.max, .high, .low and .min: pages */
	record_u64 memory_pages;
	record_u64 memory_peak_pages;
	record_u64 memory_max_pages;
	record_u64 memory_high_pages;
	record_u64 memory_low_pages;
	record_u64 memory_min_pages;
	record_u64 memory_events[RECORD_MEMORY_EVENTS];	     /* memory.events.local */
	record_u64 memory_events_tree[RECORD_MEMORY_EVENTS]; /* memory.events */

	/* memory.swap.current and memory.swap.max: pages; memory.swap.events */
	record_u64 swap_pages;
	record_u64 swap_max_pages;
	record_u64 swap_events[RECORD_SWAP_EVENTS];

	/*
	 * The pressure files' "total": nanoseconds, as of the kernel's last
	 * aggregation of its per-CPU times (every 2 s while the cgroup has
	 * tasks, and at each read of one of the files).
	 */
	record_u64 pressure_ns[RECORD_PRESSURE_TOTALS];

	/*
	 * hugetlb.<size>.current and .max (pages) and .events.local "max", by
	 * the kernel's index of the size: the order in which it made the
	 * sizes, and so their files (collector/controllers/hugetlb.c).
	 */
	record_u64 hugetlb_pages[RECORD_HUGETLB_SIZES];
	record_u64 hugetlb_max_pages[RECORD_HUGETLB_SIZES];
	record_u64 hugetlb_max_events[RECORD_HUGETLB_SIZES];

	/* pids.current, pids.max and pids.events "max" */
	record_u64 pids_current;
	record_u64 pids_max;
	record_u64 pids_events_max;

	/*
	 * Nanoseconds the cgroup's own tasks waited for a CPU, and those its
	 * removed descendants had: the wait of the subtree is the sum of its
	 * cgroups' wait_ns.
	 */
	record_u64 wait_ns;
	/* cpu.stat wait_usec, the subtree's, where the kernel keeps it */
	record_u64 kernel_wait_usec;

	record_u16 name_len;
	record_u16 pad[3];
};

/* A quota of "max": the kernel's RUNTIME_INF. */
#define RECORD_UNLIMITED (~(record_u64)0)

#define RECORD_NAME_MAX 255
/* Bytes a record with a name of len bytes takes in the stream. */
#define RECORD_SIZE(len) ((sizeof(struct record) + (len) + 7) & ~(unsigned long)7)
