/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

#include <stddef.h>
#include <stdint.h>

int parse_cpu_max(const char *buf, size_t len, uint64_t *ret_quota, uint64_t *ret_period);
