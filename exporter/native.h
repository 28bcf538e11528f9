/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How each metric is presented to Prometheus: family name, HELP, TYPE, the
 * name of its extra label and the divisor from the stored integer unit
 * (daemon/metric.h) to the base unit.
 */
#pragma once

#include <stdint.h>

#include "exporter/model/metric.h"

enum family_type {
	FAMILY_GAUGE,
	FAMILY_COUNTER,
	FAMILY_INFO,	/* a gauge of 1 whose labels carry the information */
	FAMILY_UNTYPED, /* no type claimed: for foreign names a type would make lint fail */
};

struct family {
	const char *name; /* the sample name, with _total or _info as the type demands */
	const char *help;
	enum family_type type;
	const char *label;	/* name of the sample's label, or NULL */
	uint64_t divisor;	/* stored value / divisor = exported value; 0 means 1 */
	const char *info_label; /* info metrics: the value becomes this label, sample is 1 */
};

extern const struct family families[_METRIC_MAX];

/* The longest label and info_label names of a family, together (test-render checks). */
#define FAMILY_LABEL_NAMES_MAX 32

/*
 * The suffix a type's sample names carry: "_total", "_info" or "".
 * OpenMetrics names the family without it in "# TYPE" and "# HELP".
 */
const char *family_sample_suffix(enum family_type type);
