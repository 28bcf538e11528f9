/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every metric, one row each: what a sample means and how the native naming
 * presents it. Deliberately without an include guard, as the kernel's
 * cgroup_subsys.h: each includer defines
 *
 *   METRIC(id, type, name, label, divisor, info_label, help)
 *
 * and includes this file to take from the rows what it needs (metric.h the
 * enum, exporter/native.c the native rows).
 *
 *   id          METRIC_<id>, what readers store samples under
 *   type        GAUGE, COUNTER or INFO (a gauge of 1 whose labels say it)
 *   name        the native sample name, with _total for counters
 *   label       the name of the sample's label, or NULL
 *   divisor     stored value / divisor = the value in the base unit, so
 *               readers keep exact integers (nanoseconds for CPU time)
 *   info_label  for INFO rows: the label the stored value becomes
 *   help        the family's HELP text
 *
 * Rows that share a name are one family and must be adjacent (cgroup_info
 * has a serial and an inode row). Adding a metric is a row here and the
 * place in its reader that stores it; cAdvisor's naming has its own rows
 * (exporter/cadvisor.c), for the metrics it has a family for.
 */

/*
 * Identity, from the walk: the value is cgroup.serial or the cgroup ID (the
 * directory's inode number), the label the hierarchy.
 */
METRIC(INFO_SERIAL, INFO, "cgroup_info", "hierarchy", 1, "serial",
       "Identity of a cgroup per hierarchy, never reused: cgroup.serial (v1) or, "
       "without it, the cgroup ID (directory inode number).")
METRIC(INFO_INO, INFO, "cgroup_info", "hierarchy", 1, "ino",
       "Identity of a cgroup per hierarchy, never reused: cgroup.serial (v1) or, "
       "without it, the cgroup ID (directory inode number).")

/*
 * CPU, stored in nanoseconds unless the divisor says otherwise; per-CPU
 * series are labelled with the CPU's number.
 */
METRIC(CPU_USAGE, COUNTER, "cgroup_cpu_usage_seconds_total", NULL, NSEC_PER_SEC, NULL,
       "CPU time consumed (cpuacct.usage, cpu.stat usage_usec).")
METRIC(CPU_USER, COUNTER, "cgroup_cpu_user_seconds_total", NULL, NSEC_PER_SEC, NULL,
       "CPU time in user mode (cpuacct.stat user, cpu.stat user_usec).")
METRIC(CPU_SYSTEM, COUNTER, "cgroup_cpu_system_seconds_total", NULL, NSEC_PER_SEC, NULL,
       "CPU time in kernel mode (cpuacct.stat system, cpu.stat system_usec).")
METRIC(CPU_USAGE_PER_CPU, COUNTER, "cgroup_cpu_usage_per_cpu_seconds_total", "cpu", NSEC_PER_SEC,
       NULL, "CPU time consumed on each CPU (cpuacct.usage_percpu).")
METRIC(CPU_USER_PER_CPU, COUNTER, "cgroup_cpu_user_per_cpu_seconds_total", "cpu", NSEC_PER_SEC,
       NULL, "Tick-sampled user CPU time on each CPU (cpuacct.usage_all).")
METRIC(CPU_SYSTEM_PER_CPU, COUNTER, "cgroup_cpu_system_per_cpu_seconds_total", "cpu", NSEC_PER_SEC,
       NULL, "Tick-sampled kernel CPU time on each CPU (cpuacct.usage_all).")
METRIC(CPU_LOAD, GAUGE, "cgroup_cpu_load_ratio", NULL, 100, NULL,
       "CPU used in the last complete 10 s interval, in CPUs (cpuacct.load / 100).")
METRIC(CPU_RUNNABLE, COUNTER, "cgroup_cpu_runnable_seconds_total", NULL, NSEC_PER_SEC, NULL,
       "Time integral of the group's runnable tasks, running or waiting for a CPU "
       "(cpu.stat usage_usec + wait_usec); its rate is the average number of runnable "
       "tasks.")
