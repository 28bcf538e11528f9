/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Building and freezing a snapshot. Cgroups arrive one per (hierarchy,
 * cgroup) in walk order, and those of one path share a record, because on
 * v1 "/a" in the cpu hierarchy and "/a" in the memory hierarchy are what
 * users think of as one cgroup. Finalize orders each record's samples by
 * metric and the records by path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "model/snapshot.h"

static int record_add_label(struct cgroup_record *r, const char *label, uint16_t *ret)
{
	size_t n = strlen(label) + 1;
	int e;

	if (n > LABEL_MAX)
		return -ENAMETOOLONG;
	if (r->labels_len + n > SAMPLE_NO_LABEL)
		return -E2BIG;
	e = array_grow((void **)&r->labels, &r->labels_cap, r->labels_len + n, 1, 256);
	if (e < 0)
		return e;
	memcpy(r->labels + r->labels_len, label, n);
	*ret = (uint16_t)r->labels_len;
	r->labels_len += n;
	return 0;
}

int record_add_slow(struct cgroup_record *r, enum metric m, const char *label, uint64_t value)
{
	uint16_t offset = SAMPLE_NO_LABEL;
	int e;

	e = array_grow((void **)&r->samples, &r->cap, r->n_samples + 1, sizeof(*r->samples), 32);
	if (e >= 0 && label)
		e = record_add_label(r, label, &offset);
	if (e < 0)
		return e;
	r->samples[r->n_samples++] =
	    (struct sample){.value = value, .metric = (uint16_t)m, .label = offset};
	return 0;
}

const char *sample_label(const struct cgroup_record *r, const struct sample *s)
{
	return s->label == SAMPLE_NO_LABEL ? "" : r->labels + s->label;
}

void record_done(struct cgroup_record *r)
{
	free(r->path);
	free(r->samples);
	free(r->labels);
	*r = (struct cgroup_record){0};
}

/* FNV-1a: paths differ mostly in their last bytes, which it mixes in last. */
static uint64_t path_hash(const char *path)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (; *path; path++)
		h = (h ^ (unsigned char)*path) * UINT64_C(1099511628211);
	return h;
}

/* The slot of path: its record's, or the empty one where it would go. */
static size_t path_slot(const struct snapshot *s, const char *path, uint64_t h)
{
	size_t mask = s->n_slots - 1, i = (size_t)h & mask;

	for (; s->slots[i]; i = (i + 1) & mask)
		if (strcmp(s->records[s->slots[i] - 1].path, path) == 0)
			break;
	return i;
}

/* Keeps the index at most half full, so a probe ends after a slot or two. */
static int path_index_grow(struct snapshot *s)
{
	size_t n = s->n_slots ? s->n_slots * 2 : 1024;
	uint32_t *old = s->slots;
	size_t n_old = s->n_slots;

	if (2 * (s->n_records + 1) <= s->n_slots)
		return 0;
	if (n > UINT32_MAX)
		return -E2BIG;
	s->slots = calloc(n, sizeof(*s->slots));
	if (!s->slots) {
		s->slots = old;
		return -ENOMEM;
	}
	s->n_slots = n;
	for (size_t i = 0; i < n_old; i++)
		if (old[i]) {
			size_t j = (size_t)path_hash(s->records[old[i] - 1].path) & (n - 1);

			while (s->slots[j])
				j = (j + 1) & (n - 1);
			s->slots[j] = old[i];
		}
	free(old);
	return 0;
}

/* Copies n items of size bytes to the end of *p, which holds len of them, at the exact size. */
static int append_exact(void **p, size_t len, const void *src, size_t n, size_t size)
{
	void *bigger;

	if (n == 0)
		return 0;
	bigger = realloc(*p, (len + n) * size);
	if (!bigger)
		return -ENOMEM;
	memcpy((char *)bigger + len * size, src, n * size);
	*p = bigger;
	return 0;
}

/*
 * A second hierarchy's samples for a path already taken: appended, labels
 * moved along. Growing at the exact size copies the record once per
 * hierarchy; setting the parts aside in chunks until finalize copies less
 * but raises the peak RSS, as chunks and folded records meet at the end
 * (tests/bench/README.md has the figures).
 */
