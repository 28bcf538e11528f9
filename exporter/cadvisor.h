/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * naming: cadvisor. The same snapshot under cAdvisor's metric and label
 * names (google/cadvisor, metrics/prometheus.go), so dashboards and alert
 * rules written for cAdvisor work unchanged: every series carries id (the
 * cgroup path), and name and image empty, as cAdvisor gives raw cgroups.
 * One row per cAdvisor family and source metric; metrics without a cAdvisor
 * family are left out.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exporter/model/metric.h"
#include "exporter/naming.h"

struct label_pair {
	const char *name;
	const char *value;
};

struct cadvisor_row {
	const char *name; /* the sample name, as cAdvisor spells it */
	const char *help; /* NULL in a family's later rows: the first row's serves */
	enum family_type type;
	enum metric source;
	uint64_t divisor;	    /* as in native.h: stored value / divisor, 0 means 1 */
	const char *label;	    /* name for the source sample's label, or NULL */
	const char *label_prefix;   /* put before a label value that is a name ("/dev/" + "sda") */
	struct label_pair fixed[2]; /* labels with constant values (cpu="total"); name NULL: none */
	bool needs_quota;	    /* cAdvisor has CFS statistics only for groups with a quota */
	bool working_set;	    /* the value minus the record's inactive_file, floored at 0 */
};

/* cadvisor_naming.n_rows of them */
extern const struct cadvisor_row cadvisor_rows[];
extern const struct naming cadvisor_naming;
