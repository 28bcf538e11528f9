/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memory controller (mm/memcontrol.c). v1 and v2 name things differently
 * but mean the same; both map to one set of metrics:
 *   usage        memory.usage_in_bytes       / memory.current
 *   max usage    memory.max_usage_in_bytes   / memory.peak (5.19+)
 *   limit        memory.limit_in_bytes       / memory.max
 *   failures     memory.failcnt              / memory.events.local "max"
 *   OOM kills    memory.oom_control oom_kill / memory.events.local oom_kill
 * v1 counts those events only in the group whose limit was hit, as v2's
 * memory.events.local does; v2's memory.events also counts them in every
 * ancestor, which would make a limit alert fire for the parents too.
 * memory.stat: v2 values are hierarchical, so on v1 the total_* keys (also
 * hierarchical) are the ones with the same meaning; cache/rss are v2's
 * file/anon. All sizes in memory.stat are bytes on both.
 *
 * A BPF record (collector/bpf/) holds the page counters, swap's among
 * them, and the event arrays; memory.stat stays a file.
 */
#include "base/util.h"
#include "collector/bpf/source.h"
#include "collector/controllers/controller.h"
#include "collector/parse.h"

static const struct file_metric memory_v1_files[] = {
    {"memory.usage_in_bytes", METRIC_MEMORY_USAGE, VALUE_COUNT, 0},
    {"memory.max_usage_in_bytes", METRIC_MEMORY_MAX_USAGE, VALUE_COUNT, 0},
    {"memory.limit_in_bytes", METRIC_MEMORY_LIMIT, VALUE_LIMIT, 0},
    {"memory.soft_limit_in_bytes", METRIC_MEMORY_SOFT_LIMIT, VALUE_LIMIT, 0},
    {"memory.failcnt", METRIC_MEMORY_LIMIT_FAILURES, VALUE_COUNT, 0},
    {"memory.memsw.usage_in_bytes", METRIC_MEMORY_MEMSW_USAGE, VALUE_COUNT, 0},
    {"memory.memsw.max_usage_in_bytes", METRIC_MEMORY_MEMSW_MAX_USAGE, VALUE_COUNT, 0},
    {"memory.memsw.limit_in_bytes", METRIC_MEMORY_MEMSW_LIMIT, VALUE_LIMIT, 0},
    {"memory.memsw.failcnt", METRIC_MEMORY_MEMSW_LIMIT_FAILURES, VALUE_COUNT, 0},
    {"memory.kmem.usage_in_bytes", METRIC_MEMORY_KERNEL_USAGE, VALUE_COUNT, 0},
    {"memory.kmem.max_usage_in_bytes", METRIC_MEMORY_KERNEL_MAX_USAGE, VALUE_COUNT, 0},
    {"memory.kmem.limit_in_bytes", METRIC_MEMORY_KERNEL_LIMIT, VALUE_LIMIT, 0},
    {"memory.kmem.failcnt", METRIC_MEMORY_KERNEL_LIMIT_FAILURES, VALUE_COUNT, 0},
};

/*
 * v1 memory.stat lists the group's own counters first and their
 * hierarchical total_* sums after them (memcg_stat_show() in
 * mm/memcontrol.c). Only the sums are exported, so the parse starts at the
 * first total_ line and never looks at the lines before it.
 */
static const struct key_metric memory_v1_stat[] = {
    {"total_cache", METRIC_MEMORY_CACHE, NULL, 0},
    {"total_rss", METRIC_MEMORY_RSS, NULL, 0},
    {"total_shmem", METRIC_MEMORY_SHMEM, NULL, 0},
    {"total_mapped_file", METRIC_MEMORY_MAPPED_FILE, NULL, 0},
    {"total_dirty", METRIC_MEMORY_DIRTY, NULL, 0},
    {"total_writeback", METRIC_MEMORY_WRITEBACK, NULL, 0},
    {"total_swap", METRIC_MEMORY_SWAP_USAGE, NULL, 0},
    {"total_active_anon", METRIC_MEMORY_ACTIVE_ANON, NULL, 0},
    {"total_inactive_anon", METRIC_MEMORY_INACTIVE_ANON, NULL, 0},
    {"total_active_file", METRIC_MEMORY_ACTIVE_FILE, NULL, 0},
    {"total_inactive_file", METRIC_MEMORY_INACTIVE_FILE, NULL, 0},
    {"total_unevictable", METRIC_MEMORY_UNEVICTABLE, NULL, 0},
    {"total_pgfault", METRIC_MEMORY_PAGE_FAULTS, NULL, 0},
    {"total_pgmajfault", METRIC_MEMORY_MAJOR_PAGE_FAULTS, NULL, 0},
};

