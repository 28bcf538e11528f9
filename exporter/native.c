/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The native rows and how their lines are written. Names follow the
 * Prometheus conventions checked by `promtool check metrics`: base units in
 * the name (seconds, bytes), counters end in _total, ratios rather than
 * percentages. Each family means the same on cgroup v1 and v2, so one
 * dashboard and one alert rule serve both; where only one version has a
 * file, the family exists only there.
 */
#include <stddef.h>
#include <string.h>

#include "base/clock.h"
#include "base/util.h"
#include "model/identity.h"
#include "exporter/native.h"

#define GAUGE(n, h)                                                                                \
	{                                                                                          \
		.name = n, .help = h, .type = FAMILY_GAUGE                                         \
	}
#define COUNTER(n, h)                                                                              \
	{                                                                                          \
		.name = n, .help = h, .type = FAMILY_COUNTER                                       \
	}
#define SECONDS_COUNTER(n, h)                                                                      \
	{                                                                                          \
		.name = n, .help = h, .type = FAMILY_COUNTER, .divisor = NSEC_PER_SEC              \
	}

const struct native_row native_rows[_METRIC_MAX] = {
    [METRIC_INFO_SERIAL] = {"cgroup_info",
			    "Identity of a cgroup per hierarchy, never reused: cgroup.serial "
			    "(v1) or, without it, the cgroup ID (directory inode number).",
			    FAMILY_INFO, "hierarchy", 0, "serial"},
    [METRIC_INFO_INO] = {"cgroup_info",
			 "Identity of a cgroup per hierarchy, never reused: cgroup.serial "
			 "(v1) or, without it, the cgroup ID (directory inode number).",
			 FAMILY_INFO, "hierarchy", 0, "ino"},

    [METRIC_CPU_USAGE] = SECONDS_COUNTER("cgroup_cpu_usage_seconds_total",
					 "CPU time consumed (cpuacct.usage, cpu.stat usage_usec)."),
    [METRIC_CPU_USER] =
	SECONDS_COUNTER("cgroup_cpu_user_seconds_total",
			"CPU time in user mode (cpuacct.stat user, cpu.stat user_usec)."),
    [METRIC_CPU_SYSTEM] =
	SECONDS_COUNTER("cgroup_cpu_system_seconds_total",
			"CPU time in kernel mode (cpuacct.stat system, cpu.stat system_usec)."),
    [METRIC_CPU_USAGE_PER_CPU] = {"cgroup_cpu_usage_per_cpu_seconds_total",
				  "CPU time consumed on each CPU (cpuacct.usage_percpu).",
				  FAMILY_COUNTER, "cpu", NSEC_PER_SEC, NULL},
    [METRIC_CPU_USER_PER_CPU] = {"cgroup_cpu_user_per_cpu_seconds_total",
				 "Tick-sampled user CPU time on each CPU (cpuacct.usage_all).",
				 FAMILY_COUNTER, "cpu", NSEC_PER_SEC, NULL},
    [METRIC_CPU_SYSTEM_PER_CPU] = {"cgroup_cpu_system_per_cpu_seconds_total",
				   "Tick-sampled kernel CPU time on each CPU (cpuacct.usage_all).",
				   FAMILY_COUNTER, "cpu", NSEC_PER_SEC, NULL},
    [METRIC_CPU_LOAD] = {"cgroup_cpu_load_ratio",
			 "CPU used in the last complete 10 s interval, in CPUs "
			 "(cpuacct.load / 100).",
			 FAMILY_GAUGE, NULL, 100, NULL},
    [METRIC_CPU_RUNNABLE] =
	SECONDS_COUNTER("cgroup_cpu_runnable_seconds_total",
			"Time integral of the group's runnable tasks, running or waiting for a "
			"CPU (cpu.stat usage_usec + wait_usec); its rate is the average number "
			"of runnable tasks."),
    [METRIC_CPU_WAIT] = SECONDS_COUNTER("cgroup_cpu_wait_seconds_total",
					"Time the group's tasks waited for a CPU while runnable, "
					"throttled time included (cpu.stat wait_usec)."),
    [METRIC_CPU_LOAD_AVERAGE] = {"cgroup_cpu_load_average",
				 "Load average of the group's runnable tasks over the window, "
				 "as in /proc/loadavg (cpu.loadavg).",
				 FAMILY_GAUGE, "window", 100, NULL},
    [METRIC_CPU_PERIODS] = COUNTER("cgroup_cpu_periods_total",
				   "CFS bandwidth periods that elapsed with runnable tasks."),
    [METRIC_CPU_THROTTLED_PERIODS] = COUNTER("cgroup_cpu_throttled_periods_total",
					     "CFS bandwidth periods in which the group was "
					     "throttled."),
    [METRIC_CPU_THROTTLED_TIME] = SECONDS_COUNTER("cgroup_cpu_throttled_seconds_total",
						  "Time the group's tasks were throttled."),
    [METRIC_CPU_BURSTS] =
	COUNTER("cgroup_cpu_bursts_total", "CFS bandwidth periods in which burst was used."),
    [METRIC_CPU_BURST_TIME] = SECONDS_COUNTER("cgroup_cpu_burst_seconds_total",
					      "CPU time used beyond the quota as burst."),
    [METRIC_CPU_QUOTA] = {"cgroup_cpu_quota_seconds",
			  "CPU time allowed per period (cpu.cfs_quota_us, cpu.max); "
			  "absent when unlimited.",
			  FAMILY_GAUGE, NULL, USEC_PER_SEC, NULL},
    [METRIC_CPU_PERIOD] = {"cgroup_cpu_period_seconds",
			   "CFS bandwidth period (cpu.cfs_period_us, cpu.max).", FAMILY_GAUGE, NULL,
			   USEC_PER_SEC, NULL},
    [METRIC_CPU_BURST_QUOTA] = {"cgroup_cpu_burst_quota_seconds",
				"CPU time a period may borrow (cpu.cfs_burst_us, cpu.max.burst).",
				FAMILY_GAUGE, NULL, USEC_PER_SEC, NULL},
    [METRIC_CPU_WEIGHT] = {"cgroup_cpu_weight",
			   "Relative CPU weight on the v2 scale, default 100 "
			   "(cpu.weight, or cpu.shares * 100 / 1024).",
			   FAMILY_GAUGE, NULL, 1024, NULL},

    [METRIC_MEMORY_USAGE] = GAUGE("cgroup_memory_usage_bytes",
				  "Memory charged (memory.usage_in_bytes, memory.current)."),
    [METRIC_MEMORY_MAX_USAGE] =
	GAUGE("cgroup_memory_max_usage_bytes", "Peak memory charged (memory.max_usage_in_bytes, "
					       "memory.peak)."),
    [METRIC_MEMORY_LIMIT] = GAUGE("cgroup_memory_limit_bytes",
				  "Memory limit (memory.limit_in_bytes, memory.max); absent "
				  "when unlimited."),
    [METRIC_MEMORY_SOFT_LIMIT] =
	GAUGE("cgroup_memory_soft_limit_bytes", "v1 soft limit (memory.soft_limit_in_bytes)."),
    [METRIC_MEMORY_HIGH] =
	GAUGE("cgroup_memory_high_bytes", "v2 throttling threshold (memory.high)."),
    [METRIC_MEMORY_LOW] =
	GAUGE("cgroup_memory_low_bytes", "v2 best-effort protection (memory.low)."),
    [METRIC_MEMORY_MIN] = GAUGE("cgroup_memory_min_bytes", "v2 hard protection (memory.min)."),
    [METRIC_MEMORY_LIMIT_FAILURES] =
	COUNTER("cgroup_memory_limit_failures_total", "Times usage hit the limit (memory.failcnt, "
						      "memory.events max)."),
    [METRIC_MEMORY_EVENTS] = {"cgroup_memory_events_total", "v2 memory.events counters.",
			      FAMILY_COUNTER, "event", 0, NULL},
    [METRIC_MEMORY_OOM_KILLS] = COUNTER("cgroup_memory_oom_kills_total",
					"Processes killed by the OOM killer (memory.oom_control "
					"oom_kill, memory.events oom_kill)."),
    [METRIC_MEMORY_UNDER_OOM] =
	GAUGE("cgroup_memory_under_oom", "1 while the v1 group is under OOM (memory.oom_control)."),
    [METRIC_MEMORY_SWAP_USAGE] = GAUGE("cgroup_memory_swap_usage_bytes",
				       "Swap used (memory.stat total_swap, memory.swap.current)."),
    [METRIC_MEMORY_SWAP_LIMIT] =
	GAUGE("cgroup_memory_swap_limit_bytes", "v2 swap limit (memory.swap.max)."),
    [METRIC_MEMORY_SWAP_EVENTS] = {"cgroup_memory_swap_events_total",
				   "v2 memory.swap.events counters.", FAMILY_COUNTER, "event", 0,
				   NULL},
    [METRIC_MEMORY_MEMSW_USAGE] =
	GAUGE("cgroup_memory_memsw_usage_bytes",
	      "v1 memory plus swap charged (memory.memsw.usage_in_bytes)."),
    [METRIC_MEMORY_MEMSW_MAX_USAGE] =
	GAUGE("cgroup_memory_memsw_max_usage_bytes", "v1 peak memory plus swap "
						     "(memory.memsw.max_usage_in_bytes)."),
    [METRIC_MEMORY_MEMSW_LIMIT] =
	GAUGE("cgroup_memory_memsw_limit_bytes", "v1 memory plus swap limit "
						 "(memory.memsw.limit_in_bytes)."),
    [METRIC_MEMORY_MEMSW_LIMIT_FAILURES] =
	COUNTER("cgroup_memory_memsw_limit_failures_total", "Times memory plus swap hit its limit "
							    "(memory.memsw.failcnt)."),
    [METRIC_MEMORY_KERNEL_USAGE] = GAUGE("cgroup_memory_kernel_usage_bytes",
					 "Kernel memory charged (memory.kmem.usage_in_bytes, "
					 "memory.stat kernel)."),
    [METRIC_MEMORY_KERNEL_MAX_USAGE] =
	GAUGE("cgroup_memory_kernel_max_usage_bytes", "v1 peak kernel memory "
						      "(memory.kmem.max_usage_in_bytes)."),
    [METRIC_MEMORY_KERNEL_LIMIT] = GAUGE("cgroup_memory_kernel_limit_bytes",
					 "v1 kernel memory limit (memory.kmem.limit_in_bytes)."),
    [METRIC_MEMORY_KERNEL_LIMIT_FAILURES] =
	COUNTER("cgroup_memory_kernel_limit_failures_total", "Times kernel memory hit its limit "
							     "(memory.kmem.failcnt)."),
    [METRIC_MEMORY_CACHE] =
	GAUGE("cgroup_memory_cache_bytes", "Page cache (memory.stat total_cache, file)."),
    [METRIC_MEMORY_RSS] =
	GAUGE("cgroup_memory_rss_bytes", "Anonymous memory (memory.stat total_rss, anon)."),
    [METRIC_MEMORY_SHMEM] =
	GAUGE("cgroup_memory_shmem_bytes", "Shared memory and tmpfs (memory.stat shmem)."),
    [METRIC_MEMORY_MAPPED_FILE] =
	GAUGE("cgroup_memory_mapped_file_bytes", "Mapped file pages (memory.stat mapped_file, "
						 "file_mapped)."),
    [METRIC_MEMORY_DIRTY] =
	GAUGE("cgroup_memory_dirty_bytes", "Dirty page cache (memory.stat dirty, file_dirty)."),
    [METRIC_MEMORY_WRITEBACK] =
	GAUGE("cgroup_memory_writeback_bytes", "Page cache under writeback (memory.stat writeback, "
					       "file_writeback)."),
    [METRIC_MEMORY_ACTIVE_ANON] =
	GAUGE("cgroup_memory_active_anon_bytes", "Anonymous memory on the active LRU."),
    [METRIC_MEMORY_INACTIVE_ANON] =
	GAUGE("cgroup_memory_inactive_anon_bytes", "Anonymous memory on the inactive LRU."),
    [METRIC_MEMORY_ACTIVE_FILE] =
	GAUGE("cgroup_memory_active_file_bytes", "Page cache on the active LRU."),
    [METRIC_MEMORY_INACTIVE_FILE] = GAUGE("cgroup_memory_inactive_file_bytes",
					  "Page cache on the inactive LRU (reclaimable first)."),
    [METRIC_MEMORY_UNEVICTABLE] =
	GAUGE("cgroup_memory_unevictable_bytes", "Memory that cannot be reclaimed (mlocked)."),
    [METRIC_MEMORY_PAGE_FAULTS] =
	COUNTER("cgroup_memory_page_faults_total", "Page faults (memory.stat pgfault)."),
    [METRIC_MEMORY_MAJOR_PAGE_FAULTS] =
	COUNTER("cgroup_memory_major_page_faults_total", "Page faults that needed I/O (memory.stat "
							 "pgmajfault)."),

    [METRIC_HUGETLB_USAGE] = {"cgroup_hugetlb_usage_bytes",
			      "Huge pages charged (hugetlb.<size>.usage_in_bytes, .current).",
			      FAMILY_GAUGE, "pagesize", 0, NULL},
    [METRIC_HUGETLB_MAX_USAGE] = {"cgroup_hugetlb_max_usage_bytes",
				  "v1 peak huge pages (hugetlb.<size>.max_usage_in_bytes).",
				  FAMILY_GAUGE, "pagesize", 0, NULL},
    [METRIC_HUGETLB_LIMIT] = {"cgroup_hugetlb_limit_bytes",
			      "Huge page limit (hugetlb.<size>.limit_in_bytes, .max); absent "
			      "when unlimited.",
			      FAMILY_GAUGE, "pagesize", 0, NULL},
    [METRIC_HUGETLB_LIMIT_FAILURES] = {"cgroup_hugetlb_limit_failures_total",
				       "Huge page allocations refused by the limit "
				       "(hugetlb.<size>.failcnt, .events max).",
				       FAMILY_COUNTER, "pagesize", 0, NULL},

    [METRIC_IO_READ_BYTES] = {"cgroup_blkio_read_bytes_total", "Bytes read from the device.",
			      FAMILY_COUNTER, "device", 0, NULL},
    [METRIC_IO_WRITE_BYTES] = {"cgroup_blkio_write_bytes_total", "Bytes written to the device.",
			       FAMILY_COUNTER, "device", 0, NULL},
    [METRIC_IO_DISCARD_BYTES] = {"cgroup_blkio_discard_bytes_total",
				 "Bytes discarded on the device.", FAMILY_COUNTER, "device", 0,
				 NULL},
    [METRIC_IO_READS] = {"cgroup_blkio_reads_total", "Read operations on the device.",
			 FAMILY_COUNTER, "device", 0, NULL},
    [METRIC_IO_WRITES] = {"cgroup_blkio_writes_total", "Write operations on the device.",
			  FAMILY_COUNTER, "device", 0, NULL},
    [METRIC_IO_DISCARDS] = {"cgroup_blkio_discards_total", "Discard operations on the device.",
			    FAMILY_COUNTER, "device", 0, NULL},
    [METRIC_IO_READ_BPS_LIMIT] = {"cgroup_blkio_read_limit_bytes_per_second",
				  "Read bandwidth limit (throttle.read_bps_device, io.max "
				  "rbps).",
				  FAMILY_GAUGE, "device", 0, NULL},
    [METRIC_IO_WRITE_BPS_LIMIT] = {"cgroup_blkio_write_limit_bytes_per_second",
				   "Write bandwidth limit (throttle.write_bps_device, io.max "
				   "wbps).",
				   FAMILY_GAUGE, "device", 0, NULL},
    [METRIC_IO_READ_IOPS_LIMIT] = {"cgroup_blkio_read_limit_operations_per_second",
				   "Read IOPS limit (throttle.read_iops_device, io.max riops).",
				   FAMILY_GAUGE, "device", 0, NULL},
    [METRIC_IO_WRITE_IOPS_LIMIT] = {"cgroup_blkio_write_limit_operations_per_second",
				    "Write IOPS limit (throttle.write_iops_device, io.max "
				    "wiops).",
				    FAMILY_GAUGE, "device", 0, NULL},
    [METRIC_IO_WEIGHT] =
	GAUGE("cgroup_blkio_weight", "BFQ default weight (blkio.bfq.weight, io.bfq.weight)."),

    [METRIC_PIDS_CURRENT] = GAUGE("cgroup_pids_current", "Tasks in the group (pids.current)."),
    [METRIC_PIDS_LIMIT] =
	GAUGE("cgroup_pids_limit", "Task limit (pids.max); absent when unlimited."),
    [METRIC_PIDS_LIMIT_FAILURES] = COUNTER("cgroup_pids_limit_failures_total",
					   "Forks refused by the limit (pids.events max)."),

    [METRIC_PRESSURE_CPU_WAITING] = {"cgroup_pressure_cpu_waiting_seconds_total",
				     "Time some tasks waited for CPU (cpu.pressure some).",
				     FAMILY_COUNTER, NULL, USEC_PER_SEC, NULL},
    [METRIC_PRESSURE_CPU_STALLED] = {"cgroup_pressure_cpu_stalled_seconds_total",
				     "Time all tasks stalled on CPU (cpu.pressure full).",
				     FAMILY_COUNTER, NULL, USEC_PER_SEC, NULL},
    [METRIC_PRESSURE_MEMORY_WAITING] = {"cgroup_pressure_memory_waiting_seconds_total",
					"Time some tasks waited for memory (memory.pressure "
					"some).",
					FAMILY_COUNTER, NULL, USEC_PER_SEC, NULL},
    [METRIC_PRESSURE_MEMORY_STALLED] = {"cgroup_pressure_memory_stalled_seconds_total",
					"Time all tasks stalled on memory (memory.pressure "
					"full).",
					FAMILY_COUNTER, NULL, USEC_PER_SEC, NULL},
    [METRIC_PRESSURE_IO_WAITING] = {"cgroup_pressure_io_waiting_seconds_total",
				    "Time some tasks waited for I/O (io.pressure some).",
				    FAMILY_COUNTER, NULL, USEC_PER_SEC, NULL},
    [METRIC_PRESSURE_IO_STALLED] = {"cgroup_pressure_io_stalled_seconds_total",
				    "Time all tasks stalled on I/O (io.pressure full).",
				    FAMILY_COUNTER, NULL, USEC_PER_SEC, NULL},
    [METRIC_CONTAINER_CREATED] = {"cgroup_container_created_timestamp_seconds",
				  "When the cgroup's container was created, in seconds since the "
				  "epoch, as its runtime says (container_runtime_sockets).",
				  FAMILY_GAUGE, NULL, 0, NULL},
};