static int record_append(struct cgroup_record *dst, const struct cgroup_record *src)
{
	size_t n = dst->n_samples;
	uint16_t shift = (uint16_t)dst->labels_len;
	int r;

	if (dst->labels_len + src->labels_len > SAMPLE_NO_LABEL)
		return -E2BIG;
	r = append_exact((void **)&dst->samples, n, src->samples, src->n_samples,
			 sizeof(*src->samples));
	if (r < 0)
		return r;
	dst->n_samples = dst->cap = n + src->n_samples;
	for (size_t i = n; i < dst->n_samples; i++)
		if (dst->samples[i].label != SAMPLE_NO_LABEL)
			dst->samples[i].label = (uint16_t)(dst->samples[i].label + shift);
	r = append_exact((void **)&dst->labels, dst->labels_len, src->labels, src->labels_len, 1);
	if (r < 0)
		return r;
	dst->labels_len = dst->labels_cap = dst->labels_len + src->labels_len;
	dst->merged = true;
	return 0;
}

/*
 * Files r's samples and labels under path at their exact size, leaving r's
 * buffers for the next cgroup: the collection reads every cgroup into one
 * scratch record, so a record costs two exact allocations and no growth
 * along the way. On v1 the same path comes once per hierarchy; the path
 * index finds the record it joins.
 */
int snapshot_take_record(struct snapshot *s, const char *path, struct cgroup_record *r)
{
	_cleanup_free_ struct sample *samples = NULL;
	_cleanup_free_ char *labels = NULL, *copy = NULL;
	uint64_t h = path_hash(path);
	size_t slot;
	int e;

	assert(!s->finalized);
	e = path_index_grow(s);
	if (e < 0)
		return e;
	slot = path_slot(s, path, h);
	if (s->slots[slot]) {
		e = record_append(&s->records[s->slots[slot] - 1], r);
		goto out;
	}
	e = array_grow((void **)&s->records, &s->cap, s->n_records + 1, sizeof(*s->records), 64);
	if (e < 0)
		return e;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	e = append_exact((void **)&samples, 0, r->samples, r->n_samples, sizeof(*samples));
	if (e >= 0)
		e = append_exact((void **)&labels, 0, r->labels, r->labels_len, 1);
	if (e < 0)
		return e;
	s->records[s->n_records] = (struct cgroup_record){.path = TAKE_PTR(copy),
							  .samples = TAKE_PTR(samples),
							  .n_samples = r->n_samples,
							  .cap = r->n_samples,
							  .labels = TAKE_PTR(labels),
							  .labels_len = r->labels_len,
							  .labels_cap = r->labels_len};
	s->slots[slot] = (uint32_t)++s->n_records;
out:
	r->n_samples = 0;
	r->labels_len = 0;
	return e;
}

static int record_cmp(const void *a, const void *b)
{
	const struct cgroup_record *x = a, *y = b;

	return strcmp(x->path, y->path);
}

/*
 * Orders samples by metric, keeping insertion order within one metric (per-CPU
 * and per-device series stay in kernel order). Readers emit nearly in metric
 * order, so an insertion sort is about linear here, where qsort was a large
 * part of a collection.
 */
static void record_sort(struct cgroup_record *r)
{
	for (size_t i = 1; i < r->n_samples; i++) {
		struct sample s = r->samples[i];
		size_t j = i;

		for (; j > 0 && r->samples[j - 1].metric > s.metric; j--)
			r->samples[j] = r->samples[j - 1];
		r->samples[j] = s;
	}
}

/*
 * Keeps the first of several samples with the same metric and label. They
 * arise in hybrid mode, where the unified hierarchy's core cpu.stat repeats
 * what the v1 cpuacct hierarchy reports; hierarchies are collected v1 first,
 * so the value from the hierarchy that has the controller bound wins.
 * A duplicated series would make the whole scrape undefined for Prometheus.
 * Only merged records can have them. Runs of one metric are short (events,
 * devices, CPUs), so each sample is compared with the run before it.
 */