METRIC(CPU_WAIT, COUNTER, "cgroup_cpu_wait_seconds_total", NULL, NSEC_PER_SEC, NULL,
       "Time the group's tasks waited for a CPU while runnable, throttled time and "
       "waits in progress included (cpu.stat wait_usec).")
METRIC(CPU_LOAD_AVERAGE, GAUGE, "cgroup_cpu_load_average", "window", 1000, NULL,
       "Load average of the group's runnable tasks over the window, by /proc/loadavg's "
       "rule, from runnable time between collections (none before the second).")
METRIC(CPU_PERIODS, COUNTER, "cgroup_cpu_periods_total", NULL, 1, NULL,
       "CFS bandwidth periods that elapsed with runnable tasks.")
METRIC(CPU_THROTTLED_PERIODS, COUNTER, "cgroup_cpu_throttled_periods_total", NULL, 1, NULL,
       "CFS bandwidth periods in which the group was throttled.")
METRIC(CPU_THROTTLED_TIME, COUNTER, "cgroup_cpu_throttled_seconds_total", NULL, NSEC_PER_SEC, NULL,
       "Time the group's tasks were throttled.")
METRIC(CPU_BURSTS, COUNTER, "cgroup_cpu_bursts_total", NULL, 1, NULL,
       "CFS bandwidth periods in which burst was used.")
METRIC(CPU_BURST_TIME, COUNTER, "cgroup_cpu_burst_seconds_total", NULL, NSEC_PER_SEC, NULL,
       "CPU time used beyond the quota as burst.")
METRIC(CPU_QUOTA, GAUGE, "cgroup_cpu_quota_seconds", NULL, USEC_PER_SEC, NULL,
       "CPU time allowed per period (cpu.cfs_quota_us, cpu.max); absent when "
       "unlimited.")
METRIC(CPU_PERIOD, GAUGE, "cgroup_cpu_period_seconds", NULL, USEC_PER_SEC, NULL,
       "CFS bandwidth period (cpu.cfs_period_us, cpu.max).")
METRIC(CPU_BURST_QUOTA, GAUGE, "cgroup_cpu_burst_quota_seconds", NULL, USEC_PER_SEC, NULL,
       "CPU time a period may borrow (cpu.cfs_burst_us, cpu.max.burst).")
METRIC(CPU_WEIGHT, GAUGE, "cgroup_cpu_weight", NULL, 1024, NULL,
       "Relative CPU weight on the v2 scale, default 100 (cpu.weight, or cpu.shares * "
       "100 / 1024).")

/* Memory, stored in bytes; events and failures are counts. */
METRIC(MEMORY_USAGE, GAUGE, "cgroup_memory_usage_bytes", NULL, 1, NULL,
       "Memory charged (memory.usage_in_bytes, memory.current).")
METRIC(MEMORY_MAX_USAGE, GAUGE, "cgroup_memory_max_usage_bytes", NULL, 1, NULL,
       "Peak memory charged (memory.max_usage_in_bytes, memory.peak).")
METRIC(MEMORY_LIMIT, GAUGE, "cgroup_memory_limit_bytes", NULL, 1, NULL,
       "Memory limit (memory.limit_in_bytes, memory.max); absent when unlimited.")
METRIC(MEMORY_SOFT_LIMIT, GAUGE, "cgroup_memory_soft_limit_bytes", NULL, 1, NULL,
       "v1 soft limit (memory.soft_limit_in_bytes).")
METRIC(MEMORY_HIGH, GAUGE, "cgroup_memory_high_bytes", NULL, 1, NULL,
       "v2 throttling threshold (memory.high).")
METRIC(MEMORY_LOW, GAUGE, "cgroup_memory_low_bytes", NULL, 1, NULL,
       "v2 best-effort protection (memory.low).")
METRIC(MEMORY_MIN, GAUGE, "cgroup_memory_min_bytes", NULL, 1, NULL,
       "v2 hard protection (memory.min).")
