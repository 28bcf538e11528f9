/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BPF side of the bulk reader. Three programs share one map of
 * records, by cgroup ID:
 *
 *   walk    a cgroup iterator over the v2 tree, pre-order from the root:
 *           flushes rstat once, then writes every cgroup's record. It
 *           prints nothing: an iterator's output must fit one buffer
 *           (8 pages), as cgroup_mutex is dropped between reads and the
 *           walk cannot resume, and a large tree's records do not.
 *   records a map iterator over the records, which resumes across reads:
 *           prints those the last walk wrote, each followed by its name.
 *   forget  at cgroup_rmdir, drops the cgroup's record and hands its
 *           wait to its parent.
 *
 * With --wait, a program at sched_switch keeps each cgroup's wait for a
 * CPU on any kernel with sched_info (Debian's have SCHEDSTATS): a task's
 * run_delay is its waits so far, and when it is switched in the kernel is
 * about to add now - last_queued (sched_info_arrive(), called after the
 * tracepoint). The program adds to the cgroup the task is in what that
 * total grew by since the task last ran: also the waits that ended
 * without the task running, when it was moved to another CPU's queue
 * (sched_info_dequeue()). It runs at every context switch, which is why
 * it is attached only when asked for.
 *
 * The loader (cgacct-bpf) pins walk and records in bpffs, where an
 * unprivileged reader opens and reads them like files: neither needs a
 * bpf() call, which Debian's kernels refuse unprivileged users for loading
 * programs and making maps.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>

#include "collector/bpf/kernel.h"
#include "collector/bpf/record.h"

char LICENSE[] SEC("license") = "GPL";

/* A record as the map holds it: the walk that wrote it, and the name. */
struct stored {
	__u64 walk;
	struct record r;
	char name[RECORD_NAME_MAX + 1];
};

/* Enough for the largest trees the walk is meant for; records exist only for live cgroups. */
#define RECORDS_MAX (1 << 20)

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, RECORDS_MAX);
	__type(key, __u64);
	__type(value, struct stored);
} records SEC(".maps");

/* Walks so far: a record of an older walk is a cgroup the last one did not find. */
__u64 walks;

extern void cgroup_rstat_flush(struct cgroup *cgrp) __ksym;

/* Set by the loader: whether the wait programs are attached, and the CPUs to sum over. */
const volatile bool wait_tracking;
const volatile __u32 nr_cpus = 1;
#define CPUS_MAX 8192

/* By cgroup ID: the waits of its own tasks, per CPU, so that no switch contends. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, RECORDS_MAX);
	__type(key, __u64);
	__type(value, __u64);
} waits SEC(".maps");

/* By cgroup ID: the waits of its removed descendants, so that no total goes back. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, RECORDS_MAX);
	__type(key, __u64);
	__type(value, __u64);
} departed SEC(".maps");

/* Per task: its run_delay, with the wait that ended, when it last ran. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, __u64);
} counted SEC(".maps");

/* Each CPU's runqueue: its clock is the one sched_info measures waits by. */
extern struct rq runqueues __ksym;

/* The walk's scratch record: too large for the BPF stack. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct stored);
} scratch SEC(".maps");

static void read_cpu(struct cgroup *cgrp, struct record *r)
{
	struct cgroup_subsys_state *css =
	    cgrp->subsys[bpf_core_enum_value(enum cgroup_subsys_id, cpu_cgrp_id)];
	struct task_group *tg;

	r->has |= RECORD_HAS_CPU;
	r->cpu_usage_ns = cgrp->bstat.cputime.sum_exec_runtime;
	r->cpu_user_ns = cgrp->bstat.cputime.utime;
	r->cpu_system_ns = cgrp->bstat.cputime.stime;
	r->cpu_prev_user_ns = cgrp->prev_cputime.utime;
	r->cpu_prev_system_ns = cgrp->prev_cputime.stime;
	if (bpf_core_field_exists(cgrp->wait_usec)) {
		r->has |= RECORD_HAS_KERNEL_WAIT;
		r->kernel_wait_usec = BPF_CORE_READ(cgrp, wait_usec);
	}
	if (!css)
		return;
	tg = container_of(css, struct task_group, css);
	r->has |= RECORD_HAS_CPU_CONTROLLER;
	r->cpu_periods = (__u64)BPF_CORE_READ(tg, cfs_bandwidth.nr_periods);
	r->cpu_throttled_periods = (__u64)BPF_CORE_READ(tg, cfs_bandwidth.nr_throttled);
	r->cpu_throttled_ns = BPF_CORE_READ(tg, cfs_bandwidth.throttled_time);
	r->cpu_bursts = (__u64)BPF_CORE_READ(tg, cfs_bandwidth.nr_burst);
	r->cpu_burst_ns = BPF_CORE_READ(tg, cfs_bandwidth.burst_time);
	r->cpu_quota_ns = BPF_CORE_READ(tg, cfs_bandwidth.quota);
	r->cpu_period_ns = (__u64)BPF_CORE_READ(tg, cfs_bandwidth.period);
	r->cpu_burst_quota_ns = BPF_CORE_READ(tg, cfs_bandwidth.burst);
	r->cpu_shares = BPF_CORE_READ(tg, shares);
}

/*
 * A controller's state embeds its css: the verifier knows the css's type
 * alone, so fields past it are read with bpf_probe_read_kernel().
 */