static const struct key_metric memory_v1_oom_control[] = {
    {"under_oom", METRIC_MEMORY_UNDER_OOM, NULL, 0},
    {"oom_kill", METRIC_MEMORY_OOM_KILLS, NULL, 0},
};

static int memory_read_v1(const struct reader_ctx *c)
{
	int r = read_file_metrics(c, memory_v1_files, ELEMENTSOF(memory_v1_files));

	if (r >= 0)
		r = read_keyed_file_from(c, "memory.stat", "total_", memory_v1_stat,
					 ELEMENTSOF(memory_v1_stat), NULL, NULL);
	if (r >= 0)
		r = read_keyed_file(c, "memory.oom_control", memory_v1_oom_control,
				    ELEMENTSOF(memory_v1_oom_control), NULL, NULL);
	return r;
}

static const struct file_metric memory_v2_files[] = {
    {"memory.current", METRIC_MEMORY_USAGE, VALUE_COUNT, 0},
    {"memory.peak", METRIC_MEMORY_MAX_USAGE, VALUE_COUNT, 0},
    {"memory.max", METRIC_MEMORY_LIMIT, VALUE_LIMIT, 0},
    {"memory.high", METRIC_MEMORY_HIGH, VALUE_LIMIT, 0},
    {"memory.low", METRIC_MEMORY_LOW, VALUE_COUNT, 0},
    {"memory.min", METRIC_MEMORY_MIN, VALUE_COUNT, 0},
};

static const struct file_metric memory_v2_swap_files[] = {
    {"memory.swap.current", METRIC_MEMORY_SWAP_USAGE, VALUE_COUNT, 0},
    {"memory.swap.max", METRIC_MEMORY_SWAP_LIMIT, VALUE_LIMIT, 0},
};

static const struct key_metric memory_v2_stat[] = {
    {"kernel", METRIC_MEMORY_KERNEL_USAGE, NULL, 0},
    {"file", METRIC_MEMORY_CACHE, NULL, 0},
    {"anon", METRIC_MEMORY_RSS, NULL, 0},
    {"shmem", METRIC_MEMORY_SHMEM, NULL, 0},
    {"file_mapped", METRIC_MEMORY_MAPPED_FILE, NULL, 0},
    {"file_dirty", METRIC_MEMORY_DIRTY, NULL, 0},
    {"file_writeback", METRIC_MEMORY_WRITEBACK, NULL, 0},
    {"active_anon", METRIC_MEMORY_ACTIVE_ANON, NULL, 0},
    {"inactive_anon", METRIC_MEMORY_INACTIVE_ANON, NULL, 0},
    {"active_file", METRIC_MEMORY_ACTIVE_FILE, NULL, 0},
    {"inactive_file", METRIC_MEMORY_INACTIVE_FILE, NULL, 0},
    {"unevictable", METRIC_MEMORY_UNEVICTABLE, NULL, 0},
    {"pgfault", METRIC_MEMORY_PAGE_FAULTS, NULL, 0},
    {"pgmajfault", METRIC_MEMORY_MAJOR_PAGE_FAULTS, NULL, 0},
};

static const struct key_metric memory_v2_events[] = {
    {"low", METRIC_MEMORY_EVENTS, "low", 0},
    {"high", METRIC_MEMORY_EVENTS, "high", 0},
    {"max", METRIC_MEMORY_EVENTS, "max", 0},
    {"oom", METRIC_MEMORY_EVENTS, "oom", 0},
    {"oom_kill", METRIC_MEMORY_EVENTS, "oom_kill", 0},
    {"oom_group_kill", METRIC_MEMORY_EVENTS, "oom_group_kill", 0},
};

_Static_assert(ELEMENTSOF(memory_v2_events) == RECORD_MEMORY_EVENTS,
	       "a record's events are memory.events' keys, in order");

/* The group's own events: what v1's failcnt and oom_control count. */
static const struct key_metric memory_v2_local_events[] = {
    {"max", METRIC_MEMORY_LIMIT_FAILURES, NULL, 0},
    {"oom_kill", METRIC_MEMORY_OOM_KILLS, NULL, 0},
};