METRIC(MEMORY_LIMIT_FAILURES, COUNTER, "cgroup_memory_limit_failures_total", NULL, 1, NULL,
       "Times usage hit the limit (memory.failcnt, memory.events max).")
METRIC(MEMORY_EVENTS, COUNTER, "cgroup_memory_events_total", "event", 1, NULL,
       "v2 memory.events counters.")
METRIC(MEMORY_OOM_KILLS, COUNTER, "cgroup_memory_oom_kills_total", NULL, 1, NULL,
       "Processes killed by the OOM killer (memory.oom_control oom_kill, memory.events"
       " oom_kill).")
METRIC(MEMORY_UNDER_OOM, GAUGE, "cgroup_memory_under_oom", NULL, 1, NULL,
       "1 while the v1 group is under OOM (memory.oom_control).")
METRIC(MEMORY_SWAP_USAGE, GAUGE, "cgroup_memory_swap_usage_bytes", NULL, 1, NULL,
       "Swap used (memory.stat total_swap, memory.swap.current).")
METRIC(MEMORY_SWAP_LIMIT, GAUGE, "cgroup_memory_swap_limit_bytes", NULL, 1, NULL,
       "v2 swap limit (memory.swap.max).")
METRIC(MEMORY_SWAP_EVENTS, COUNTER, "cgroup_memory_swap_events_total", "event", 1, NULL,
       "v2 memory.swap.events counters.")
METRIC(MEMORY_MEMSW_USAGE, GAUGE, "cgroup_memory_memsw_usage_bytes", NULL, 1, NULL,
       "v1 memory plus swap charged (memory.memsw.usage_in_bytes).")
METRIC(MEMORY_MEMSW_MAX_USAGE, GAUGE, "cgroup_memory_memsw_max_usage_bytes", NULL, 1, NULL,
       "v1 peak memory plus swap (memory.memsw.max_usage_in_bytes).")
METRIC(MEMORY_MEMSW_LIMIT, GAUGE, "cgroup_memory_memsw_limit_bytes", NULL, 1, NULL,
       "v1 memory plus swap limit (memory.memsw.limit_in_bytes).")
METRIC(MEMORY_MEMSW_LIMIT_FAILURES, COUNTER, "cgroup_memory_memsw_limit_failures_total", NULL, 1,
       NULL, "Times memory plus swap hit its limit (memory.memsw.failcnt).")
METRIC(MEMORY_KERNEL_USAGE, GAUGE, "cgroup_memory_kernel_usage_bytes", NULL, 1, NULL,
       "Kernel memory charged (memory.kmem.usage_in_bytes, memory.stat kernel).")
METRIC(MEMORY_KERNEL_MAX_USAGE, GAUGE, "cgroup_memory_kernel_max_usage_bytes", NULL, 1, NULL,
       "v1 peak kernel memory (memory.kmem.max_usage_in_bytes).")
METRIC(MEMORY_KERNEL_LIMIT, GAUGE, "cgroup_memory_kernel_limit_bytes", NULL, 1, NULL,
       "v1 kernel memory limit (memory.kmem.limit_in_bytes).")
METRIC(MEMORY_KERNEL_LIMIT_FAILURES, COUNTER, "cgroup_memory_kernel_limit_failures_total", NULL, 1,
       NULL, "Times kernel memory hit its limit (memory.kmem.failcnt).")
METRIC(MEMORY_CACHE, GAUGE, "cgroup_memory_cache_bytes", NULL, 1, NULL,
       "Page cache (memory.stat total_cache, file).")
METRIC(MEMORY_RSS, GAUGE, "cgroup_memory_rss_bytes", NULL, 1, NULL,
       "Anonymous memory (memory.stat total_rss, anon).")
METRIC(MEMORY_SHMEM, GAUGE, "cgroup_memory_shmem_bytes", NULL, 1, NULL,
       "Shared memory and tmpfs (memory.stat shmem).")
