/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

#include <stddef.h>
#include <stdint.h>

int parse_cpu_max(const char *buf, size_t len, uint64_t *ret_quota, uint64_t *ret_period);

/* cpu.loadavg: "0.98 0.61 0.25 3"; averages in 1/100 of a task. */
int parse_cpu_loadavg(const char *buf, size_t len, uint64_t ret_avg[3], uint64_t *ret_nr);
