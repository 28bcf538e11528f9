/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * naming: cadvisor. The same snapshot under cAdvisor's metric and label
 * names, types, units and label values (google/cadvisor,
 * lib/metrics/prometheus.go), for the queries written for cAdvisor: every
 * series carries id (the cgroup path), and name and image: the container's
 * as its runtime gives them (container_runtime_sockets), empty otherwise,
 * as cAdvisor gives raw cgroups. One row per cAdvisor family and source
 * metric; metrics without a cAdvisor family are left out. Where cgacct
 * differs, cgacctd.yml(5) lists it and why.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exporter/naming.h"
#include "model/metric.h"

struct label_pair {
	const char *name;
	const char *value;
};

/* How a row shows its source sample's label value. */
enum cadvisor_label_form {
	LABEL_AS_IS,
	LABEL_DEVICE,	      /* "sda" as "/dev/sda"; "8:0", a device without a name, as it is */
	LABEL_DEVICE_NUMBERS, /* the same, and the device's major and minor labels */
	LABEL_CPU,	      /* CPU 3 as "cpu03" */
};

struct cadvisor_row {
	const char *name; /* the sample name, as cAdvisor spells it */
	const char *help; /* NULL in a family's later rows: the first row's serves */
	enum family_type type;
	enum metric source;
	uint64_t divisor;  /* as in native.h: stored value / divisor, 0 means 1 */
	const char *label; /* name for the source sample's label, or NULL */
	enum cadvisor_label_form form;
	struct label_pair fixed[2]; /* labels with constant values (cpu="total"); name NULL: none */
	bool needs_quota;	    /* cAdvisor has CFS statistics only for groups with a quota */
	bool without_per_cpu;	    /* only for groups without per-CPU usage */
	bool skip_zero;		    /* cAdvisor leaves out CPU usage of 0 */
	bool working_set;	    /* the value minus the record's inactive_file, floored at 0 */
	bool shares;		    /* a v2 weight as cAdvisor converts it to shares */
	bool root_usage;	    /* v2's root has no memory.current: anon + file there */
	/*
	 * In a family's first row: a group that has none of the family's
	 * samples but has one of metric `controlled` (the controller is on for
	 * it) gets a 0, which is how cAdvisor shows a limit that is "max".
	 */
	bool unlimited_as_zero;
	enum metric controlled;
};

/* cadvisor_naming.n_rows of them */
extern const struct cadvisor_row cadvisor_rows[];
extern const struct naming cadvisor_naming;
