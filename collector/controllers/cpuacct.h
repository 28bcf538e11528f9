/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* The columns of cpuacct.usage_all after the CPU: tick-sampled nanoseconds. */
enum {
	USAGE_ALL_USER,
	USAGE_ALL_SYSTEM,
	USAGE_ALL_COLUMNS,
};

/* *ret holds USAGE_ALL_COLUMNS values per CPU, CPU 0's first; *ret_n counts the CPUs. */
int parse_usage_all(const char *buf, size_t len, uint64_t **ret, size_t *ret_n);
