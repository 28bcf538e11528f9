/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Building and freezing a snapshot. Records arrive one per (hierarchy,
 * cgroup) in walk order; finalize sorts them by path and folds records of the
 * same path into one, because on v1 "/a" in the cpu hierarchy and "/a" in
 * the memory hierarchy are what users think of as one cgroup.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "snapshot.h"
#include "util.h"

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

/*
 * Moves r's path into the snapshot and copies its samples and labels at
 * their exact size, leaving r's buffers for the next cgroup: the collection
 * reads every cgroup into one scratch record, so a record costs two exact
 * allocations and no growth along the way.
 */
int snapshot_take_record(struct snapshot *s, struct cgroup_record *r)
{
	_cleanup_free_ struct sample *samples = NULL;
	_cleanup_free_ char *labels = NULL;
	struct cgroup_record *dst;

	if (s->n_records == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct cgroup_record *bigger = realloc(s->records, cap * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		s->records = bigger;
		s->cap = cap;
	}
	if (r->n_samples > 0) {
		samples = malloc(r->n_samples * sizeof(*samples));
		if (!samples)
			return -ENOMEM;
		memcpy(samples, r->samples, r->n_samples * sizeof(*samples));
	}
	if (r->labels_len > 0) {
		labels = malloc(r->labels_len);
		if (!labels)
			return -ENOMEM;
		memcpy(labels, r->labels, r->labels_len);
	}
	dst = &s->records[s->n_records++];
	*dst = (struct cgroup_record){.path = r->path,
				      .hierarchy = r->hierarchy,
				      .samples = TAKE_PTR(samples),
				      .n_samples = r->n_samples,
				      .cap = r->n_samples,
				      .labels = TAKE_PTR(labels),
				      .labels_len = r->labels_len,
				      .labels_cap = r->labels_len};
	r->path = NULL;
	r->n_samples = 0;
	r->labels_len = 0;
	return 0;
}

static int record_cmp(const void *a, const void *b)
{
	const struct cgroup_record *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c != 0)
		return c;
	return (x->hierarchy > y->hierarchy) - (x->hierarchy < y->hierarchy);
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
		bool dup = false;

		if (out == 0 || r->samples[out - 1].metric != r->samples[i].metric)
			run = out;
		for (size_t j = run; j < out && !dup; j++)
			dup = strcmp(sample_label(r, &r->samples[j]),
				     sample_label(r, &r->samples[i])) == 0;
		if (!dup)
			r->samples[out++] = r->samples[i];
	}
	r->n_samples = out;
}

/*
 * Folds the records of one path (v1: one per hierarchy) into g[0], ordered
 * by metric and, within a metric, by record then insertion: what a stable
 * sort of their concatenation gives. Metrics are a small range, so one
 * counting pass places every sample; sorting and merging record by record
 * cost more than the whole parse.
 */
static int record_fold(struct cgroup_record *g, size_t n)
{
	size_t at[_METRIC_MAX + 1] = {0}, total = 0, labels_len = 0, offset = 0;
	_cleanup_free_ struct sample *samples = NULL;
	_cleanup_free_ char *labels = NULL;

	for (size_t k = 0; k < n; k++) {
		total += g[k].n_samples;
		labels_len += g[k].labels_len;
		for (size_t i = 0; i < g[k].n_samples; i++)
			at[g[k].samples[i].metric + 1]++;
	}
	if (labels_len > SAMPLE_NO_LABEL)
		return -E2BIG;
	samples = malloc((total ? total : 1) * sizeof(*samples));
	labels = malloc(labels_len ? labels_len : 1);
	if (!samples || !labels)
		return -ENOMEM;
	for (size_t m = 1; m <= _METRIC_MAX; m++)
		at[m] += at[m - 1];
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < g[k].n_samples; i++) {
			struct sample sm = g[k].samples[i];

			if (sm.label != SAMPLE_NO_LABEL)
				sm.label = (uint16_t)(sm.label + offset);
			samples[at[sm.metric]++] = sm;
		}
		if (g[k].labels_len > 0)
			memcpy(labels + offset, g[k].labels, g[k].labels_len);
		offset += g[k].labels_len;
	}
	free(g[0].samples);
	free(g[0].labels);
	g[0].samples = TAKE_PTR(samples);
	g[0].n_samples = g[0].cap = total;
	g[0].labels = TAKE_PTR(labels);
	g[0].labels_len = g[0].labels_cap = labels_len;
	for (size_t k = 1; k < n; k++)
		record_done(&g[k]);
	return 0;
}

int snapshot_finalize(struct snapshot *s)
{
	size_t out = 0;

	qsort(s->records, s->n_records, sizeof(*s->records), record_cmp);
	for (size_t i = 0, end; i < s->n_records; i = end) {
		for (end = i + 1;
		     end < s->n_records && strcmp(s->records[i].path, s->records[end].path) == 0;
		     end++)
			;
		if (end - i == 1)
			record_sort(&s->records[i]);
		else {
			int r = record_fold(&s->records[i], end - i);

			if (r < 0)
				return r;
			record_dedup(&s->records[i]);
		}
		/* Move, never copy: a failed finalize must leave no record owned twice. */
		if (out != i) {
			s->records[out] = s->records[i];
			s->records[i] = (struct cgroup_record){0};
		}
		out++;
	}
	/* Past out lie only records moved from or folded away: nothing to free. */
	s->n_records = out;
	return 0;
}

void snapshot_free(struct snapshot *s)
{
	for (size_t i = 0; i < s->n_records; i++)
		record_done(&s->records[i]);
	free(s->records);
	free(s->collectors);
	free(s->hierarchies);
	*s = (struct snapshot){0};
}
