/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* One row of cpuacct.usage_all: nanoseconds (tick-sampled) per CPU. */
struct cpu_split {
	uint64_t user;
	uint64_t system;
};

int parse_usage_all(const char *buf, size_t len, struct cpu_split **ret, size_t *ret_n);
