/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How each metric is presented to Prometheus: family name, HELP, TYPE, the
 * name of its extra label and the divisor from the stored integer unit
 * (daemon/metric.h) to the base unit.
 */
#pragma once

#include <stdint.h>

#include "metric.h"

enum family_type {
	FAMILY_GAUGE,
	FAMILY_COUNTER,
};

struct family {
	const char *name;
	const char *help;
	enum family_type type;
	const char *label;	/* name of the sample's label, or NULL */
	uint64_t divisor;	/* stored value / divisor = exported value; 0 means 1 */
	const char *info_label; /* info metrics: the value becomes this label, sample is 1 */
};

extern const struct family families[_METRIC_MAX];
