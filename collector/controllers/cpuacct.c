/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpuacct (v1 only; kernel/sched/cpuacct.c). usage/usage_percpu are exact
 * nanoseconds. User/system come from cpuacct.stat, which the kernel scales
 * with cputime_adjust() so that user + system ~ usage, the same treatment
 * v2's user_usec/system_usec get; the tick-sampled usage_user/usage_sys are
 * the fallback when stat is missing. cpuacct.load is our kernel patch: the
 * percentage of one CPU used in the last complete 10 s interval.
 */
#include <errno.h>
#include <stdlib.h>

#include "base/clock.h"
#include "base/strbuf.h"
#include "base/util.h"
#include "collector/controllers/controller.h"
#include "collector/controllers/cpuacct.h"
#include "collector/parse.h"

/* "cpu user system\n0 U S\n1 U S\n..." (cpuacct_all_seq_show). */
int parse_usage_all(const char *buf, size_t len, uint64_t **ret, size_t *ret_n)
{
	struct span rest = span_make(buf, len), line, w[3];
	_cleanup_free_ uint64_t *v = NULL;
	size_t n = 0;

	if (!span_next_line(&rest, &line) || !span_next_word(&line, &w[0]) ||
	    !span_next_word(&line, &w[1]) || !span_next_word(&line, &w[2]) ||
	    !span_eq(w[0], "cpu") || !span_eq(w[1], "user") || !span_eq(w[2], "system"))
		return -EBADMSG;

	while (span_next_line(&rest, &line)) {
		uint64_t *row;
		struct span extra;
		uint64_t cpu;

		if (!span_next_word(&line, &w[0]))
			continue;
		if (!span_next_word(&line, &w[1]) || !span_next_word(&line, &w[2]) ||
		    span_next_word(&line, &extra))
			return -EBADMSG;
		/* rows come in CPU order; a gap would misattribute every later CPU */
		if (parse_u64(w[0], &cpu) < 0 || cpu != n)
			return -EBADMSG;
		/* grow at powers of two: n is then exactly the old capacity */
		if ((n & (n - 1)) == 0) {
			uint64_t *bigger =
			    realloc(v, (n ? 2 * n : 1) * USAGE_ALL_COLUMNS * sizeof(*v));

			if (!bigger)
				return -ENOMEM;
			v = bigger;
		}
		row = &v[n * USAGE_ALL_COLUMNS];
		if (parse_u64(w[1], &row[USAGE_ALL_USER]) < 0 ||
		    parse_u64(w[2], &row[USAGE_ALL_SYSTEM]) < 0)
			return -EBADMSG;
		n++;
	}
	*ret = TAKE_PTR(v);
	*ret_n = n;
	return 0;
}

/*
 * The per-CPU files: a row of numbers per CPU, in CPU order, each column
 * the sample of one metric, labelled with the CPU's number.
 */
struct per_cpu_file {
	const char *file;
	int (*parse)(const char *buf, size_t len, uint64_t **ret, size_t *ret_n);
	size_t n_columns;
	enum metric metrics[USAGE_ALL_COLUMNS]; /* per column; usage_all has the most */
};

static const struct per_cpu_file per_cpu_files[] = {
    {"cpuacct.usage_percpu", parse_u64_list, 1, {METRIC_CPU_USAGE_PER_CPU}},
    {"cpuacct.usage_all",
     parse_usage_all,
     USAGE_ALL_COLUMNS,
     {[USAGE_ALL_USER] = METRIC_CPU_USER_PER_CPU, [USAGE_ALL_SYSTEM] = METRIC_CPU_SYSTEM_PER_CPU}},
};

static int read_per_cpu(const struct reader_ctx *c, const struct per_cpu_file *f)
{
	_cleanup_free_ uint64_t *v = NULL;
	const char *buf;
	size_t len, n;
	int r;

	r = reader_read(c, f->file, &buf, &len);
	if (r <= 0)
		return r;
	r = f->parse(buf, len, &v, &n);
	for (size_t cpu = 0; r >= 0 && cpu < n; cpu++) {
		char label[24];

		*format_u64(label, cpu) = '\0';
		for (size_t k = 0; r >= 0 && k < f->n_columns; k++)
			r = reader_emit(c, f->metrics[k], label, v[cpu * f->n_columns + k], 1);
	}
	return r;
}

static const struct file_metric cpuacct_files[] = {
    {"cpuacct.usage", METRIC_CPU_USAGE, VALUE_COUNT, 0},
    {"cpuacct.load", METRIC_CPU_LOAD, VALUE_COUNT, 0},
};

static const struct file_metric cpuacct_tick_files[] = {
    {"cpuacct.usage_user", METRIC_CPU_USER, VALUE_COUNT, 0},
    {"cpuacct.usage_sys", METRIC_CPU_SYSTEM, VALUE_COUNT, 0},
};

static int cpuacct_read_v1(const struct reader_ctx *c)
{
	enum { USER, SYSTEM };
	/* cpuacct.stat counts USER_HZ ticks; the scale makes them nanoseconds */
	const uint64_t tick_ns = c->clock_ticks > 0 ? NSEC_PER_SEC / (uint64_t)c->clock_ticks : 0;
	const struct key_metric stat_keys[] = {
	    [USER] = {"user", METRIC_CPU_USER, NULL, tick_ns},
	    [SYSTEM] = {"system", METRIC_CPU_SYSTEM, NULL, tick_ns},
	};
	uint64_t found = 0;
	int r;

	r = read_file_metrics(c, cpuacct_files, ELEMENTSOF(cpuacct_files));
	if (r >= 0 && tick_ns > 0)
		r = read_keyed_file(c, "cpuacct.stat", stat_keys, ELEMENTSOF(stat_keys), NULL,
				    &found);
	if (r >= 0 && found != ((1u << USER) | (1u << SYSTEM)))
		r = read_file_metrics(c, cpuacct_tick_files, ELEMENTSOF(cpuacct_tick_files));
	for (size_t i = 0; r >= 0 && c->per_cpu && i < ELEMENTSOF(per_cpu_files); i++)
		r = read_per_cpu(c, &per_cpu_files[i]);
	return r;
}

const struct controller_reader reader_cpuacct = {
    .read_v1 = cpuacct_read_v1,
};
