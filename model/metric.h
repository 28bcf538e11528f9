/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The vocabulary shared by readers and the exporter: what a sample means,
 * one METRIC_<id> per row of metric-rows.h. Readers store exact integers
 * in the unit their row's divisor gives; the exporter's namings
 * (exporter/native.c, exporter/cadvisor.c) name them and divide to the
 * Prometheus base unit, so v1 and v2 values stay exact until printed.
 */
#pragma once

/* Room for any label value we produce: device names (DISK_NAME_LEN 32), "2MB", cpu numbers. */
#define LABEL_MAX 48

enum metric {
#define METRIC(id, type, name, label, divisor, info_label, help) METRIC_##id,
#include "model/metric-rows.h"
#undef METRIC
	_METRIC_MAX,
};
