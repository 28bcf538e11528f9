/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * naming: cadvisor. The same snapshot under cAdvisor's metric and label
 * names (../shared/research/peers.md §2), so dashboards and alert rules
 * written for cAdvisor work unchanged: every series carries id (the cgroup
 * path), and name and image empty, as cAdvisor gives raw cgroups. One row
 * of cadvisor_families per cAdvisor family and source metric; metrics
 * without a cAdvisor family are left out.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exporter/render.h"

struct label_pair {
	const char *name;
	const char *value;
};

struct cadvisor_family {
	const char *name; /* the sample name, as cAdvisor spells it */
	const char *help; /* NULL in a family's later rows: the first row's serves */
	enum family_type type;
	enum metric source;
	uint64_t divisor;	    /* as in families.h: stored value / divisor, 0 means 1 */
	const char *label;	    /* name for the source sample's label, or NULL */
	const char *label_prefix;   /* put before a label value that is a name ("/dev/" + "sda") */
	struct label_pair fixed[2]; /* labels with constant values (cpu="total"); name NULL: none */
	bool needs_quota;	    /* cAdvisor has CFS statistics only for groups with a quota */
	bool working_set;	    /* the value minus the record's inactive_file, floored at 0 */
};

extern const struct cadvisor_family cadvisor_families[];
extern const size_t n_cadvisor_families;

/* The series a cgroup has in cAdvisor naming, for the max_series cap. */
size_t cadvisor_record_series(const struct cgroup_record *r);

/* Rows [first, end) share a name: one family, headed by its first row. */
size_t cadvisor_family_end(size_t first);
/* The family's series of records [from, to); *header says whether its header is out. */
void cadvisor_render_family(struct strbuf *b, enum render_format f, const struct snapshot *s,
			    size_t from, size_t to, size_t first, size_t end, bool *header);
