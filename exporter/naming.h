/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A naming: how the snapshot's metrics are presented to Prometheus, as a
 * table of rows. A row is one source metric under one name; adjacent rows
 * with the same name are one family (native cgroup_info has a serial and an
 * ino row, cAdvisor's container_memory_failures_total a pgfault and a
 * pgmajfault row), headed by its first row. render.c walks families and
 * records and caps series; a naming only writes the lines, with
 * textformat.h. native.c and cadvisor.c are the two.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "base/strbuf.h"
#include "exporter/textformat.h"
#include "model/snapshot.h"

/* A record's cgroup path as a label value: escaped once per stream, not once per series. */
struct label_text {
	const char *text;
	size_t len;
	char *owned; /* text, when escaping changed the path */
};

/* The family being written, across the steps render.c takes through the records. */
struct family_writer {
	const struct snapshot *s;
	struct strbuf *b;
	enum render_format format;
	size_t first, end; /* the family's rows */
	bool header;	   /* its "# HELP" and "# TYPE" are out */
};

/*
 * A family is left out entirely when no record has a series of it: its
 * header goes out before its first series, the naming calls this before
 * each.
 */
static inline void family_writer_header(struct family_writer *w, const char *name, const char *help,
					enum family_type type)
{
	if (w->header)
		return;
	textformat_header(w->b, w->format, name, help, type);
	w->header = true;
}

struct naming {
	size_t n_rows;
	/* Row k's name: the sample name, with the suffix its type demands. */
	const char *(*row_name)(size_t k);
	/* The series r has in this naming, for the max_series cap. */
	size_t (*record_series)(const struct cgroup_record *r);
	/*
	 * The series of family w of records[0, n), whose cgroup label values
	 * are paths[0, n). Families come in row order, and each record's
	 * cursor, 0 at first, is the naming's to keep its place in the
	 * record's samples from one family to the next.
	 */
	void (*family_series)(struct family_writer *w, const struct cgroup_record *records,
			      const struct label_text *paths, size_t *cursor, size_t n);
};

/* Rows [first, returned end) share a name: one family. */
static inline size_t naming_family_end(const struct naming *n, size_t first)
{
	const char *name = n->row_name(first);
	size_t end = first + 1;

	while (end < n->n_rows && strcmp(n->row_name(end), name) == 0)
		end++;
	return end;
}