static const struct key_metric memory_v2_swap_events[] = {
    {"high", METRIC_MEMORY_SWAP_EVENTS, "high", 0},
    {"max", METRIC_MEMORY_SWAP_EVENTS, "max", 0},
    {"fail", METRIC_MEMORY_SWAP_EVENTS, "fail", 0},
};

_Static_assert(ELEMENTSOF(memory_v2_swap_events) == RECORD_SWAP_EVENTS,
	       "a record's swap events are memory.swap.events' keys, in order");

static int memory_from_record(const struct reader_ctx *c, const struct record *rec)
{
	const struct {
		enum metric metric;
		uint64_t pages;
	} counters[] = {
	    {METRIC_MEMORY_USAGE, rec->memory_pages},
	    {METRIC_MEMORY_MAX_USAGE, rec->memory_peak_pages},
	    {METRIC_MEMORY_LIMIT, rec->memory_max_pages},
	    {METRIC_MEMORY_HIGH, rec->memory_high_pages},
	    {METRIC_MEMORY_LOW, rec->memory_low_pages},
	    {METRIC_MEMORY_MIN, rec->memory_min_pages},
	};
	int r = 0;

	for (size_t i = 0; r >= 0 && i < ELEMENTSOF(counters); i++)
		r = reader_emit(c, counters[i].metric, NULL,
				reader_counter_bytes(c, counters[i].pages, 1), 1);
	if (r >= 0)
		r = reader_emit(c, METRIC_MEMORY_LIMIT_FAILURES, NULL,
				rec->memory_events[RECORD_MEMORY_MAX], 1);
	if (r >= 0)
		r = reader_emit(c, METRIC_MEMORY_OOM_KILLS, NULL,
				rec->memory_events[RECORD_MEMORY_OOM_KILL], 1);
	if (r >= 0)
		r = reader_emit_keys(c, memory_v2_events, ELEMENTSOF(memory_v2_events),
				     rec->memory_events_tree, (1u << RECORD_MEMORY_EVENTS) - 1);
	if (r >= 0)
		r = reader_emit(c, METRIC_MEMORY_SWAP_USAGE, NULL,
				reader_counter_bytes(c, rec->swap_pages, 1), 1);
	if (r >= 0)
		r = reader_emit(c, METRIC_MEMORY_SWAP_LIMIT, NULL,
				reader_counter_bytes(c, rec->swap_max_pages, 1), 1);
	if (r >= 0)
		r = reader_emit_keys(c, memory_v2_swap_events, ELEMENTSOF(memory_v2_swap_events),
				     rec->swap_events, (1u << RECORD_SWAP_EVENTS) - 1);
	return r;
}

/* What only files have: memory.stat. */
static int memory_v2_stat_file(const struct reader_ctx *c)
{
	return read_keyed_file(c, "memory.stat", memory_v2_stat, ELEMENTSOF(memory_v2_stat), NULL,
			       NULL);
}

/*
 * Files are read in the order of their metrics (metric.h), so that the
 * record needs next to no sorting before it is rendered.
 */
static int memory_read_v2(const struct reader_ctx *c)
{
	const struct record *rec = reader_record(c);
	int r;

	if (rec) { /* without values the controller is not enabled here */
		if (!(rec->has & RECORD_HAS_MEMORY))
			return 0;
		r = memory_from_record(c, rec);
		return r < 0 ? r : memory_v2_stat_file(c);
	}
	r = read_file_metrics(c, memory_v2_files, ELEMENTSOF(memory_v2_files));
	if (r >= 0)
		r = read_keyed_file(c, "memory.events.local", memory_v2_local_events,
				    ELEMENTSOF(memory_v2_local_events), NULL, NULL);
	if (r >= 0)
		r = read_keyed_file(c, "memory.events", memory_v2_events,
				    ELEMENTSOF(memory_v2_events), NULL, NULL);
	if (r >= 0)
		r = read_file_metrics(c, memory_v2_swap_files, ELEMENTSOF(memory_v2_swap_files));
	if (r >= 0)
		r = read_keyed_file(c, "memory.swap.events", memory_v2_swap_events,
				    ELEMENTSOF(memory_v2_swap_events), NULL, NULL);
	return r < 0 ? r : memory_v2_stat_file(c);
}

const struct controller_reader reader_memory = {
    .read_v1 = memory_read_v1,
    .read_v2 = memory_read_v2,
};
