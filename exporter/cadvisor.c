/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cAdvisor's names for what the snapshot holds (google/cadvisor,
 * metrics/prometheus.go), with cAdvisor's units: seconds for times, raw
 * microseconds for the CPU quota and period, raw cpu.shares. Where
 * cAdvisor's own choices would lose information the snapshot has, the
 * native value wins and the row says so.
 *
 * Two cAdvisor families are counters without "_total" (container_memory_failcnt,
 * container_hugetlb_failcnt). promtool rejects that, and OpenMetrics cannot
 * name a counter's sample without "_total", so they are untyped here: the
 * name, which is what queries use, stays cAdvisor's.
 */
#include <string.h>

#include "base/clock.h"
#include "base/util.h"
#include "exporter/cadvisor.h"

#define GAUGE(n, m, h)                                                                             \
	{                                                                                          \
		.name = n, .help = h, .type = FAMILY_GAUGE, .source = m                            \
	}
#define COUNTER(n, m, div, h)                                                                      \
	{                                                                                          \
		.name = n, .help = h, .type = FAMILY_COUNTER, .source = m, .divisor = div          \
	}
/* cAdvisor has CFS statistics only for groups with a quota. */
#define CFS_COUNTER(n, m, div, h)                                                                  \
	{                                                                                          \
		.name = n, .help = h, .type = FAMILY_COUNTER, .source = m, .divisor = div,         \
		.needs_quota = true                                                                \
	}
/* cAdvisor names devices "/dev/sda"; unresolved ones stay "8:0". */
#define DEVICE_COUNTER(n, m, h)                                                                    \
	{                                                                                          \
		.name = n, .help = h, .type = FAMILY_COUNTER, .source = m, .label = "device",      \
		.label_prefix = "/dev/"                                                            \
	}
#define HUGETLB(n, t, m, h)                                                                        \
	{                                                                                          \
		.name = n, .help = h, .type = t, .source = m, .label = "pagesize"                  \
	}

