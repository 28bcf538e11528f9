/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * naming: native. Each metric under its own name, HELP, TYPE and extra
 * label, divided from the stored integer unit to the base unit: the rows
 * of model/metric-rows.h, in metric order.
 */
#pragma once

#include <stdint.h>

#include "exporter/naming.h"
#include "model/metric.h"

struct native_row {
	const char *name; /* the sample name, with _total or _info as the type demands */
	const char *help; /* of the family: the same in every row that shares the name */
	enum family_type type;
	const char *label;	/* name of the sample's label, or NULL */
	uint64_t divisor;	/* stored value / divisor = exported value */
	const char *info_label; /* info metrics: the value becomes this label, sample is 1 */
};

extern const struct native_row native_rows[_METRIC_MAX];
extern const struct naming native_naming;

/* The longest label and info_label names of a row, together (test-render checks). */
#define NATIVE_LABEL_NAMES_MAX 32