METRIC(MEMORY_MAPPED_FILE, GAUGE, "cgroup_memory_mapped_file_bytes", NULL, 1, NULL,
       "Mapped file pages (memory.stat mapped_file, file_mapped).")
METRIC(MEMORY_DIRTY, GAUGE, "cgroup_memory_dirty_bytes", NULL, 1, NULL,
       "Dirty page cache (memory.stat dirty, file_dirty).")
METRIC(MEMORY_WRITEBACK, GAUGE, "cgroup_memory_writeback_bytes", NULL, 1, NULL,
       "Page cache under writeback (memory.stat writeback, file_writeback).")
METRIC(MEMORY_ACTIVE_ANON, GAUGE, "cgroup_memory_active_anon_bytes", NULL, 1, NULL,
       "Anonymous memory on the active LRU.")
METRIC(MEMORY_INACTIVE_ANON, GAUGE, "cgroup_memory_inactive_anon_bytes", NULL, 1, NULL,
       "Anonymous memory on the inactive LRU.")
METRIC(MEMORY_ACTIVE_FILE, GAUGE, "cgroup_memory_active_file_bytes", NULL, 1, NULL,
       "Page cache on the active LRU.")
METRIC(MEMORY_INACTIVE_FILE, GAUGE, "cgroup_memory_inactive_file_bytes", NULL, 1, NULL,
       "Page cache on the inactive LRU (reclaimable first).")
METRIC(MEMORY_UNEVICTABLE, GAUGE, "cgroup_memory_unevictable_bytes", NULL, 1, NULL,
       "Memory that cannot be reclaimed (mlocked).")
METRIC(MEMORY_PAGE_FAULTS, COUNTER, "cgroup_memory_page_faults_total", NULL, 1, NULL,
       "Page faults (memory.stat pgfault).")
METRIC(MEMORY_MAJOR_PAGE_FAULTS, COUNTER, "cgroup_memory_major_page_faults_total", NULL, 1, NULL,
       "Page faults that needed I/O (memory.stat pgmajfault).")

/*
 * Huge pages, stored in bytes and counts, labelled with the page size as the
 * files spell it ("2MB").
 */
METRIC(HUGETLB_USAGE, GAUGE, "cgroup_hugetlb_usage_bytes", "pagesize", 1, NULL,
       "Huge pages charged (hugetlb.<size>.usage_in_bytes, .current).")
METRIC(HUGETLB_MAX_USAGE, GAUGE, "cgroup_hugetlb_max_usage_bytes", "pagesize", 1, NULL,
       "v1 peak huge pages (hugetlb.<size>.max_usage_in_bytes).")
METRIC(HUGETLB_LIMIT, GAUGE, "cgroup_hugetlb_limit_bytes", "pagesize", 1, NULL,
       "Huge page limit (hugetlb.<size>.limit_in_bytes, .max); absent when unlimited.")
METRIC(HUGETLB_LIMIT_FAILURES, COUNTER, "cgroup_hugetlb_limit_failures_total", "pagesize", 1, NULL,
       "Huge page allocations refused by the limit (hugetlb.<size>.failcnt, .events "
       "max).")

/*
 * Block I/O, stored in bytes and operations (per second for limits),
 * labelled with the device's name.
 */
METRIC(IO_READ_BYTES, COUNTER, "cgroup_blkio_read_bytes_total", "device", 1, NULL,
       "Bytes read from the device.")
METRIC(IO_WRITE_BYTES, COUNTER, "cgroup_blkio_write_bytes_total", "device", 1, NULL,
       "Bytes written to the device.")
METRIC(IO_DISCARD_BYTES, COUNTER, "cgroup_blkio_discard_bytes_total", "device", 1, NULL,
       "Bytes discarded on the device.")
METRIC(IO_READS, COUNTER, "cgroup_blkio_reads_total", "device", 1, NULL,
       "Read operations on the device.")