static const char *row_name(size_t k)
{
	return native_rows[k].name;
}

static size_t record_series(const struct cgroup_record *r)
{
	return r->n_samples;
}

/*
 * cgroup_info's labels for what runs in the cgroup: those its path tells
 * (identity.h) and the name and image its container's runtime gave. One
 * series per cgroup to join on, not labels on every series.
 */
static void write_identity(struct strbuf *b, const struct cgroup_record *r)
{
	const char *path = r->path, *name = NULL, *image = NULL;
	char value[IDENTITY_VALUE_MAX + 1];
	const struct identity *id = &r->identity;
	const struct {
		const char *name;
		const struct identity_span *span; /* the value's place in the path, or */
		const char *const *text;	  /* the value */
	} labels[] = {
	    {"unit", &id->unit, NULL},
	    {"container_runtime", NULL, &id->runtime},
	    {"container_id", &id->container_id, NULL},
	    {"container_name", NULL, &name},
	    {"image", NULL, &image},
	    {"pod_uid", &id->pod_uid, NULL},
	    {"qos_class", NULL, &id->qos_class},
	};

	if (r->container) {
		name = r->container->name;
		image = r->container->image;
	}
	for (size_t i = 0; i < ELEMENTSOF(labels); i++) {
		const char *v = labels[i].text ? *labels[i].text : NULL;

		if (labels[i].span && labels[i].span->len > 0) {
			identity_value(path, labels[i].span, value);
			v = value;
		}
		if (!v)
			continue;
		strbuf_putc(b, ',');
		strbuf_puts(b, labels[i].name);
		strbuf_puts(b, "=\"");
		textformat_label_value(b, v);
		strbuf_putc(b, '"');
	}
}