static void record_dedup(struct cgroup_record *r)
{
	size_t out = 0, run = 0;

	for (size_t i = 0; i < r->n_samples; i++) {
		const struct sample *s = &r->samples[i];
		bool dup = false;

		/* most metrics have one sample: nothing to compare */
		if (out == 0 || r->samples[out - 1].metric != s->metric) {
			r->samples[out++] = *s;
			run = out - 1;
			continue;
		}
		for (size_t j = run; j < out && !dup; j++)
			dup = r->samples[j].label == s->label ||
			      strcmp(sample_label(r, &r->samples[j]), sample_label(r, s)) == 0;
		if (!dup)
			r->samples[out++] = *s;
	}
	r->n_samples = out;
}

/*
 * Orders a merged record (v1: one run of samples per hierarchy, in
 * collection order) by metric, and within a metric by hierarchy then
 * insertion: what a stable sort gives. Metrics are a small range, so one
 * counting pass places every sample, through scratch shared by all records;
 * an insertion sort would move whole runs, each past all the others.
 */
static int record_fold(struct cgroup_record *r, struct sample **scratch, size_t *scratch_cap)
{
	size_t at[_METRIC_MAX + 1] = {0};
	int e;

	e = array_grow((void **)scratch, scratch_cap, r->n_samples, sizeof(**scratch), 256);
	if (e < 0)
		return e;
	for (size_t i = 0; i < r->n_samples; i++)
		at[r->samples[i].metric + 1]++;
	for (size_t m = 1; m <= _METRIC_MAX; m++)
		at[m] += at[m - 1];
	for (size_t i = 0; i < r->n_samples; i++)
		(*scratch)[at[r->samples[i].metric]++] = r->samples[i];
	memcpy(r->samples, *scratch, r->n_samples * sizeof(*r->samples));
	record_dedup(r);
	return 0;
}

int snapshot_finalize(struct snapshot *s)
{
	_cleanup_free_ struct sample *scratch = NULL;
	size_t scratch_cap = 0;

	assert(!s->finalized);
	free(s->slots);
	s->slots = NULL;
	s->n_slots = 0;
	for (size_t i = 0; i < s->n_records; i++) {
		struct cgroup_record *r = &s->records[i];

		if (!r->merged)
			record_sort(r);
		else if (record_fold(r, &scratch, &scratch_cap) < 0)
			return -ENOMEM;
	}
	/* paths are unique now: any sort gives the one order (no records: no array) */
	if (s->n_records > 1)
		qsort(s->records, s->n_records, sizeof(*s->records), record_cmp);
	s->finalized = true;
	return 0;
}

const struct block_device *snapshot_device(const struct snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->n_devices; i++)
		if (strcmp(s->devices[i].name, name) == 0)
			return &s->devices[i];
	return NULL;
}

void root_problems_free(struct root_problem *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
	free(v);
}

void snapshot_free(struct snapshot *s)
{
	for (size_t i = 0; i < s->n_records; i++)
		record_done(&s->records[i]);
	free(s->records);
	free(s->collectors);
	free(s->hierarchies);
	free(s->slots);
	free(s->devices);
	for (size_t i = 0; i < s->n_containers; i++) {
		free(s->containers[i].name);
		free(s->containers[i].image);
	}
	free(s->containers);
	for (size_t i = 0; i < s->n_runtimes; i++)
		free(s->runtimes[i].socket);
	free(s->runtimes);
	root_problems_free(s->bad_roots, s->n_bad_roots);
	*s = (struct snapshot){0};
}

const char *snapshot_bpf_problem(int error)
{
	switch (error) {
	case -ENOENT:
		return "holds no BPF reader (is cgacct-bpf.service running?)";
	case -EACCES:
	case -EPERM:
		return "may not be read (cgacctd needs the cgacct group)";
	case -EBADMSG:
		return "holds records of another cgacct version";
	case -EMEDIUMTYPE:
		return "is not used: there is no cgroup v2 hierarchy";
	default:
		return strerror(-error);
	}
}
