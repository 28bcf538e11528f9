/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

#include <stddef.h>
#include <stdint.h>

int parse_cpu_max(const char *buf, size_t len, uint64_t *ret_quota, uint64_t *ret_period);

/* The windows of cpu.loadavg, in the order of its keys avg60, avg300, avg900. */
#define CPU_LOADAVG_WINDOWS 3

/*
 * cpu.loadavg: "avg60 0.98\navg300 0.61\navg900 0.25\n"; averages in 1/100
 * of a task, bit i of *ret_found set where window i was present.
 */
int parse_cpu_loadavg(const char *buf, size_t len, uint64_t ret_avg[CPU_LOADAVG_WINDOWS],
		      unsigned *ret_found);
