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

int record_add(struct cgroup_record *r, enum metric m, const char *label, uint64_t value)
{
	struct sample *s;

	if (label && strlen(label) >= LABEL_MAX)
		return -ENAMETOOLONG;
	if (r->n_samples == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct sample *bigger = realloc(r->samples, cap * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		r->samples = bigger;
		r->cap = cap;
	}
	s = &r->samples[r->n_samples];
	*s =
	    (struct sample){.value = value, .order = (uint32_t)r->n_samples, .metric = (uint16_t)m};
	if (label)
		strcpy(s->label, label);
	r->n_samples++;
	return 0;
}

void record_done(struct cgroup_record *r)
{
	free(r->path);
	free(r->samples);
	*r = (struct cgroup_record){0};
}

int snapshot_take_record(struct snapshot *s, struct cgroup_record *r)
{
	if (s->n_records == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct cgroup_record *bigger = realloc(s->records, cap * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		s->records = bigger;
		s->cap = cap;
	}
	s->records[s->n_records++] = *r;
	*r = (struct cgroup_record){0};
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

static int sample_cmp_label(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;
	int c;

	if (x->metric != y->metric)
		return x->metric < y->metric ? -1 : 1;
	c = strcmp(x->label, y->label);
	if (c != 0)
		return c;
	return (x->order > y->order) - (x->order < y->order);
}

static int sample_cmp_order(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;

	if (x->metric != y->metric)
		return x->metric < y->metric ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

/*
 * Keeps the first of several samples with the same metric and label. They
 * arise in hybrid mode, where the unified hierarchy's core cpu.stat repeats
 * what the v1 cpuacct hierarchy reports; hierarchies are collected v1 first,
 * so the value from the hierarchy that has the controller bound wins.
 * A duplicated series would make the whole scrape undefined for Prometheus.
 */
static void record_dedup(struct cgroup_record *r)
{
	size_t out = 0;

	qsort(r->samples, r->n_samples, sizeof(*r->samples), sample_cmp_label);
	for (size_t i = 0; i < r->n_samples; i++) {
		if (out > 0 && r->samples[out - 1].metric == r->samples[i].metric &&
		    strcmp(r->samples[out - 1].label, r->samples[i].label) == 0)
			continue;
		r->samples[out++] = r->samples[i];
	}
	r->n_samples = out;
}

/* Appends src's samples to dst, ordered after dst's own. */
static int record_absorb(struct cgroup_record *dst, struct cgroup_record *src)
{
	for (size_t i = 0; i < src->n_samples; i++) {
		const struct sample *s = &src->samples[i];
		int r = record_add(dst, s->metric, s->label, s->value);

		if (r < 0)
			return r;
	}
	record_done(src);
	return 0;
}

int snapshot_finalize(struct snapshot *s)
{
	size_t out = 0;

	qsort(s->records, s->n_records, sizeof(*s->records), record_cmp);
	for (size_t i = 0; i < s->n_records; i++) {
		if (out > 0 && strcmp(s->records[out - 1].path, s->records[i].path) == 0) {
			int r = record_absorb(&s->records[out - 1], &s->records[i]);

			if (r < 0)
				return r;
			continue;
		}
		/* Move, never copy: a failed finalize must leave no record owned twice. */
		if (out != i) {
			s->records[out] = s->records[i];
			s->records[i] = (struct cgroup_record){0};
		}
		out++;
	}
	s->n_records = out;

	for (size_t i = 0; i < s->n_records; i++) {
		struct cgroup_record *r = &s->records[i];

		record_dedup(r);
		qsort(r->samples, r->n_samples, sizeof(*r->samples), sample_cmp_order);
	}
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