METRIC(IO_WRITES, COUNTER, "cgroup_blkio_writes_total", "device", 1, NULL,
       "Write operations on the device.")
METRIC(IO_DISCARDS, COUNTER, "cgroup_blkio_discards_total", "device", 1, NULL,
       "Discard operations on the device.")
METRIC(IO_READ_BPS_LIMIT, GAUGE, "cgroup_blkio_read_limit_bytes_per_second", "device", 1, NULL,
       "Read bandwidth limit (throttle.read_bps_device, io.max rbps).")
METRIC(IO_WRITE_BPS_LIMIT, GAUGE, "cgroup_blkio_write_limit_bytes_per_second", "device", 1, NULL,
       "Write bandwidth limit (throttle.write_bps_device, io.max wbps).")
METRIC(IO_READ_IOPS_LIMIT, GAUGE, "cgroup_blkio_read_limit_operations_per_second", "device", 1,
       NULL, "Read IOPS limit (throttle.read_iops_device, io.max riops).")
METRIC(IO_WRITE_IOPS_LIMIT, GAUGE, "cgroup_blkio_write_limit_operations_per_second", "device", 1,
       NULL, "Write IOPS limit (throttle.write_iops_device, io.max wiops).")
METRIC(IO_WEIGHT, GAUGE, "cgroup_blkio_weight", NULL, 1, NULL,
       "BFQ default weight (blkio.bfq.weight, io.bfq.weight).")

/* Tasks. */
METRIC(PIDS_CURRENT, GAUGE, "cgroup_pids_current", NULL, 1, NULL,
       "Tasks in the group (pids.current).")
METRIC(PIDS_LIMIT, GAUGE, "cgroup_pids_limit", NULL, 1, NULL,
       "Task limit (pids.max); absent when unlimited.")
METRIC(PIDS_LIMIT_FAILURES, COUNTER, "cgroup_pids_limit_failures_total", NULL, 1, NULL,
       "Forks refused by the limit (pids.events max).")

/*
 * Pressure stall totals, stored in microseconds: "some" tasks waiting,
 * "all" tasks stalled ("full").
 */
METRIC(PRESSURE_CPU_WAITING, COUNTER, "cgroup_pressure_cpu_waiting_seconds_total", NULL,
       USEC_PER_SEC, NULL, "Time some tasks waited for CPU (cpu.pressure some).")
METRIC(PRESSURE_CPU_STALLED, COUNTER, "cgroup_pressure_cpu_stalled_seconds_total", NULL,
       USEC_PER_SEC, NULL, "Time all tasks stalled on CPU (cpu.pressure full).")
METRIC(PRESSURE_MEMORY_WAITING, COUNTER, "cgroup_pressure_memory_waiting_seconds_total", NULL,
       USEC_PER_SEC, NULL, "Time some tasks waited for memory (memory.pressure some).")
METRIC(PRESSURE_MEMORY_STALLED, COUNTER, "cgroup_pressure_memory_stalled_seconds_total", NULL,
       USEC_PER_SEC, NULL, "Time all tasks stalled on memory (memory.pressure full).")
METRIC(PRESSURE_IO_WAITING, COUNTER, "cgroup_pressure_io_waiting_seconds_total", NULL, USEC_PER_SEC,
       NULL, "Time some tasks waited for I/O (io.pressure some).")
METRIC(PRESSURE_IO_STALLED, COUNTER, "cgroup_pressure_io_stalled_seconds_total", NULL, USEC_PER_SEC,
       NULL, "Time all tasks stalled on I/O (io.pressure full).")

/*
 * What the container runtime says (collector/runtime/): when the cgroup's
 * container was created, in seconds since the epoch.
 */
METRIC(CONTAINER_CREATED, GAUGE, "cgroup_container_created_timestamp_seconds", NULL, 1, NULL,
       "When the cgroup's container was created, in seconds since the epoch, as its "
       "runtime says (container_runtime_sockets).")