const struct cadvisor_row cadvisor_rows[] = {
    /* CPU. cAdvisor's per-CPU form (cpu="cpu00"...) exists only with its "percpu"
       set; kubelet and most setups see the one cpu="total" series. */
    {.name = "container_cpu_usage_seconds_total",
     .help = "Cumulative CPU time consumed (cpuacct.usage, cpu.stat usage_usec).",
     .type = FAMILY_COUNTER,
     .source = METRIC_CPU_USAGE,
     .divisor = NSEC_PER_SEC,
     .fixed = {{"cpu", "total"}}},
    COUNTER("container_cpu_user_seconds_total", METRIC_CPU_USER, NSEC_PER_SEC,
	    "Cumulative user CPU time (cpuacct.stat user, cpu.stat user_usec)."),
    COUNTER("container_cpu_system_seconds_total", METRIC_CPU_SYSTEM, NSEC_PER_SEC,
	    "Cumulative system CPU time (cpuacct.stat system, cpu.stat system_usec)."),
    CFS_COUNTER("container_cpu_cfs_periods_total", METRIC_CPU_PERIODS, 0,
		"Number of elapsed CFS enforcement periods; only for groups with a quota."),
    CFS_COUNTER("container_cpu_cfs_throttled_periods_total", METRIC_CPU_THROTTLED_PERIODS, 0,
		"Number of throttled CFS periods; only for groups with a quota."),
    CFS_COUNTER("container_cpu_cfs_throttled_seconds_total", METRIC_CPU_THROTTLED_TIME,
		NSEC_PER_SEC, "Total time the group was throttled; only for groups with a quota."),
    CFS_COUNTER("container_cpu_cfs_burst_periods_total", METRIC_CPU_BURSTS, 0,
		"Number of CFS periods in which burst was used; only for groups with a quota."),
    CFS_COUNTER("container_cpu_cfs_burst_seconds_total", METRIC_CPU_BURST_TIME, NSEC_PER_SEC,
		"CPU time used beyond the quota as burst; only for groups with a quota."),
    GAUGE("container_spec_cpu_quota", METRIC_CPU_QUOTA,
	  "CPU quota per period in microseconds (cpu.cfs_quota_us, cpu.max); absent when "
	  "unlimited."),
    GAUGE("container_spec_cpu_period", METRIC_CPU_PERIOD,
	  "CFS period in microseconds (cpu.cfs_period_us, cpu.max)."),
    /* Stored as 1/1024 of a v2 weight (daemon/collector/controllers/cpu.c): v1 shares come back
       exactly; a v2 weight is shown as the kernel converts it, weight * 1024 / 100, not
       through cAdvisor's 2 + (weight - 1) * 262142 / 9999, which the snapshot cannot
       apply because it does not say which scale a group's value came from. */
    {.name = "container_spec_cpu_shares",
     .help = "CPU shares (cpu.shares, or cpu.weight * 1024 / 100).",
     .type = FAMILY_GAUGE,
     .source = METRIC_CPU_WEIGHT,
     .divisor = 100},

    /* Memory */
    GAUGE("container_memory_usage_bytes", METRIC_MEMORY_USAGE,
	  "Memory charged (memory.usage_in_bytes, memory.current)."),
    GAUGE("container_memory_max_usage_bytes", METRIC_MEMORY_MAX_USAGE,
	  "Peak memory charged (memory.max_usage_in_bytes, memory.peak)."),
    /* cAdvisor reports 0 on v2; memory.events max counts the same limit hits there. */
    {.name = "container_memory_failcnt",
     .help = "Times usage hit the limit (memory.failcnt, memory.events max).",
     .type = FAMILY_UNTYPED,
     .source = METRIC_MEMORY_LIMIT_FAILURES},
    {.name = "container_memory_working_set_bytes",
     .help = "Memory charged minus inactive page cache, at least 0.",
     .type = FAMILY_GAUGE,
     .source = METRIC_MEMORY_USAGE,
     .working_set = true},
    GAUGE("container_memory_cache", METRIC_MEMORY_CACHE,
	  "Page cache in bytes (memory.stat total_cache, file)."),
    GAUGE("container_memory_rss", METRIC_MEMORY_RSS,
	  "Anonymous memory in bytes (memory.stat total_rss, anon)."),
    GAUGE("container_memory_mapped_file", METRIC_MEMORY_MAPPED_FILE,
	  "Mapped file pages in bytes (memory.stat total_mapped_file, file_mapped)."),
    GAUGE("container_memory_swap", METRIC_MEMORY_SWAP_USAGE,
	  "Swap used in bytes (memory.stat total_swap, memory.swap.current)."),
    GAUGE("container_memory_kernel_usage", METRIC_MEMORY_KERNEL_USAGE,
	  "Kernel memory in bytes (memory.kmem.usage_in_bytes, memory.stat kernel)."),
    GAUGE("container_memory_total_active_file_bytes", METRIC_MEMORY_ACTIVE_FILE,
	  "Page cache on the active LRU."),
    GAUGE("container_memory_total_inactive_file_bytes", METRIC_MEMORY_INACTIVE_FILE,
	  "Page cache on the inactive LRU."),
    GAUGE("container_memory_file_dirty_bytes", METRIC_MEMORY_DIRTY,
	  "Dirty page cache (memory.stat dirty, file_dirty)."),
    GAUGE("container_memory_file_writeback_bytes", METRIC_MEMORY_WRITEBACK,
	  "Page cache under writeback (memory.stat writeback, file_writeback)."),
    /* Hierarchical counts on v1 (total_pg*) and v2 alike: cAdvisor's scope="hierarchy". */
    {.name = "container_memory_failures_total",
     .help = "Page faults (memory.stat pgfault, pgmajfault).",
     .type = FAMILY_COUNTER,
     .source = METRIC_MEMORY_PAGE_FAULTS,
     .fixed = {{"failure_type", "pgfault"}, {"scope", "hierarchy"}}},
    {.name = "container_memory_failures_total",
     .type = FAMILY_COUNTER,
     .source = METRIC_MEMORY_MAJOR_PAGE_FAULTS,
     .fixed = {{"failure_type", "pgmajfault"}, {"scope", "hierarchy"}}},
    COUNTER("container_oom_events_total", METRIC_MEMORY_OOM_KILLS, 0,
	    "Processes killed by the OOM killer (oom_kill in memory.oom_control, "
	    "memory.events)."),
    /* Limits are absent when unlimited, where cAdvisor shows 0. */
    GAUGE("container_spec_memory_limit_bytes", METRIC_MEMORY_LIMIT,
	  "Memory limit (memory.limit_in_bytes, memory.max); absent when unlimited."),
    GAUGE("container_spec_memory_reservation_limit_bytes", METRIC_MEMORY_SOFT_LIMIT,
	  "Memory reservation (memory.soft_limit_in_bytes, memory.min)."),
    GAUGE("container_spec_memory_reservation_limit_bytes", METRIC_MEMORY_MIN, NULL),
    GAUGE("container_spec_memory_swap_limit_bytes", METRIC_MEMORY_SWAP_LIMIT,
	  "Swap limit (memory.memsw.limit_in_bytes, memory.swap.max); absent when unlimited."),
    GAUGE("container_spec_memory_swap_limit_bytes", METRIC_MEMORY_MEMSW_LIMIT, NULL),

    /* Huge pages (cAdvisor's "hugetlb" set) */
    HUGETLB("container_hugetlb_usage_bytes", FAMILY_GAUGE, METRIC_HUGETLB_USAGE,
	    "Huge pages charged (hugetlb.<size>.usage_in_bytes, .current)."),
    HUGETLB("container_hugetlb_max_usage_bytes", FAMILY_GAUGE, METRIC_HUGETLB_MAX_USAGE,
	    "Peak huge pages charged (hugetlb.<size>.max_usage_in_bytes)."),
    HUGETLB("container_hugetlb_failcnt", FAMILY_UNTYPED, METRIC_HUGETLB_LIMIT_FAILURES,
	    "Huge page allocations refused by the limit (hugetlb.<size>.failcnt, .events max)."),

    /* Block I/O */
    DEVICE_COUNTER("container_fs_reads_bytes_total", METRIC_IO_READ_BYTES,
		   "Bytes read from the device."),
    DEVICE_COUNTER("container_fs_writes_bytes_total", METRIC_IO_WRITE_BYTES,
		   "Bytes written to the device."),
    DEVICE_COUNTER("container_fs_reads_total", METRIC_IO_READS, "Read operations on the device."),
    DEVICE_COUNTER("container_fs_writes_total", METRIC_IO_WRITES,
		   "Write operations on the device."),

    /* Tasks: cAdvisor's threads come from the pids controller. */
    GAUGE("container_threads", METRIC_PIDS_CURRENT, "Tasks in the group (pids.current)."),
    GAUGE("container_threads_max", METRIC_PIDS_LIMIT,
	  "Task limit (pids.max); absent when unlimited."),

    /* Pressure stall totals, "some" = waiting, "full" = stalled */
    COUNTER("container_pressure_cpu_waiting_seconds_total", METRIC_PRESSURE_CPU_WAITING,
	    USEC_PER_SEC, "Time some tasks waited for CPU (cpu.pressure some)."),
    COUNTER("container_pressure_cpu_stalled_seconds_total", METRIC_PRESSURE_CPU_STALLED,
	    USEC_PER_SEC, "Time all tasks stalled on CPU (cpu.pressure full)."),
    COUNTER("container_pressure_memory_waiting_seconds_total", METRIC_PRESSURE_MEMORY_WAITING,
	    USEC_PER_SEC, "Time some tasks waited for memory (memory.pressure some)."),
    COUNTER("container_pressure_memory_stalled_seconds_total", METRIC_PRESSURE_MEMORY_STALLED,
	    USEC_PER_SEC, "Time all tasks stalled on memory (memory.pressure full)."),
    COUNTER("container_pressure_io_waiting_seconds_total", METRIC_PRESSURE_IO_WAITING, USEC_PER_SEC,
	    "Time some tasks waited for I/O (io.pressure some)."),
    COUNTER("container_pressure_io_stalled_seconds_total", METRIC_PRESSURE_IO_STALLED, USEC_PER_SEC,
	    "Time all tasks stalled on I/O (io.pressure full)."),
};