/* Punctuation of the longest sample line: {cgroup="",="",=""} 1 and the newline. */
#define SAMPLE_PUNCTUATION 32

/*
 * One line, written in place after a single reservation: a scrape of 10,000
 * cgroups renders 650,000 of them. path is the record's cgroup label value,
 * already escaped; name_len is the length of row's name; identity, for
 * cgroup_info's rows, write_identity()'s labels.
 */
static void write_sample(struct strbuf *b, const struct native_row *row, size_t name_len,
			 const struct label_text *path, const struct strbuf *identity,
			 const struct cgroup_record *r, const struct sample *s)
{
	const char *label = row->label ? sample_label(r, s) : NULL;
	size_t label_len = label ? strlen(label) : 0;
	char *p = strbuf_space(b, name_len + path->len + NATIVE_LABEL_NAMES_MAX + 2 * label_len +
				      TEXTFORMAT_SCALED_MAX + SAMPLE_PUNCTUATION);

	if (!p)
		return;
	p = mempcpy(p, row->name, name_len);
	p = mempcpy(p, "{cgroup=\"", 9);
	p = mempcpy(p, path->text, path->len);
	*p++ = '"';
	if (row->label) {
		*p++ = ',';
		p = stpcpy(p, row->label);
		p = mempcpy(p, "=\"", 2);
		p = textformat_write_label_value(p, label, label_len);
		*p++ = '"';
	}
	if (row->info_label) {
		*p++ = ',';
		p = stpcpy(p, row->info_label);
		p = mempcpy(p, "=\"", 2);
		p = format_u64(p, s->value);
		*p++ = '"';
		strbuf_commit(b, p);
		if (identity->len > 0)
			strbuf_append(b, identity->buf, identity->len);
		strbuf_puts(b, "} 1\n");
		return;
	}
	p = mempcpy(p, "} ", 2);
	p = textformat_write_scaled(p, s->value, row->divisor);
	*p++ = '\n';
	strbuf_commit(b, p);
}

/*
 * A record's samples are sorted by metric, so its cursor only moves forward
 * across families. cgroup_info has a series per v1 hierarchy: its identity
 * labels are written once per record.
 */
static void family_series(struct family_writer *w, const struct cgroup_record *records,
			  const struct label_text *paths, size_t *cursor, size_t n)
{
	const struct native_row *head = &native_rows[w->first];
	size_t name_len = strlen(head->name);
	struct strbuf identity = {0};

	for (size_t i = 0; i < n; i++) {
		const struct cgroup_record *r = &records[i];

		if (head->info_label) {
			strbuf_truncate(&identity, 0);
			write_identity(&identity, r);
		}
		for (; cursor[i] < r->n_samples && r->samples[cursor[i]].metric < w->end;
		     cursor[i]++) {
			const struct sample *s = &r->samples[cursor[i]];

			if (s->metric < w->first)
				continue;
			family_writer_header(w, head->name, head->help, head->type);
			write_sample(w->b, &native_rows[s->metric], name_len, &paths[i], &identity,
				     r, s);
		}
	}
	strbuf_done(&identity);
}

const struct naming native_naming = {
    .n_rows = _METRIC_MAX,
    .row_name = row_name,
    .record_series = record_series,
    .family_series = family_series,
};
