/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The vocabulary shared by readers and the exporter: what a sample means.
 * Readers store exact integers in the unit noted per group below; the
 * exporter's namings (exporter/native.c, exporter/cadvisor.c) give each
 * metric a row that names it and divides to the Prometheus base unit.
 * Integers keep v1 and v2 values exact until the moment they are printed.
 *
 * Consecutive metrics whose rows share a name are rendered as one family
 * (cgroup_info has a serial and an inode row).
 */
#pragma once

/* Room for any label value we produce: device names (DISK_NAME_LEN 32), "2MB", cpu numbers. */
#define LABEL_MAX 48

enum metric {
	/* identity; value = cgroup.serial or the cgroup ID (inode), label = hierarchy */
	METRIC_INFO_SERIAL,
	METRIC_INFO_INO,

	/* CPU times in nanoseconds; label = cpu for the per-CPU ones */
	METRIC_CPU_USAGE,
	METRIC_CPU_USER,
	METRIC_CPU_SYSTEM,
	METRIC_CPU_USAGE_PER_CPU,
	METRIC_CPU_USER_PER_CPU,
	METRIC_CPU_SYSTEM_PER_CPU,
	METRIC_CPU_LOAD,	 /* percent of one CPU (cpuacct.load) */
	METRIC_CPU_RUNNABLE,	 /* time integral of runnable tasks: usage + wait (cpu.stat) */
	METRIC_CPU_WAIT,	 /* time waiting for a CPU (cpu.stat wait_usec) */
	METRIC_CPU_LOAD_AVERAGE, /* 1/100 of a task; label = window (cpu.loadavg) */
	METRIC_CPU_PERIODS,
	METRIC_CPU_THROTTLED_PERIODS,
	METRIC_CPU_THROTTLED_TIME,
	METRIC_CPU_BURSTS,
	METRIC_CPU_BURST_TIME,
	METRIC_CPU_QUOTA,	/* microseconds */
	METRIC_CPU_PERIOD,	/* microseconds */
	METRIC_CPU_BURST_QUOTA, /* microseconds */
	METRIC_CPU_WEIGHT,	/* 1/1024 of a v2 weight unit, see cpu.c */

	/* memory in bytes; events and failures are counts; label = event */
	METRIC_MEMORY_USAGE,
	METRIC_MEMORY_MAX_USAGE,
	METRIC_MEMORY_LIMIT,
	METRIC_MEMORY_SOFT_LIMIT,
	METRIC_MEMORY_HIGH,
	METRIC_MEMORY_LOW,
	METRIC_MEMORY_MIN,
	METRIC_MEMORY_LIMIT_FAILURES,
	METRIC_MEMORY_EVENTS,
	METRIC_MEMORY_OOM_KILLS,
	METRIC_MEMORY_UNDER_OOM,
	METRIC_MEMORY_SWAP_USAGE,
	METRIC_MEMORY_SWAP_LIMIT,
	METRIC_MEMORY_SWAP_EVENTS,
	METRIC_MEMORY_MEMSW_USAGE,
	METRIC_MEMORY_MEMSW_MAX_USAGE,
	METRIC_MEMORY_MEMSW_LIMIT,
	METRIC_MEMORY_MEMSW_LIMIT_FAILURES,
	METRIC_MEMORY_KERNEL_USAGE,
	METRIC_MEMORY_KERNEL_MAX_USAGE,
	METRIC_MEMORY_KERNEL_LIMIT,
	METRIC_MEMORY_KERNEL_LIMIT_FAILURES,
	METRIC_MEMORY_CACHE,
	METRIC_MEMORY_RSS,
	METRIC_MEMORY_SHMEM,
	METRIC_MEMORY_MAPPED_FILE,
	METRIC_MEMORY_DIRTY,
	METRIC_MEMORY_WRITEBACK,
	METRIC_MEMORY_ACTIVE_ANON,
	METRIC_MEMORY_INACTIVE_ANON,
	METRIC_MEMORY_ACTIVE_FILE,
	METRIC_MEMORY_INACTIVE_FILE,
	METRIC_MEMORY_UNEVICTABLE,
	METRIC_MEMORY_PAGE_FAULTS,
	METRIC_MEMORY_MAJOR_PAGE_FAULTS,

	/* hugetlb in bytes / counts; label = pagesize ("2MB") */
	METRIC_HUGETLB_USAGE,
	METRIC_HUGETLB_MAX_USAGE,
	METRIC_HUGETLB_LIMIT,
	METRIC_HUGETLB_LIMIT_FAILURES,

	/* block I/O in bytes / operations (per second for limits); label = device */
	METRIC_IO_READ_BYTES,
	METRIC_IO_WRITE_BYTES,
	METRIC_IO_DISCARD_BYTES,
	METRIC_IO_READS,
	METRIC_IO_WRITES,
	METRIC_IO_DISCARDS,
	METRIC_IO_READ_BPS_LIMIT,
	METRIC_IO_WRITE_BPS_LIMIT,
	METRIC_IO_READ_IOPS_LIMIT,
	METRIC_IO_WRITE_IOPS_LIMIT,
	METRIC_IO_WEIGHT,

	/* pids: counts */
	METRIC_PIDS_CURRENT,
	METRIC_PIDS_LIMIT,
	METRIC_PIDS_LIMIT_FAILURES,

	/* pressure stall totals in microseconds ("some" = waiting, "full" = stalled) */
	METRIC_PRESSURE_CPU_WAITING,
	METRIC_PRESSURE_CPU_STALLED,
	METRIC_PRESSURE_MEMORY_WAITING,
	METRIC_PRESSURE_MEMORY_STALLED,
	METRIC_PRESSURE_IO_WAITING,
	METRIC_PRESSURE_IO_STALLED,

	/*
	 * when the container was created, in seconds since the epoch, as its
	 * runtime says (daemon/containers.c); last, as it joins a record after
	 * the others
	 */
	METRIC_CONTAINER_CREATED,

	_METRIC_MAX,
};