static __u64 event_count(atomic_long_t *counters, int event)
{
	atomic_long_t v;

	bpf_probe_read_kernel(&v, sizeof(v), &counters[event]);
	return (__u64)v.counter;
}

/* memory.events' counters, in the order of the file (enum record_memory_event). */
static void read_events(atomic_long_t *counters, record_u64 *out)
{
	out[RECORD_MEMORY_LOW] =
	    event_count(counters, bpf_core_enum_value(enum memcg_memory_event, MEMCG_LOW));
	out[RECORD_MEMORY_HIGH] =
	    event_count(counters, bpf_core_enum_value(enum memcg_memory_event, MEMCG_HIGH));
	out[RECORD_MEMORY_MAX] =
	    event_count(counters, bpf_core_enum_value(enum memcg_memory_event, MEMCG_MAX));
	out[RECORD_MEMORY_OOM] =
	    event_count(counters, bpf_core_enum_value(enum memcg_memory_event, MEMCG_OOM));
	out[RECORD_MEMORY_OOM_KILL] =
	    event_count(counters, bpf_core_enum_value(enum memcg_memory_event, MEMCG_OOM_KILL));
	out[RECORD_MEMORY_OOM_GROUP_KILL] = event_count(
	    counters, bpf_core_enum_value(enum memcg_memory_event, MEMCG_OOM_GROUP_KILL));
}

/*
 * Offsets into the structures read by offset stay far below this; the
 * verifier adds no offset it knows no bound of to a kernel pointer.
 */
#define OFFSET_MAX (1 << 16)

/* The u64 off bytes into p, past what the verifier knows of p's type. */
static __u64 read_u64_at(const void *p, __u64 off)
{
	__u64 v = 0;

	if (off < OFFSET_MAX)
		bpf_probe_read_kernel(&v, sizeof(v), (const char *)p + off);
	return v;
}

static void read_swap(struct mem_cgroup *memcg, struct record *r)
{
	r->swap_pages = (__u64)BPF_CORE_READ(memcg, swap.usage.counter);
	r->swap_max_pages = BPF_CORE_READ(memcg, swap.max);
	r->swap_events[RECORD_SWAP_HIGH] = event_count(
	    memcg->memory_events, bpf_core_enum_value(enum memcg_memory_event, MEMCG_SWAP_HIGH));
	r->swap_events[RECORD_SWAP_MAX] = event_count(
	    memcg->memory_events, bpf_core_enum_value(enum memcg_memory_event, MEMCG_SWAP_MAX));
	r->swap_events[RECORD_SWAP_FAIL] = event_count(
	    memcg->memory_events, bpf_core_enum_value(enum memcg_memory_event, MEMCG_SWAP_FAIL));
}

static void read_memory(struct cgroup *cgrp, struct record *r)
{
	struct cgroup_subsys_state *css =
	    cgrp->subsys[bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id)];
	struct mem_cgroup *memcg;

	if (!css)
		return;
	memcg = container_of(css, struct mem_cgroup, css);
	r->has |= RECORD_HAS_MEMORY;
	r->memory_pages = (__u64)BPF_CORE_READ(memcg, memory.usage.counter);
	r->memory_peak_pages = BPF_CORE_READ(memcg, memory.watermark);
	r->memory_max_pages = BPF_CORE_READ(memcg, memory.max);
	r->memory_high_pages = BPF_CORE_READ(memcg, memory.high);
	r->memory_low_pages = BPF_CORE_READ(memcg, memory.low);
	r->memory_min_pages = BPF_CORE_READ(memcg, memory.min);
	read_events(memcg->memory_events_local, r->memory_events);
	read_events(memcg->memory_events, r->memory_events_tree);
	read_swap(memcg, r);
}

/* psi_group's total[PSI_AVGS][state]: what psi_show() prints, in nanoseconds. */
static __u64 pressure_total(struct psi_group *psi, int state)
{
	__u64 row = bpf_core_enum_value(enum psi_states, NR_PSI_STATES) - 1;
	__u64 avgs = bpf_core_enum_value(enum psi_aggregators, PSI_AVGS);

	return read_u64_at(psi, bpf_core_field_offset(struct psi_group, total) +
				    (avgs * row + (__u64)state) * sizeof(__u64));
}