/* r's samples of metric m are [*ret_first, returned end); samples are sorted by metric. */
static size_t samples_of(const struct cgroup_record *r, enum metric m, size_t *ret_first)
{
	size_t lo = 0, hi = r->n_samples;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->samples[mid].metric < m)
			lo = mid + 1;
		else
			hi = mid;
	}
	*ret_first = lo;
	while (hi < r->n_samples && r->samples[hi].metric == m)
		hi++;
	return hi;
}

/* The samples row c exports for r, as in samples_of(): none if r lacks c's condition. */
static size_t row_samples(const struct cadvisor_row *c, const struct cgroup_record *r,
			  size_t *ret_first)
{
	size_t quota, end = samples_of(r, c->source, ret_first);

	if (c->needs_quota && samples_of(r, METRIC_CPU_QUOTA, &quota) == quota)
		return *ret_first;
	return end;
}

/* cAdvisor's working set: usage less inactive_file when there is one, never below 0. */
static uint64_t row_value(const struct cadvisor_row *c, const struct cgroup_record *r,
			  uint64_t value)
{
	size_t i;

	if (!c->working_set || samples_of(r, METRIC_MEMORY_INACTIVE_FILE, &i) == i)
		return value;
	return value > r->samples[i].value ? value - r->samples[i].value : 0;
}

