/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cAdvisor's names for what the snapshot holds (google/cadvisor,
 * lib/metrics/prometheus.go), with cAdvisor's units: seconds for times, raw
 * microseconds for the CPU quota and period, cpu.shares or a v2 weight as
 * cAdvisor converts it. Where cAdvisor's own choices would lose
 * information the snapshot has, the native value wins and the row says so.
 *
 * Two cAdvisor families are counters without "_total" (container_memory_failcnt,
 * container_hugetlb_failcnt). promtool rejects that, and OpenMetrics cannot
 * name a counter's sample without "_total", so they are untyped here: the
 * name, which is what queries use, stays cAdvisor's.
 */
#include <stdio.h>
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
/* cAdvisor names devices "/dev/sda"; unresolved ones stay "8:0", as there. */
#define DEVICE_COUNTER(n, m, h)                                                                    \
	{                                                                                          \
		.name = n, .help = h, .type = FAMILY_COUNTER, .source = m, .label = "device",      \
		.form = LABEL_DEVICE                                                               \
	}
/* Bytes by device and operation: cAdvisor has Read and Write from io.stat. */
#define DEVICE_USAGE(m, op, h)                                                                     \
	{                                                                                          \
		.name = "container_blkio_device_usage_total", .help = h, .type = FAMILY_COUNTER,   \
		.source = m, .label = "device", .form = LABEL_DEVICE_NUMBERS, .fixed = {           \
			{"operation", op}                                                          \
		}                                                                                  \
	}
/* A limit cAdvisor shows as 0 when it is "max", for a group the controller is on for. */
#define LIMIT(n, m, on, h)                                                                         \
	{                                                                                          \
		.name = n, .help = h, .type = FAMILY_GAUGE, .source = m,                           \
		.unlimited_as_zero = true, .controlled = on                                        \
	}
#define HUGETLB(n, t, m, h)                                                                        \
	{                                                                                          \
		.name = n, .help = h, .type = t, .source = m, .label = "pagesize"                  \
	}