/*
 * The totals as the last aggregation of the per-CPU times left them: a
 * read of the file aggregates first, the walk does not (it would take the
 * group's mutex), so a busy cgroup's totals can be up to one aggregation
 * period (2 s) behind its files'.
 */
static void read_pressure(struct cgroup *cgrp, struct record *r)
{
	/* the kernel's states, in the order of enum record_pressure */
	const int states[RECORD_PRESSURE_TOTALS] = {
	    bpf_core_enum_value(enum psi_states, PSI_CPU_SOME),
	    bpf_core_enum_value(enum psi_states, PSI_CPU_FULL),
	    bpf_core_enum_value(enum psi_states, PSI_MEM_SOME),
	    bpf_core_enum_value(enum psi_states, PSI_MEM_FULL),
	    bpf_core_enum_value(enum psi_states, PSI_IO_SOME),
	    bpf_core_enum_value(enum psi_states, PSI_IO_FULL),
	};
	struct psi_group *psi = cgrp->psi;

	/* none where PSI is off; the files are hidden where cgroup.pressure is 0 */
	if (!psi || !psi->enabled)
		return;
	r->has |= RECORD_HAS_PRESSURE;
	/* unrolled: 6.1's verifier refuses the loop clang makes of it */
#pragma unroll
	for (int i = 0; i < RECORD_PRESSURE_TOTALS; i++)
		r->pressure_ns[i] = pressure_total(psi, states[i]);
}

/* A field of struct hugetlb_cgroup, by its offset from the css the cgroup points at. */
#define HUGETLB_FIELD(field)                                                                       \
	(bpf_core_field_offset(struct hugetlb_cgroup, field) -                                     \
	 bpf_core_field_offset(struct hugetlb_cgroup, css))

static void read_hugetlb(struct cgroup *cgrp, struct record *r)
{
	__u64 counter_size = bpf_core_type_size(struct page_counter);
	__u64 sizes = bpf_core_field_size(struct hugetlb_cgroup, hugepage) / counter_size;
	__u64 row = bpf_core_enum_value(enum hugetlb_memory_event, HUGETLB_NR_MEMORY_EVENTS) *
		    sizeof(atomic_long_t);
	__u64 max =
	    bpf_core_enum_value(enum hugetlb_memory_event, HUGETLB_MAX) * sizeof(atomic_long_t);
	struct cgroup_subsys_state *css;

	if (!bpf_core_enum_value_exists(enum cgroup_subsys_id, hugetlb_cgrp_id))
		return;
	css = cgrp->subsys[bpf_core_enum_value(enum cgroup_subsys_id, hugetlb_cgrp_id)];
	if (!css)
		return;
	r->has |= RECORD_HAS_HUGETLB;
	for (__u64 i = 0; i < RECORD_HUGETLB_SIZES && i < sizes; i++) {
		__u64 counter = HUGETLB_FIELD(hugepage) + i * counter_size;

		r->hugetlb_pages[i] =
		    read_u64_at(css, counter + bpf_core_field_offset(struct page_counter, usage));
		r->hugetlb_max_pages[i] =
		    read_u64_at(css, counter + bpf_core_field_offset(struct page_counter, max));
		r->hugetlb_max_events[i] =
		    read_u64_at(css, HUGETLB_FIELD(events_local) + i * row + max);
	}
}

static void read_pids(struct cgroup *cgrp, struct record *r)
{
	struct cgroup_subsys_state *css =
	    cgrp->subsys[bpf_core_enum_value(enum cgroup_subsys_id, pids_cgrp_id)];
	struct pids_cgroup *pids;
	atomic64_t events = {0};

	if (!css)
		return;
	pids = container_of(css, struct pids_cgroup, css);
	r->has |= RECORD_HAS_PIDS;
	r->pids_current = (__u64)BPF_CORE_READ(pids, counter.counter);
	r->pids_max = (__u64)BPF_CORE_READ(pids, limit.counter);
	if (bpf_core_field_exists(pids->events))
		bpf_core_read(&events, sizeof(events),
			      &pids->events[bpf_core_enum_value(enum pidcg_event, PIDCG_MAX)]);
	else
		bpf_core_read(&events, sizeof(events),
			      &((struct pids_cgroup___6_1 *)pids)->events_limit);
	r->pids_events_max = (__u64)events.counter;
}