static const char *row_name(size_t k)
{
	return cadvisor_rows[k].name;
}

static size_t record_series(const struct cgroup_record *r)
{
	size_t n = 0;

	for (size_t k = 0; k < ELEMENTSOF(cadvisor_rows); k++) {
		size_t first, end = row_samples(&cadvisor_rows[k], r, &first);

		n += end - first;
	}
	return n;
}

struct series_label {
	const char *name, *prefix, *value;
	const struct label_text *escaped; /* the value escaped already, instead of value */
};

/*
 * One sample line, its labels sorted by name as cAdvisor's client library
 * writes them: {cpu="total",id="/a",image="",name=""}. path is the record's
 * cgroup label value, already escaped.
 */
static void write_series(struct strbuf *b, const struct cadvisor_row *c,
			 const struct label_text *path, const char *label, uint64_t value)
{
	struct series_label labels[6] = {
	    {.name = "id", .prefix = "", .escaped = path},
	    {.name = "image", .prefix = "", .value = ""},
	    {.name = "name", .prefix = "", .value = ""},
	};
	size_t n = 3;

	if (c->label)
		labels[n++] = (struct series_label){
		    .name = c->label,
		    .prefix = c->label_prefix && !strchr(label, ':') ? c->label_prefix : "",
		    .value = label,
		};
	for (size_t i = 0; i < 2 && c->fixed[i].name; i++)
		labels[n++] = (struct series_label){
		    .name = c->fixed[i].name, .prefix = "", .value = c->fixed[i].value};
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(labels[j - 1].name, labels[j].name) > 0; j--) {
			struct series_label t = labels[j];

			labels[j] = labels[j - 1];
			labels[j - 1] = t;
		}

	strbuf_puts(b, c->name);
	for (size_t i = 0; i < n; i++) {
		strbuf_putc(b, i ? ',' : '{');
		strbuf_puts(b, labels[i].name);
		strbuf_puts(b, "=\"");
		strbuf_puts(b, labels[i].prefix);
		if (labels[i].escaped)
			strbuf_append(b, labels[i].escaped->text, labels[i].escaped->len);
		else
			textformat_label_value(b, labels[i].value);
		strbuf_putc(b, '"');
	}
	strbuf_puts(b, "} ");
	textformat_scaled(b, value, c->divisor);
	strbuf_putc(b, '\n');
}

/* Rows' sources are not in metric order, so each row finds its samples afresh: no cursor. */
static void family_series(struct family_writer *w, const struct cgroup_record *records,
			  const struct label_text *paths, size_t *cursor, size_t n)
{
	const struct cadvisor_row *head = &cadvisor_rows[w->first];

	for (size_t i = 0; i < n; i++) {
		const struct cgroup_record *r = &records[i];

		for (size_t k = w->first; k < w->end; k++) {
			const struct cadvisor_row *c = &cadvisor_rows[k];
			size_t j, stop = row_samples(c, r, &j);

			for (; j < stop; j++) {
				family_writer_header(w, head->name, head->help, head->type);
				write_series(w->b, c, &paths[i], sample_label(r, &r->samples[j]),
					     row_value(c, r, r->samples[j].value));
			}
		}
	}
}

const struct naming cadvisor_naming = {
    .n_rows = ELEMENTSOF(cadvisor_rows),
    .row_name = row_name,
    .record_series = record_series,
    .family_series = family_series,
};