const struct cadvisor_row cadvisor_rows[] = {
    /* CPU. Per CPU (cpu="cpu00"...) where the group has per-CPU usage, v1's cpuacct, as
       standalone cAdvisor writes it; otherwise the one cpu="total" series, as on v2 and in
       kubelet. Neither where it is 0. */
    {.name = "container_cpu_usage_seconds_total",
     .help = "Cumulative CPU time consumed (cpuacct.usage_percpu, cpuacct.usage, cpu.stat "
	     "usage_usec).",
     .type = FAMILY_COUNTER,
     .source = METRIC_CPU_USAGE_PER_CPU,
     .divisor = NSEC_PER_SEC,
     .label = "cpu",
     .form = LABEL_CPU,
     .skip_zero = true},
    {.name = "container_cpu_usage_seconds_total",
     .type = FAMILY_COUNTER,
     .source = METRIC_CPU_USAGE,
     .divisor = NSEC_PER_SEC,
     .fixed = {{"cpu", "total"}},
     .without_per_cpu = true,
     .skip_zero = true},
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
    /* Stored as 1/1024 of a v2 weight (collector/controllers/cpu.c), labelled with the
       file it came from: v1 shares come back exactly, a v2 weight through cAdvisor's
       2 + (weight - 1) * 262142 / 9999 (100 gives 2597), not the kernel's weight * 1024 / 100. */
    {.name = "container_spec_cpu_shares",
     .help = "CPU shares (cpu.shares, or cpu.weight as cAdvisor converts it).",
     .type = FAMILY_GAUGE,
     .source = METRIC_CPU_WEIGHT,
     .shares = true},

    /* Memory */
    {.name = "container_memory_usage_bytes",
     .help = "Memory charged (memory.usage_in_bytes, memory.current; anon + file in v2's root).",
     .type = FAMILY_GAUGE,
     .source = METRIC_MEMORY_USAGE,
     .root_usage = true},
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
     .working_set = true,
     .root_usage = true},
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
    /* cAdvisor writes the one count of memory.stat under both scopes; it is hierarchical on
       v2, and so here on v1 too (total_pgfault), where cAdvisor takes the group's own. */
    {.name = "container_memory_failures_total",
     .help = "Page faults (memory.stat pgfault, pgmajfault; total_pgfault, total_pgmajfault "
	     "on v1).",
     .type = FAMILY_COUNTER,
     .source = METRIC_MEMORY_PAGE_FAULTS,
     .fixed = {{"failure_type", "pgfault"}, {"scope", "container"}}},
    {.name = "container_memory_failures_total",
     .type = FAMILY_COUNTER,
     .source = METRIC_MEMORY_MAJOR_PAGE_FAULTS,
     .fixed = {{"failure_type", "pgmajfault"}, {"scope", "container"}}},
    {.name = "container_memory_failures_total",
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
    /* Unlimited is 0, as in cAdvisor, for a group with memory accounting. */
    LIMIT("container_spec_memory_limit_bytes", METRIC_MEMORY_LIMIT, METRIC_MEMORY_USAGE,
	  "Memory limit (memory.limit_in_bytes, memory.max); 0 when unlimited."),
    LIMIT("container_spec_memory_reservation_limit_bytes", METRIC_MEMORY_SOFT_LIMIT,
	  METRIC_MEMORY_USAGE,
	  "Memory reservation (memory.soft_limit_in_bytes, memory.min); 0 when unlimited."),
    GAUGE("container_spec_memory_reservation_limit_bytes", METRIC_MEMORY_MIN, NULL),
    LIMIT("container_spec_memory_swap_limit_bytes", METRIC_MEMORY_SWAP_LIMIT, METRIC_MEMORY_USAGE,
	  "Swap limit (memory.memsw.limit_in_bytes, memory.swap.max); 0 when unlimited."),
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
    DEVICE_USAGE(METRIC_IO_READ_BYTES, "Read",
		 "Bytes read from and written to the device (io.stat rbytes, wbytes; "
		 "blkio.throttle.io_service_bytes)."),
    DEVICE_USAGE(METRIC_IO_WRITE_BYTES, "Write", NULL),

    /* Tasks: cAdvisor's threads come from the pids controller. */
    GAUGE("container_threads", METRIC_PIDS_CURRENT, "Tasks in the group (pids.current)."),
    LIMIT("container_threads_max", METRIC_PIDS_LIMIT, METRIC_PIDS_CURRENT,
	  "Task limit (pids.max); 0 when unlimited."),

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
    /*
     * Only for containers a runtime named: their creation time from its API, as cAdvisor's
     * Docker handler has it. cAdvisor's guess for other cgroups, their directories' mtime,
     * is the time kernfs made the inode, which can come later (cgacctd.yml(5)).
     */
    GAUGE("container_start_time_seconds", METRIC_CONTAINER_CREATED,
	  "Start time of the container since unix epoch in seconds."),
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

static bool has(const struct cgroup_record *r, enum metric m)
{
	size_t first;

	return samples_of(r, m, &first) > first;
}

/* The samples row c exports for r, as in samples_of(): none if r lacks c's condition. */
static size_t row_samples(const struct cadvisor_row *c, const struct cgroup_record *r,
			  size_t *ret_first)
{
	size_t end = samples_of(r, c->source, ret_first);

	if ((c->needs_quota && !has(r, METRIC_CPU_QUOTA)) ||
	    (c->without_per_cpu && has(r, METRIC_CPU_USAGE_PER_CPU)))
		return *ret_first;
	return end;
}

/* r's sample of metric m, 0 if it has none. */
static uint64_t value_of(const struct cgroup_record *r, enum metric m)
{
	size_t i;

	return samples_of(r, m, &i) > i ? r->samples[i].value : 0;
}

/*
 * The root of a v2 hierarchy has no memory.current: cAdvisor counts its
 * usage as memory.stat's anon + file there, and so does this naming.
 */
static bool root_usage(const struct cgroup_record *r, uint64_t *ret)
{
	if (strcmp(r->path, "/") != 0 || has(r, METRIC_MEMORY_USAGE) ||
	    !has(r, METRIC_MEMORY_RSS) || !has(r, METRIC_MEMORY_CACHE))
		return false;
	*ret = value_of(r, METRIC_MEMORY_RSS) + value_of(r, METRIC_MEMORY_CACHE);
	return true;
}

/* cAdvisor's conversion of a v2 weight (1 to 10000) to shares, in integers as there. */
static uint64_t weight_to_shares(uint64_t weight)
{
	return weight >= 1 && weight <= 10000 ? 2 + (weight - 1) * 262142 / 9999 : 0;
}

/*
 * Whether r is in a v1 hierarchy of the cpu controller: its weight came
 * from cpu.shares then, as a cgroup's v1 values win over v2's
 * (snapshot.c). Its identity samples name the hierarchies it is in.
 */
static bool in_v1_cpu(const struct cgroup_record *r)
{
	for (size_t i = 0; i < r->n_samples && r->samples[i].metric <= METRIC_INFO_INO; i++) {
		const char *h = sample_label(r, &r->samples[i]);
		size_t n;

		for (; *h; h += n + (h[n] == ',')) {
			n = strcspn(h, ",");
			if (n == 3 && memcmp(h, "cpu", 3) == 0)
				return true;
		}
	}
	return false;
}

/* Row c's value for sample s of r. */
static uint64_t row_value(const struct cadvisor_row *c, const struct cgroup_record *r,
			  const struct sample *s)
{
	uint64_t value = s->value;
	size_t i;

	if (c->shares) /* stored in 1/1024 of a weight (cpu.c) */
		return in_v1_cpu(r) ? value / 100 : weight_to_shares(value / 1024);
	if (!c->working_set || samples_of(r, METRIC_MEMORY_INACTIVE_FILE, &i) == i)
		return value;
	return value > r->samples[i].value ? value - r->samples[i].value : 0;
}

struct series_label {
	const char *name, *prefix, *value;
	const struct label_text *escaped; /* the value escaped already, instead of value */
};

/* The device's numbers, as cAdvisor's major and minor labels. */
struct device_numbers {
	char major[16], minor[16];
};

/* Empty for a device the collection could not keep (out of memory, devname.c). */
static void device_numbers(const struct snapshot *s, const char *label, struct device_numbers *ret)
{
	const struct block_device *d = snapshot_device(s, label);

	*ret = (struct device_numbers){0};
	if (!d)
		return;
	*format_u64(ret->major, d->major) = '\0';
	*format_u64(ret->minor, d->minor) = '\0';
}

/*
 * One sample line, its labels sorted by name as cAdvisor's client library
 * writes them: {cpu="total",id="/a",image="",name=""}. path is the record's
 * cgroup label value, already escaped; who, what its runtime named its
 * container, or NULL.
 */
static void write_series(struct strbuf *b, const struct cadvisor_row *c,
			 const struct label_text *path, const struct container_names *who,
			 const char *label, const struct device_numbers *numbers, uint64_t value)
{
	struct series_label labels[8] = {
	    {.name = "id", .prefix = "", .escaped = path},
	    {.name = "image", .prefix = "", .value = who ? who->image : ""},
	    {.name = "name", .prefix = "", .value = who ? who->name : ""},
	};
	char cpu[LABEL_MAX + 4];
	size_t n = 3;

	if (c->form == LABEL_CPU) {
		/* cAdvisor's "cpu%02d" */
		snprintf(cpu, sizeof(cpu), "cpu%s%s", strlen(label) < 2 ? "0" : "", label);
		label = cpu;
	}
	if (c->label)
		labels[n++] = (struct series_label){
		    .name = c->label,
		    .prefix = c->form >= LABEL_DEVICE && c->form <= LABEL_DEVICE_NUMBERS &&
				      !strchr(label, ':')
				  ? "/dev/"
				  : "",
		    .value = label,
		};
	if (numbers) {
		labels[n++] =
		    (struct series_label){.name = "major", .prefix = "", .value = numbers->major};
		labels[n++] =
		    (struct series_label){.name = "minor", .prefix = "", .value = numbers->minor};
	}
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

/*
 * The series of rows [first, end), one family, for r: written through w, or
 * only counted when w is NULL (for the max_series cap, which counts what
 * is written). Rows' sources are not in metric order, so each row
 * finds its samples afresh: no cursor.
 */
static size_t record_family(struct family_writer *w, size_t first, size_t end,
			    const struct cgroup_record *r, const struct label_text *path)
{
	const struct cadvisor_row *head = &cadvisor_rows[first];
	size_t n = 0;
	uint64_t usage;

	for (size_t k = first; k < end; k++) {
		const struct cadvisor_row *c = &cadvisor_rows[k];
		size_t j, stop = row_samples(c, r, &j);

		if (j == stop && c->root_usage && root_usage(r, &usage)) {
			struct sample s = {.value = usage,
					   .metric = METRIC_MEMORY_USAGE,
					   .label = SAMPLE_NO_LABEL};

			if (w) {
				family_writer_header(w, head->name, head->help, head->type);
				write_series(w->b, c, path, r->container, "", NULL,
					     row_value(c, r, &s));
			}
			n++;
		}
		for (; j < stop; j++) {
			const struct sample *s = &r->samples[j];
			const char *label = sample_label(r, s);
			struct device_numbers numbers;

			if (c->skip_zero && s->value == 0)
				continue;
			if (w) {
				if (c->form == LABEL_DEVICE_NUMBERS)
					device_numbers(w->s, label, &numbers);
				family_writer_header(w, head->name, head->help, head->type);
				write_series(w->b, c, path, r->container, label,
					     c->form == LABEL_DEVICE_NUMBERS ? &numbers : NULL,
					     row_value(c, r, s));
			}
			n++;
		}
	}
	if (n == 0 && head->unlimited_as_zero && has(r, head->controlled)) {
		if (w) {
			family_writer_header(w, head->name, head->help, head->type);
			write_series(w->b, head, path, r->container, "", NULL, 0);
		}
		n++;
	}
	return n;
}

static const char *row_name(size_t k)
{
	return cadvisor_rows[k].name;
}

static size_t record_series(const struct cgroup_record *r)
{
	size_t n = 0;

	for (size_t k = 0, end; k < ELEMENTSOF(cadvisor_rows); k = end) {
		end = naming_family_end(&cadvisor_naming, k);
		n += record_family(NULL, k, end, r, NULL);
	}
	return n;
}

static void family_series(struct family_writer *w, const struct cgroup_record *records,
			  const struct label_text *paths, size_t *cursor, size_t n)
{
	for (size_t i = 0; i < n; i++)
		record_family(w, w->first, w->end, &records[i], &paths[i]);
}

const struct naming cadvisor_naming = {
    .n_rows = ELEMENTSOF(cadvisor_rows),
    .row_name = row_name,
    .record_series = record_series,
    .family_series = family_series,
};