/* The waits of cgroup id's own tasks and of its removed descendants. */
static __u64 wait_of(__u64 id)
{
	__u64 sum = 0, *v;

	for (__u32 cpu = 0; cpu < nr_cpus && cpu < CPUS_MAX; cpu++) {
		v = bpf_map_lookup_percpu_elem(&waits, &id, cpu);
		if (v)
			sum += *v;
	}
	v = bpf_map_lookup_elem(&departed, &id);
	return sum + (v ? *v : 0);
}

SEC("iter.s/cgroup")
int walk(struct bpf_iter__cgroup *ctx)
{
	struct cgroup *cgrp = ctx->cgroup;
	struct kernfs_node *kn;
	struct stored *s;
	__u32 zero = 0;
	__u64 id;
	long n;

	if (!cgrp)
		return 0;
	if (ctx->meta->seq_num == 0) {
		/* the walk starts at the root: one flush brings the whole tree's CPU time in */
		cgroup_rstat_flush(cgrp);
		__sync_fetch_and_add(&walks, 1);
	}
	s = bpf_map_lookup_elem(&scratch, &zero);
	if (!s)
		return 1;
	kn = cgrp->kn;
	id = kn->id;
	__builtin_memset(&s->r, 0, sizeof(s->r));
	s->walk = walks;
	s->r.magic = RECORD_MAGIC;
	s->r.id = id;
	s->r.parent_id = kn->parent ? kn->parent->id : 0;
	s->r.level = (__u32)cgrp->level;
	/* the root has none of these files: its statistics are the whole system's */
	if (cgrp->level > 0) {
		read_cpu(cgrp, &s->r);
		read_memory(cgrp, &s->r);
		read_pids(cgrp, &s->r);
		read_pressure(cgrp, &s->r);
		read_hugetlb(cgrp, &s->r);
	}
	if (wait_tracking && cgrp->level > 0) {
		s->r.has |= RECORD_HAS_WAIT;
		s->r.wait_ns = wait_of(id);
	}
	n = bpf_probe_read_kernel_str(s->name, sizeof(s->name), kn->name);
	s->r.name_len = n > 0 ? (__u16)(n - 1) : 0;
	bpf_map_update_elem(&records, &id, s, BPF_ANY);
	return 0;
}

SEC("iter/bpf_map_elem")
int dump(struct bpf_iter__bpf_map_elem *ctx)
{
	struct stored *s = ctx->value;
	__u64 pad = 0;
	__u32 len;

	if (!s || s->walk != walks)
		return 0;
	len = s->r.name_len & RECORD_NAME_MAX;
	bpf_seq_write(ctx->meta->seq, &s->r, sizeof(s->r));
	bpf_seq_write(ctx->meta->seq, s->name, len);
	if (RECORD_SIZE(len) - sizeof(s->r) - len)
		bpf_seq_write(ctx->meta->seq, &pad, (RECORD_SIZE(len) - sizeof(s->r) - len) & 7);
	return 0;
}

SEC("tp_btf/cgroup_rmdir")
int BPF_PROG(forget, struct cgroup *cgrp, const char *path)
{
	__u64 id = cgrp->kn->id, parent, total, *v;
	struct kernfs_node *up = cgrp->kn->parent;

	bpf_map_delete_elem(&records, &id);
	if (!wait_tracking)
		return 0;
	/* a cgroup without children is the only kind rmdir removes */
	total = wait_of(id);
	bpf_map_delete_elem(&waits, &id);
	bpf_map_delete_elem(&departed, &id);
	if (!up || !total)
		return 0;
	parent = up->id;
	v = bpf_map_lookup_elem(&departed, &parent);
	if (v)
		__sync_fetch_and_add(v, total);
	else
		bpf_map_update_elem(&departed, &parent, &total, BPF_NOEXIST);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(switched, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	__u64 queued = next->sched_info.last_queued, id, wait, total, delta, *seen, *v;
	struct rq *rq;

	if (!queued)
		return 0;
	rq = bpf_this_cpu_ptr(&runqueues);
	wait = rq->clock - queued;
	total = next->sched_info.run_delay + wait;
	seen = bpf_task_storage_get(&counted, next, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!seen)
		return 0;
	/* a task first seen: its waits before the program came are not the cgroup's */
	delta = *seen ? total - *seen : wait;
	*seen = total;
	/* loads the verifier checks, not helper calls: this runs at every switch */
	id = next->cgroups->dfl_cgrp->kn->id;
	v = bpf_map_lookup_elem(&waits, &id);
	/* the first wait of a cgroup makes its entry, unless another CPU just did */
	if (!v && bpf_map_update_elem(&waits, &id, &delta, BPF_NOEXIST) == 0)
		return 0;
	if (!v)
		v = bpf_map_lookup_elem(&waits, &id);
	if (v)
		*v += delta;
	return 0;
}
